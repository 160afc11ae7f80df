import { z } from 'zod';
import { PSA_TYPES } from '../constants';
import { MESSAGES } from '../messages';
import { ZCustomDomain } from '../validation';

/** Batch sync range limit (01 §9). */
export const BATCH_SYNC_MAX_DAYS = 90;
/** The sync screen waits this long before its first status poll, then polls at this interval (01 §4, §9). */
export const BATCH_SYNC_INITIAL_WAIT_MS = 10_000;
export const BATCH_SYNC_POLL_MS = 45_000;
export const MESSAGE_CLEAR_MS = 5_000;

const ZDay = z.string().trim().max(40);

/**
 * A-058 body. Shape only: the date and board rules are `batchSyncRangeProblem` so the server and the sync screen give
 * the spec's exact messages (01 §5) in the spec's order. psaType: decisions #7 (both accepted; the MSP's PSA is used).
 */
export const ZSyncBoardsBody = z.object({
  mspCustomDomain: ZCustomDomain.optional(),
  psaType: z.enum(PSA_TYPES).optional(),
  boardIds: z.array(z.coerce.number().int().positive()).max(100).nullish(),
  startDate: ZDay.nullish(),
  endDate: ZDay.nullish(),
});
export type TSyncBoardsBody = z.infer<typeof ZSyncBoardsBody>;

export const ZSyncBoardsResult = z.object({ parentRunId: z.uuid() });
export type TSyncBoardsResult = z.infer<typeof ZSyncBoardsResult>;

const DAY_MS = 86_400_000;

/** Parses YYYY-MM-DD (or a full ISO timestamp) to a UTC date; null when it is not a date. */
export function parseSyncDay(value: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})(T.*)?$/.exec(value.trim());
  if (!match) return null;
  const date = new Date(`${match[1]}-${match[2]}-${match[3]}T00:00:00.000Z`);
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== `${match[1]}-${match[2]}-${match[3]}` ? null : date;
}

/** The first problem of a sync request in the spec's order, or null. Equal dates are not "before". */
export function batchSyncRangeProblem(input: { startDate?: string | null; endDate?: string | null; boardIds?: readonly number[] | null }): string | null {
  const start = input.startDate ? parseSyncDay(input.startDate) : null;
  const end = input.endDate ? parseSyncDay(input.endDate) : null;
  if (!start || !end) return MESSAGES.batchSync.datesRequired;
  if (start.getTime() >= end.getTime()) return MESSAGES.batchSync.startBeforeEnd;
  if ((end.getTime() - start.getTime()) / DAY_MS > BATCH_SYNC_MAX_DAYS) return MESSAGES.batchSync.rangeTooLong;
  if (!input.boardIds || input.boardIds.length === 0) return MESSAGES.batchSync.boardRequired;
  return null;
}

export const SYNC_PHASE_STATUSES = ['QUEUED', 'RUNNING', 'COMPLETED', 'FAILED'] as const;
export const ZSyncPhase = z.object({
  status: z.enum(SYNC_PHASE_STATUSES),
  /** Boards read in phase 1; tickets written in phase 2. */
  processed: z.number().int(),
  error: z.string().nullable(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
});
export const ZBatchStatusQuery = z.object({ parentRunId: z.uuid(), mspCustomDomain: ZCustomDomain.optional() });
/** phase1 and phase2; phase2 is present once phase 1 has COMPLETED (absent while it runs or after it FAILED; 01 §4). */
export const ZBatchStatus = z.object({
  parentRunId: z.uuid(),
  boardIds: z.array(z.number().int()),
  startDate: z.string(),
  endDate: z.string(),
  psaRequests: z.number().int(),
  phase1: ZSyncPhase,
  phase2: ZSyncPhase.optional(),
});
export type TBatchStatus = z.infer<typeof ZBatchStatus>;
export type TSyncPhase = z.infer<typeof ZSyncPhase>;

/** polling stops when phase 1 is COMPLETED or FAILED and phase 2 is COMPLETED, FAILED or absent. */
export function isBatchSyncSettled(status: Pick<TBatchStatus, 'phase1' | 'phase2'>): boolean {
  const done = (phase: TSyncPhase | undefined) => phase === undefined || phase.status === 'COMPLETED' || phase.status === 'FAILED';
  return (status.phase1.status === 'COMPLETED' || status.phase1.status === 'FAILED') && done(status.phase2);
}

/** the finished toast shows only if phase 1 is COMPLETED and phase 2 is COMPLETED or absent. */
export function isBatchSyncSuccessful(status: Pick<TBatchStatus, 'phase1' | 'phase2'>): boolean {
  return status.phase1.status === 'COMPLETED' && (status.phase2 === undefined || status.phase2.status === 'COMPLETED');
}
