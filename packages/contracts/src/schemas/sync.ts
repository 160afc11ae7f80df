import { z } from 'zod';
import { PSA_TYPES } from '../constants';
import { SYNC_PHASE_STATUSES } from '../batch-sync';
import { ZCustomDomain } from './common';

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
