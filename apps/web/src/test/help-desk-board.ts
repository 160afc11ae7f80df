import type { TMergedCategorization } from '@switchboard/contracts';

/** The simulator's Help Desk board as A-030 answers it: one type (Email) with one subtype (Outlook), closing status Closed. */
export const HELP_DESK_MERGED: TMergedCategorization = {
  boardId: 1,
  boardName: 'Help Desk',
  newCreatingTicketStatus: 'New',
  newCreatingTicketStatusId: 10,
  closingTicketStatus: 'Closed',
  closingTicketStatusId: 11,
  priorities: [{ priorityId: 1, priority: 'Priority 1 - Critical', priorityScore: 0 }],
  mspConnectWiseBoardTypes: [
    {
      typeId: 5,
      typeName: 'Email',
      isNew: false,
      mspConnectWiseBoardSubTypes: [{ subTypeId: 50, subTypeName: 'Outlook', priorityId: null, priority: null, priorityScore: 0, subTypeScore: 0, tier: 'Tier1', slaDeadLineInHours: 1, isNew: false, typeAssociationIds: [5] }],
    },
  ],
  psaType: 'CONNECTWISE',
  isConfigured: false,
  statuses: [
    { id: 10, name: 'New', isClosed: false },
    { id: 11, name: 'Closed', isClosed: true },
  ],
  canCreate: { types: true, subTypes: true, statuses: true, boards: true },
};
