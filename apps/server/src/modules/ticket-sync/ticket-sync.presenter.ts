import type { TBatchStatus, TSyncPhase } from '@switchboard/contracts';
import type { TSyncRunRow } from './ticket-sync.repository';

const iso = (value: Date | null) => (value ? value.toISOString() : null);

/** A-033's body: phase2 only once phase 1 has COMPLETED. */
export function presentBatchStatus(run: TSyncRunRow): TBatchStatus {
  const phase1: TSyncPhase = { status: run.phase1Status, processed: run.phase1Processed, error: run.phase1Error, startedAt: iso(run.phase1StartedAt), finishedAt: iso(run.phase1FinishedAt) };
  const phase2: TSyncPhase | undefined = run.phase2Status
    ? { status: run.phase2Status, processed: run.phase2Processed, error: run.phase2Error, startedAt: iso(run.phase2StartedAt), finishedAt: iso(run.phase2FinishedAt) }
    : undefined;
  return {
    parentRunId: run.id,
    boardIds: run.boardIds,
    startDate: run.startDate,
    endDate: run.endDate,
    psaRequests: run.psaRequests,
    phase1,
    ...(phase2 ? { phase2 } : {}),
  };
}
