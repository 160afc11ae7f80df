import { describe, expect, it } from 'vitest';
import { newLocalSubType, type TEditableBoard } from '@switchboard/contracts';
import { scoreBoard, type THistoryTicket } from './board-scoring';
import { aiScoreRequest, applyAiProposals } from './board-scoring-ai';

const priorities = [
  { id: 1, name: 'P1 Critical', sortOrder: 1 },
  { id: 2, name: 'P2 High', sortOrder: 2 },
  { id: 3, name: 'P3 Medium', sortOrder: 3 },
  { id: 4, name: 'P4 Low', sortOrder: 4 },
];
const board: TEditableBoard = {
  boardId: 7,
  boardName: 'Help Desk',
  newCreatingTicketStatus: 'New',
  newCreatingTicketStatusId: 1,
  closingTicketStatus: 'Closed',
  closingTicketStatusId: 2,
  priorities: [],
  mspConnectWiseBoardTypes: [
    {
      typeId: 10,
      typeName: 'Accounts',
      isNew: false,
      tempIndex: null,
      mspConnectWiseBoardSubTypes: [
        { ...newLocalSubType('x'), subTypeId: 100, subTypeName: 'Password Reset', isNew: false, tempIndex: null },
        { ...newLocalSubType('y'), subTypeId: 101, subTypeName: 'Rare Thing', isNew: false, tempIndex: null },
      ],
    },
    { typeId: null, typeName: 'Backup', isNew: true, tempIndex: 't1', mspConnectWiseBoardSubTypes: [{ ...newLocalSubType('n1', 'Restore') }] },
  ],
};
// Five Password Reset tickets with times opened and closed but no time entries: priority, score and SLA from history, the tier not.
const history: THistoryTicket[] = [1, 2, 3, 4, 5].map((n) => ({
  typeId: '10',
  typeName: 'Accounts',
  subtypeId: '100',
  subtypeName: 'Password Reset',
  priorityId: '2',
  priorityName: 'P2 High',
  timeSpentMinutes: null,
  createdAt: new Date(Date.UTC(2026, 0, n, 8)),
  closedAt: new Date(Date.UTC(2026, 0, n, 10)),
}));

describe('A-052 with an AI model: only what history cannot support (decision 024)', () => {
  const scored = scoreBoard(board, history, priorities, 'CONNECTWISE');

  it('asks about every subtype with a default number, new ones included, by key; the history-backed numbers are the examples', () => {
    const request = aiScoreRequest(scored, 'Help Desk');
    expect(request.wanted).toEqual([
      { key: 'S1', category: 'Accounts / Password Reset', closedTickets: 5 },
      { key: 'S2', category: 'Accounts / Rare Thing', closedTickets: 0 },
      { key: 'S3', category: 'Backup / Restore', closedTickets: 0 },
    ]);
    expect(request.examples).toEqual([]);
    expect(request.priorities).toEqual([
      { name: 'P1 Critical', score: 100 },
      { name: 'P2 High', score: 75 },
      { name: 'P3 Medium', score: 50 },
      { name: 'P4 Low', score: 25 },
    ]);
  });

  it('replaces only the default numbers, keeps history, and moves the priority to the level nearest the model\'s score', () => {
    const proposal = (key: string) => ({ key, priorityScore: 30, subTypeScore: 40, slaHours: 24, tier: 'Tier3' as const, reason: 'Rarely urgent.' });
    const { scored: merged, applied } = applyAiProposals(scored, [proposal('S1'), proposal('S3')], 'gpt-test', priorities);
    expect(applied).toBe(2);
    const [reset, rare, restore] = merged.suggestions;
    expect(reset?.priorityScore).toMatchObject({ value: 75, source: 'history' });
    expect(reset?.slaDeadLineInHours).toMatchObject({ value: 2, source: 'history' });
    expect(reset?.tier).toEqual({ value: 'Tier3', source: 'llm', explanation: 'Suggested by gpt-test: Rarely urgent.' });
    expect(reset?.suggestedPriority).toEqual({ priorityId: 2, priority: 'P2 High' });
    // Left out by the model: its defaults stand.
    expect(rare?.tier).toMatchObject({ value: 'Tier1', source: 'default' });
    expect(restore).toMatchObject({ priorityScore: { value: 30, source: 'llm' }, slaDeadLineInHours: { value: 24, source: 'llm' }, suggestedPriority: { priorityId: 4, priority: 'P4 Low' } });
    const subtypes = merged.board.mspConnectWiseBoardTypes.flatMap((type) => type.mspConnectWiseBoardSubTypes);
    expect(subtypes.map((sub) => [sub.subTypeName, sub.tier, sub.slaDeadLineInHours, sub.priority])).toEqual([
      ['Password Reset', 'Tier3', 2, 'P2 High'],
      ['Rare Thing', 'Tier1', 1, null],
      ['Restore', 'Tier3', 24, 'P4 Low'],
    ]);
  });
});
