import { MESSAGES } from './messages';
import type { TPsaType } from './constants';
import type { TAutotaskQueueConfigInput, TBoardDetailInput, TBoardDetailParsed, TTier } from './schemas/boards';

/** 01 §5, §9; decisions #14. */
export const BOARD_DEFAULTS = {
  priorityScore: 0,
  subTypeScore: 0,
  tier: 'Tier1' as TTier,
  slaHours: { CONNECTWISE: 1, AUTOTASK: 8 } as Record<TPsaType, number>,
  /** A brand-new subtype gets 1 hour whatever the PSA (01 §9, R-175). */
  newSubTypeSlaHours: 1,
} as const;
export const SCORE_MAX = 100;
export const SLA_HOURS_MAX = 8760;
/** success and error states clear after 5 seconds. */
export const BOARD_STATE_CLEAR_MS = 5000;

function numericValue(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '') {
    const parsed = Number(value.trim());
    return Number.isFinite(parsed) ? parsed : null;
  }
  return null;
}

/** a score that is not a number becomes 0. */
export function coerceScore(value: unknown): number {
  return numericValue(value) ?? BOARD_DEFAULTS.priorityScore;
}

/** R-174 / decisions #14: SLA hours that are not a number become 1 (ConnectWise) or 8 (Autotask). */
export function coerceSlaHours(value: unknown, psaType: TPsaType): number {
  return numericValue(value) ?? BOARD_DEFAULTS.slaHours[psaType];
}

export interface TEditableSubType {
  subTypeId: number | null;
  subTypeName: string;
  priorityId: number | null;
  priority: string | null;
  priorityScore: number;
  subTypeScore: number;
  tier: TTier;
  slaDeadLineInHours: number;
  isNew: boolean;
  tempIndex: string | null;
  typeAssociationIds: number[];
}
export interface TEditableType {
  typeId: number | null;
  typeName: string;
  isNew: boolean;
  tempIndex: string | null;
  mspConnectWiseBoardSubTypes: TEditableSubType[];
}
export interface TEditableBoard {
  boardId: number | null;
  boardName: string;
  newCreatingTicketStatus: string | null;
  newCreatingTicketStatusId: number | null;
  closingTicketStatus: string | null;
  closingTicketStatusId: number | null;
  mspConnectWiseBoardTypes: TEditableType[];
  priorities: { priorityId: number; priority: string; priorityScore: number }[];
  /** The stored board's version when the editor read it (decision 012); null: not stored then; absent: not checked. */
  version?: string | null;
}

/** The board with every number resolved by the 01 §5 defaults. */
export function normaliseBoard(board: TBoardDetailParsed, psaType: TPsaType): TEditableBoard {
  return {
    boardId: board.boardId,
    boardName: board.boardName,
    newCreatingTicketStatus: board.newCreatingTicketStatus,
    newCreatingTicketStatusId: board.newCreatingTicketStatusId,
    closingTicketStatus: board.closingTicketStatus,
    closingTicketStatusId: board.closingTicketStatusId,
    ...(board.version !== undefined ? { version: board.version } : {}),
    priorities: board.priorities.map((priority) => ({ priorityId: priority.priorityId, priority: priority.priority, priorityScore: coerceScore(priority.priorityScore) })),
    mspConnectWiseBoardTypes: board.mspConnectWiseBoardTypes.map((type) => ({
      typeId: type.typeId,
      typeName: type.typeName,
      isNew: type.isNew || type.typeId === null,
      tempIndex: type.tempIndex ?? null,
      mspConnectWiseBoardSubTypes: type.mspConnectWiseBoardSubTypes.map((subType) => ({
        subTypeId: subType.subTypeId,
        subTypeName: subType.subTypeName,
        priorityId: subType.priorityId,
        priority: subType.priority,
        priorityScore: coerceScore(subType.priorityScore),
        subTypeScore: coerceScore(subType.subTypeScore),
        tier: subType.tier,
        slaDeadLineInHours: coerceSlaHours(subType.slaDeadLineInHours, psaType),
        isNew: subType.isNew || subType.subTypeId === null,
        tempIndex: subType.tempIndex ?? null,
        typeAssociationIds: subType.typeAssociationIds,
      })),
    })),
  };
}

export interface TBoardProblem {
  name: string;
  reason: string;
}

const isScore = (value: number) => Number.isInteger(value) && value >= 0 && value <= SCORE_MAX;
/** Whole hours only: the board stores SLA hours in an integer column, so 1.5 would silently become 2 (review s29). */
export const isSlaHours = (value: number) => Number.isInteger(value) && value >= 1 && value <= SLA_HOURS_MAX;
const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * What stops a board save (01 §5, §8; decisions #17), in the order the editor shows them; empty
 * when the board may be saved. Shared by the editor (before the call) and the server (always).
 */
export function boardSaveProblems(board: TEditableBoard, psaType: TPsaType): TBoardProblem[] {
  const problems: TBoardProblem[] = [];
  if (board.boardId === null) return [{ name: 'boardId', reason: MESSAGES.boards.noBoardSelected }];
  if (board.newCreatingTicketStatusId === null || board.closingTicketStatusId === null) {
    problems.push({ name: board.newCreatingTicketStatusId === null ? 'newCreatingTicketStatusId' : 'closingTicketStatusId', reason: MESSAGES.boards.statusesRequired });
  }
  board.mspConnectWiseBoardTypes.forEach((type, typeIndex) => {
    const typePath = `mspConnectWiseBoardTypes.${typeIndex}`;
    if (type.typeName.trim() === '') problems.push({ name: `${typePath}.typeName`, reason: MESSAGES.boards.typeNameRequired });
    if (board.mspConnectWiseBoardTypes.findIndex((other) => sameName(other.typeName, type.typeName)) !== typeIndex && type.typeName.trim() !== '') {
      problems.push({ name: `${typePath}.typeName`, reason: MESSAGES.boards.duplicateTypeName });
    }
    if (psaType === 'AUTOTASK' && type.isNew) problems.push({ name: `${typePath}.typeId`, reason: MESSAGES.boards.autotaskCreateNotAllowed });
    type.mspConnectWiseBoardSubTypes.forEach((subType, subIndex) => {
      const path = `${typePath}.mspConnectWiseBoardSubTypes.${subIndex}`;
      if (subType.subTypeName.trim() === '') problems.push({ name: `${path}.subTypeName`, reason: MESSAGES.boards.subTypeNameRequired });
      else if (type.mspConnectWiseBoardSubTypes.findIndex((other) => sameName(other.subTypeName, subType.subTypeName)) !== subIndex) {
        problems.push({ name: `${path}.subTypeName`, reason: MESSAGES.boards.duplicateSubTypeName });
      }
      if (psaType === 'AUTOTASK' && subType.isNew) problems.push({ name: `${path}.subTypeId`, reason: MESSAGES.boards.autotaskCreateNotAllowed });
      if (!isScore(subType.priorityScore)) problems.push({ name: `${path}.priorityScore`, reason: MESSAGES.boards.scoreRange });
      if (!isScore(subType.subTypeScore)) problems.push({ name: `${path}.subTypeScore`, reason: MESSAGES.boards.scoreRange });
      if (!isSlaHours(subType.slaDeadLineInHours)) problems.push({ name: `${path}.slaDeadLineInHours`, reason: MESSAGES.boards.slaRange });
    });
  });
  board.priorities.forEach((priority, index) => {
    if (!isScore(priority.priorityScore)) problems.push({ name: `priorities.${index}.priorityScore`, reason: MESSAGES.boards.scoreRange });
  });
  return problems;
}

/** a new subtype, created locally with a temporary id. */
export function newLocalSubType(tempIndex: string, name = ''): TEditableSubType {
  return {
    subTypeId: null,
    subTypeName: name,
    priorityId: null,
    priority: null,
    priorityScore: BOARD_DEFAULTS.priorityScore,
    subTypeScore: BOARD_DEFAULTS.subTypeScore,
    tier: BOARD_DEFAULTS.tier,
    slaDeadLineInHours: BOARD_DEFAULTS.newSubTypeSlaHours,
    isNew: true,
    tempIndex,
    typeAssociationIds: [],
  };
}

/** a new type, created locally with a temporary id. */
export function newLocalType(tempIndex: string, name = ''): TEditableType {
  return { typeId: null, typeName: name, isNew: true, tempIndex, mspConnectWiseBoardSubTypes: [] };
}

/** Autotask's `autotaskConfigV2` queue in the editor's board shape (same content, ConnectWise field names). */
export function boardFromAutotaskQueue(queue: TAutotaskQueueConfigInput): TBoardDetailInput {
  return {
    boardId: queue.queueId ?? null,
    boardName: queue.queueName ?? '',
    newCreatingTicketStatus: queue.newTicketStatusLabel ?? null,
    newCreatingTicketStatusId: queue.newTicketStatusId ?? null,
    closingTicketStatus: queue.closingStatusLabel ?? null,
    closingTicketStatusId: queue.closingStatusId ?? null,
    ...(queue.version !== undefined ? { version: queue.version } : {}),
    priorities: queue.priorities ?? [],
    mspConnectWiseBoardTypes: (queue.issueTypes ?? []).map((issueType) => ({
      typeId: issueType.value,
      typeName: issueType.label,
      isNew: issueType.isNew ?? false,
      mspConnectWiseBoardSubTypes: (issueType.subIssueTypes ?? []).map((sub) => ({
        subTypeId: sub.value,
        subTypeName: sub.label,
        priorityId: sub.priorityValue ?? null,
        priority: sub.priorityLabel ?? null,
        priorityScore: sub.priorityScore,
        subTypeScore: sub.subTypeScore,
        tier: sub.tier ?? 'Tier1',
        slaDeadLineInHours: sub.slaDeadlineInHours,
        isNew: sub.isNew ?? false,
        typeAssociationIds: issueType.value === null ? [] : [issueType.value],
      })),
    })),
  };
}

/** The editor's board as an `autotaskConfigV2` queue (the A-034 body on Autotask). */
export function autotaskQueueFromBoard(board: TEditableBoard): TAutotaskQueueConfigInput {
  return {
    queueId: board.boardId,
    queueName: board.boardName,
    newTicketStatusLabel: board.newCreatingTicketStatus,
    newTicketStatusId: board.newCreatingTicketStatusId,
    closingStatusLabel: board.closingTicketStatus,
    closingStatusId: board.closingTicketStatusId,
    ...(board.version !== undefined ? { version: board.version } : {}),
    priorities: board.priorities,
    issueTypes: board.mspConnectWiseBoardTypes.map((type) => ({
      value: type.typeId,
      label: type.typeName,
      isNew: type.isNew,
      subIssueTypes: type.mspConnectWiseBoardSubTypes.map((sub) => ({
        value: sub.subTypeId,
        label: sub.subTypeName,
        isNew: sub.isNew,
        priorityValue: sub.priorityId,
        priorityLabel: sub.priority,
        priorityScore: sub.priorityScore,
        subTypeScore: sub.subTypeScore,
        tier: sub.tier,
        slaDeadlineInHours: sub.slaDeadLineInHours,
      })),
    })),
  };
}
