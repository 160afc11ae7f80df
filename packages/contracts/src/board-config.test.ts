import { describe, expect, it } from 'vitest';
import { MESSAGES } from './messages';
import { ZBoardDetailInput } from './schemas/boards';
import { boardFromAutotaskQueue, boardSaveProblems, coerceScore, coerceSlaHours, newLocalSubType, newLocalType, normaliseBoard, type TEditableBoard } from './board-config';

const board = (overrides: Partial<TEditableBoard> = {}): TEditableBoard => ({
  boardId: 1,
  boardName: 'Help Desk',
  newCreatingTicketStatus: 'New',
  newCreatingTicketStatusId: 10,
  closingTicketStatus: 'Closed',
  closingTicketStatusId: 11,
  priorities: [],
  mspConnectWiseBoardTypes: [{ ...newLocalType('t1', 'Email'), mspConnectWiseBoardSubTypes: [newLocalSubType('s1', 'Outlook')] }],
  ...overrides,
});

describe('numeric defaults (01 §5, decisions #14)', () => {
  it('turns a non-numeric score into 0 and keeps numbers, numeric strings included', () => {
    expect([coerceScore('abc'), coerceScore(''), coerceScore(null), coerceScore(undefined), coerceScore(Number.NaN), coerceScore('42'), coerceScore(7)]).toEqual([0, 0, 0, 0, 0, 42, 7]);
  });
  it('turns non-numeric SLA hours into 1 on ConnectWise and 8 on Autotask', () => {
    expect([coerceSlaHours('x', 'CONNECTWISE'), coerceSlaHours('x', 'AUTOTASK'), coerceSlaHours('12', 'AUTOTASK')]).toEqual([1, 8, 12]);
  });
  it('gives a new subtype priority score 0, subtype score 0, SLA 1 h and Tier1 (R-175) with its temporary id', () => {
    expect(newLocalSubType('tmp-3')).toMatchObject({ subTypeId: null, isNew: true, tempIndex: 'tmp-3', priorityScore: 0, subTypeScore: 0, slaDeadLineInHours: 1, tier: 'Tier1' });
  });
  it('normalises a parsed board: a type or subtype without an id is new', () => {
    const parsed = ZBoardDetailInput.parse({ boardId: 1, mspConnectWiseBoardTypes: [{ typeId: null, typeName: 'A', mspConnectWiseBoardSubTypes: [{ subTypeId: null, subTypeName: 'B', slaDeadLineInHours: 'soon' }] }] });
    const normalised = normaliseBoard(parsed, 'AUTOTASK');
    expect(normalised.mspConnectWiseBoardTypes[0]).toMatchObject({ isNew: true, mspConnectWiseBoardSubTypes: [{ isNew: true, slaDeadLineInHours: 8, priorityScore: 0 }] });
  });
});

describe('boardSaveProblems', () => {
  it('accepts a complete board', () => {
    expect(boardSaveProblems(board(), 'CONNECTWISE')).toEqual([]);
  });
  it('needs a board first (R-172), then both an open and a closed status (R-171)', () => {
    expect(boardSaveProblems(board({ boardId: null, closingTicketStatusId: null }), 'CONNECTWISE')).toEqual([{ name: 'boardId', reason: MESSAGES.boards.noBoardSelected }]);
    expect(boardSaveProblems(board({ closingTicketStatusId: null }), 'CONNECTWISE')).toEqual([{ name: 'closingTicketStatusId', reason: MESSAGES.boards.statusesRequired }]);
    expect(boardSaveProblems(board({ newCreatingTicketStatusId: null }), 'CONNECTWISE')[0]?.reason).toBe(MESSAGES.boards.statusesRequired);
  });
  it('names each field with a problem: blank and duplicate names, scores outside 0–100, SLA outside 1–8760', () => {
    const subType = { ...newLocalSubType('s1', 'Outlook'), priorityScore: 101, subTypeScore: 2.5, slaDeadLineInHours: 0 };
    const problems = boardSaveProblems(
      board({ mspConnectWiseBoardTypes: [{ ...newLocalType('t1', 'Email'), mspConnectWiseBoardSubTypes: [subType, newLocalSubType('s2', ' outlook ')] }, newLocalType('t2', 'EMAIL'), newLocalType('t3', '')] }),
      'CONNECTWISE',
    );
    expect(problems).toEqual([
      { name: 'mspConnectWiseBoardTypes.0.mspConnectWiseBoardSubTypes.0.priorityScore', reason: MESSAGES.boards.scoreRange },
      { name: 'mspConnectWiseBoardTypes.0.mspConnectWiseBoardSubTypes.0.subTypeScore', reason: MESSAGES.boards.scoreRange },
      { name: 'mspConnectWiseBoardTypes.0.mspConnectWiseBoardSubTypes.0.slaDeadLineInHours', reason: MESSAGES.boards.slaRange },
      { name: 'mspConnectWiseBoardTypes.0.mspConnectWiseBoardSubTypes.1.subTypeName', reason: MESSAGES.boards.duplicateSubTypeName },
      { name: 'mspConnectWiseBoardTypes.1.typeName', reason: MESSAGES.boards.duplicateTypeName },
      { name: 'mspConnectWiseBoardTypes.2.typeName', reason: MESSAGES.boards.typeNameRequired },
    ]);
  });
  it('refuses new types and subtypes on Autotask, whose picklists are only mapped (decisions #17)', () => {
    const reasons = boardSaveProblems(board(), 'AUTOTASK').map((problem) => problem.reason);
    expect(reasons).toEqual([MESSAGES.boards.autotaskCreateNotAllowed, MESSAGES.boards.autotaskCreateNotAllowed]);
  });
});

describe('boardFromAutotaskQueue', () => {
  it('carries a queue, its statuses, issue types and sub-issue types into the editor shape', () => {
    const converted = boardFromAutotaskQueue({
      queueId: 5,
      queueName: 'Client Portal',
      newTicketStatusId: 1,
      newTicketStatusLabel: 'New',
      closingStatusId: 5,
      closingStatusLabel: 'Complete',
      issueTypes: [{ value: 3, label: 'Hardware', subIssueTypes: [{ value: 30, label: 'Printer', priorityValue: 2, priorityLabel: 'High', priorityScore: 70, subTypeScore: 40, tier: 'Tier2', slaDeadlineInHours: 6 }] }],
    });
    expect(converted).toMatchObject({
      boardId: 5,
      boardName: 'Client Portal',
      newCreatingTicketStatusId: 1,
      closingTicketStatus: 'Complete',
      mspConnectWiseBoardTypes: [{ typeId: 3, typeName: 'Hardware', mspConnectWiseBoardSubTypes: [{ subTypeId: 30, priorityId: 2, priority: 'High', slaDeadLineInHours: 6, tier: 'Tier2', typeAssociationIds: [3] }] }],
    });
  });
});
