import { describe, expect, it } from 'vitest';
import type { TBoardDetailView } from '@switchboard/contracts';
import { addSubType, addType, editableFromView, removeNewSubType, removeNewType, setStatus, subTypeKey, typeKey, updateSubType } from './board-editor-state';

const view: TBoardDetailView = {
  boardId: 1,
  boardName: 'Help Desk',
  newCreatingTicketStatus: 'New',
  newCreatingTicketStatusId: 10,
  closingTicketStatus: 'Closed',
  closingTicketStatusId: 11,
  priorities: [{ priorityId: 1, priority: 'P1', priorityScore: 100 }],
  mspConnectWiseBoardTypes: [
    {
      typeId: 5,
      typeName: 'Email',
      isNew: false,
      mspConnectWiseBoardSubTypes: [{ subTypeId: 50, subTypeName: 'Outlook', priorityId: 1, priority: 'P1', priorityScore: 10, subTypeScore: 20, tier: 'Tier2', slaDeadLineInHours: 4, isNew: false, typeAssociationIds: [5] }],
    },
  ],
};

describe('board editor state (01 §4)', () => {
  it('adds a new type and subtype locally with temporary ids and the R-175 defaults', () => {
    const withType = addType(editableFromView(view), '  Backup ');
    const added = withType.mspConnectWiseBoardTypes[1];
    expect(added).toMatchObject({ typeId: null, typeName: 'Backup', isNew: true });
    expect(added?.tempIndex).toMatch(/^tmp-/);
    const withSub = addSubType(withType, typeKey(added ?? { typeId: null, tempIndex: null }), 'Restore');
    expect(withSub.mspConnectWiseBoardTypes[1]?.mspConnectWiseBoardSubTypes[0]).toMatchObject({ subTypeId: null, subTypeName: 'Restore', isNew: true, priorityScore: 0, subTypeScore: 0, slaDeadLineInHours: 1, tier: 'Tier1' });
  });

  it('removes only subtypes and types that were never saved (R-170)', () => {
    const board = addSubType(editableFromView(view), 'id-5', 'Calendar');
    const saved = board.mspConnectWiseBoardTypes[0]?.mspConnectWiseBoardSubTypes[0];
    const fresh = board.mspConnectWiseBoardTypes[0]?.mspConnectWiseBoardSubTypes[1];
    if (!saved || !fresh) throw new Error('subtypes missing');
    expect(removeNewSubType(board, 'id-5', subTypeKey(saved)).mspConnectWiseBoardTypes[0]?.mspConnectWiseBoardSubTypes).toHaveLength(2);
    expect(removeNewSubType(board, 'id-5', subTypeKey(fresh)).mspConnectWiseBoardTypes[0]?.mspConnectWiseBoardSubTypes.map((sub) => sub.subTypeName)).toEqual(['Outlook']);
    expect(removeNewType(board, 'id-5').mspConnectWiseBoardTypes).toHaveLength(1);
  });

  it('changes one subtype and the statuses without touching the rest', () => {
    const board = setStatus(updateSubType(editableFromView(view), 'id-5', 'id-50', { tier: 'Tier3' }), 'closed', null);
    expect(board.mspConnectWiseBoardTypes[0]?.mspConnectWiseBoardSubTypes[0]).toMatchObject({ tier: 'Tier3', slaDeadLineInHours: 4 });
    expect(board).toMatchObject({ closingTicketStatusId: null, closingTicketStatus: null, newCreatingTicketStatusId: 10 });
  });
});
