import { MESSAGES } from './messages';

/**
 * The plain half of the batch board sync (issue #7): limits, timings and the range rule shared by the server and the
 * sync screen. No zod here, so the screen imports it statically (the schemas are in schemas/sync.ts).
 */

/** Batch sync range limit (01 §9). */
export const BATCH_SYNC_MAX_DAYS = 90;
/** The sync screen waits this long before its first status poll, then polls at this interval (01 §4, §9). */
export const BATCH_SYNC_INITIAL_WAIT_MS = 10_000;
export const BATCH_SYNC_POLL_MS = 45_000;
export const MESSAGE_CLEAR_MS = 5_000;

export const SYNC_PHASE_STATUSES = ['QUEUED', 'RUNNING', 'COMPLETED', 'FAILED'] as const;
export type TSyncPhaseStatus = (typeof SYNC_PHASE_STATUSES)[number];
/** What the settled/successful rules read of an A-033 answer. */
interface TPhaseOutcome {
  phase1: { status: TSyncPhaseStatus };
  phase2?: { status: TSyncPhaseStatus } | undefined;
}

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

/** polling stops when phase 1 is COMPLETED or FAILED and phase 2 is COMPLETED, FAILED or absent. */
export function isBatchSyncSettled(status: TPhaseOutcome): boolean {
  const done = (phase: { status: TSyncPhaseStatus } | undefined) => phase === undefined || phase.status === 'COMPLETED' || phase.status === 'FAILED';
  return (status.phase1.status === 'COMPLETED' || status.phase1.status === 'FAILED') && done(status.phase2);
}

/** the finished toast shows only if phase 1 is COMPLETED and phase 2 is COMPLETED or absent. */
export function isBatchSyncSuccessful(status: TPhaseOutcome): boolean {
  return status.phase1.status === 'COMPLETED' && (status.phase2 === undefined || status.phase2.status === 'COMPLETED');
}
