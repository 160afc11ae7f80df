import { describe, expect, it } from 'vitest';
import { newLocalSubType, type TEditableBoard } from '@switchboard/contracts';
import { MIN_TICKETS_FOR_SUGGESTION, priorityLevelScores, scoreBoard, type THistoryTicket } from './board-scoring';

const priorities = [
  { id: 1, name: 'P1 Critical', sortOrder: 1 },
  { id: 2, name: 'P2 High', sortOrder: 2 },
  { id: 3, name: 'P3 Medium', sortOrder: 3 },
  { id: 4, name: 'P4 Low', sortOrder: 4 },
];

const accounts = {
  typeId: 10,
  typeName: 'Accounts',
  isNew: false,
  tempIndex: null,
};
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
        { ...newLocalSubType('x'), subTypeId: 100, subTypeName: 'Password Reset', isNew: false, tempIndex: null, slaDeadLineInHours: 3 },
        { ...newLocalSubType('y'), subTypeId: 101, subTypeName: 'New User', isNew: false, tempIndex: null },
        { ...newLocalSubType('z'), subTypeId: 102, subTypeName: 'Rare Thing', isNew: false, tempIndex: null },
      ],
    },
  ],
};

const at = (hours: number) => new Date(Date.UTC(2025, 0, 1) + hours * 3_600_000);
function ticket(subtypeId: number, priorityId: number, minutes: number, resolvedAfterHours: number): THistoryTicket {
  return { typeId: '10', typeName: 'Accounts', subtypeId: String(subtypeId), subtypeName: null, priorityId: String(priorityId), priorityName: null, timeSpentMinutes: minutes, createdAt: at(0), closedAt: at(resolvedAfterHours) };
}

describe('priority level scores', () => {
  it('gives the PSA order 100, 75, 50, 25 for four priorities, whatever order they arrive in', () => {
    const levels = priorityLevelScores([...priorities].reverse());
    expect([1, 2, 3, 4].map((id) => levels.get(id)?.score)).toEqual([100, 75, 50, 25]);
  });
});

describe('scoreBoard', () => {
  const history: THistoryTicket[] = [
    // Password Reset: 5 tickets, 2 × P1 + 3 × P2 → (200 + 225) / 5 = 85; 15 min each = 75 min in all.
    ticket(100, 1, 15, 1),
    ticket(100, 1, 15, 2),
    ticket(100, 2, 15, 3),
    ticket(100, 2, 15, 4),
    ticket(100, 2, 15, 10),
    // New User: 4 tickets, all P3, 120 min each = 480 min (the busiest subtype → 100).
    ticket(101, 3, 120, 20),
    ticket(101, 3, 120, 30),
    ticket(101, 3, 120, 40),
    ticket(101, 3, 120, 50),
    // Rare Thing: fewer than the minimum.
    ticket(102, 4, 5, 1),
  ];

  it('derives priority score, subtype score, SLA and tier from the history and says how', () => {
    const scored = scoreBoard(board, history, priorities, 'CONNECTWISE');
    const [reset, newUser, rare] = scored.suggestions;
    expect(reset?.priorityScore).toEqual({ value: 85, source: 'history', explanation: 'Mean priority of 5 closed tickets: 2 × P1 Critical (100), 3 × P2 High (75).' });
    // 75 of 480 minutes → 16.
    expect(reset?.subTypeScore.value).toBe(16);
    expect(reset?.subTypeScore.explanation).toBe('75 min of work over 5 tickets; the busiest subtype of this board (Accounts / New User, 480 min) scores 100.');
    // 80th percentile of [1, 2, 3, 4, 10] by nearest rank = the 4th value.
    expect(reset?.slaDeadLineInHours).toMatchObject({ value: 4, source: 'history' });
    expect(reset?.slaDeadLineInHours.explanation).toBe('80% of 5 closed tickets were resolved within 4 h (median 3 h).');
    expect(reset?.tier).toMatchObject({ value: 'Tier1', source: 'history' });
    expect(reset?.suggestedPriority).toEqual({ priorityId: 2, priority: 'P2 High' });
    expect(newUser).toMatchObject({ ticketCount: 4, priorityScore: { value: 50 }, subTypeScore: { value: 100 }, slaDeadLineInHours: { value: 50 }, tier: { value: 'Tier3' } });
    expect(rare?.ticketCount).toBe(1);
    expect(rare?.priorityScore).toMatchObject({ value: 0, source: 'default' });
    expect(rare?.priorityScore.explanation).toContain(`(${MIN_TICKETS_FOR_SUGGESTION} needed)`);
    // The scored board carries the numbers, ready to save.
    expect(scored.board.mspConnectWiseBoardTypes[0]?.mspConnectWiseBoardSubTypes[0]).toMatchObject({ priorityScore: 85, subTypeScore: 16, slaDeadLineInHours: 4, tier: 'Tier1', priorityId: 2 });
    expect(scored.prioritySuggestions.map((p) => p.priorityScore.value)).toEqual([100, 75, 50, 25]);
    expect(scored.prioritySuggestions[0]?.priorityScore.explanation).toBe("Priority 1 of 4 in the PSA's order: 100 × 4/4 = 100; 2 closed tickets of this board had it.");
    expect(scored.history).toEqual({ ticketCount: 10, from: at(0).toISOString(), to: at(0).toISOString() });
  });

  it('matches tickets by names when the subtype is new or the copy has no ids', () => {
    const withNew: TEditableBoard = {
      ...board,
      mspConnectWiseBoardTypes: [{ ...accounts, mspConnectWiseBoardSubTypes: [{ ...newLocalSubType('t1'), subTypeName: 'password reset' }] }],
    };
    const byName = history.slice(0, 5).map((entry) => ({ ...entry, subtypeId: null, subtypeName: 'Password Reset' }));
    expect(scoreBoard(withNew, byName, priorities, 'CONNECTWISE').suggestions[0]).toMatchObject({ ticketCount: 5, priorityScore: { value: 85, source: 'history' } });
  });

  it('without history keeps the 01 §5 defaults (SLA 1 h on ConnectWise, 8 h on Autotask, 1 h for a new subtype) and says so', () => {
    const cw = scoreBoard(board, [], priorities, 'CONNECTWISE');
    expect(cw.suggestions.map((s) => [s.priorityScore.value, s.subTypeScore.value, s.slaDeadLineInHours.value, s.tier.value])).toEqual([
      [0, 0, 1, 'Tier1'],
      [0, 0, 1, 'Tier1'],
      [0, 0, 1, 'Tier1'],
    ]);
    expect(cw.suggestions[0]?.slaDeadLineInHours.explanation).toBe('No closed tickets of this board in the synchronized history yet, so the 01 §5 default applies.');
    expect(scoreBoard(board, [], priorities, 'AUTOTASK').suggestions[0]?.slaDeadLineInHours.value).toBe(8);
    const withNew: TEditableBoard = { ...board, mspConnectWiseBoardTypes: [{ ...accounts, mspConnectWiseBoardSubTypes: [newLocalSubType('n', 'Fresh')] }] };
    expect(scoreBoard(withNew, [], priorities, 'AUTOTASK').suggestions[0]?.slaDeadLineInHours.value).toBe(1);
  });

  it('falls back to ticket counts for the subtype score when no ticket has time entries', () => {
    const untimed = history.map((entry) => ({ ...entry, timeSpentMinutes: null }));
    const [reset, newUser] = scoreBoard(board, untimed, priorities, 'CONNECTWISE').suggestions;
    expect(reset?.subTypeScore).toMatchObject({ value: 100, explanation: '5 tickets; the busiest subtype of this board (Accounts / Password Reset, 5 tickets) scores 100.' });
    expect(newUser?.subTypeScore.value).toBe(80);
    expect(reset?.tier.source).toBe('default');
  });
});
