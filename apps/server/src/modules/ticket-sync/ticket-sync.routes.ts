import { ZBatchStatus, ZBatchStatusQuery, ZSyncBoardsBody, ZSyncBoardsResult } from '@switchboard/contracts';
import type { TModule } from '../../app-deps';
import { createIntervalLoop } from '../../lib/interval-loop';
import { actorOf } from '../../plugins/access';
import { SYNC_ADMIN } from './ticket-sync.policy';
import { enqueueTicketNotes, registerTicketNotesReader } from './ticket-notes.jobs';
import { findMspsWithUnreadNotes } from './ticket-sync.repository';
import { createTicketSyncService, SYNC_RUN_QUEUE, type TSyncRunJob } from './ticket-sync.service';

/** Batch board sync (catalogue group "Batch sync": ). */
export const registerTicketSyncRoutes: TModule = async (app, deps) => {
  const sync = createTicketSyncService({
    ...deps,
    staleAfterMs: deps.jobs?.staleAfterMs ?? deps.config.syncTakeoverAfterMs,
    maxAttempts: deps.jobs?.maxAttempts ?? 6,
  });
  // A sync someone just asked for starts at once, not at the worker's next poll (issue #7: its wall time).
  await deps.jobQueue.work<TSyncRunJob>(SYNC_RUN_QUEUE, (job, signal) => sync.runJob(job, signal), { startsOnSend: true });
  await registerTicketNotesReader(deps);
  // Unfinished runs (a restart, a replica that died) are picked up again; with none, no worker starts at all.
  // A replica killed mid-run leaves its claim behind; every replica looks for such runs twice per takeover time (decision 021).
  const sweep = createIntervalLoop({
    intervalMs: Math.max(500, Math.floor(sync.staleAfterMs / 2)),
    run: () => sync.takeOverStaleRuns(),
    onError: (error) => app.log.warn({ err: error }, 'ticket sync: looking for stalled runs failed'),
  });
  app.addHook('onReady', async () => {
    await sync.resumeOpenRuns();
    // ConnectWise copies written before a restart (or before the notes reader existed) still get their notes read.
    if (deps.config.psaNotesReadsPerMinute > 0) for (const mspId of await findMspsWithUnreadNotes(deps.database.db)) await enqueueTicketNotes(deps.jobQueue, mspId);
    sweep.start();
  });
  // The app's job queue (every module's workers) stops here, after the sweep that sends to it.
  app.addHook('onClose', async () => {
    await sweep.stop();
    await deps.jobQueue.stop();
  });

  app.post(
    '/psa/api/batch/sync-boards',
    {
      schema: {
        tags: ['ticket-sync'],
        operationId: 'syncBoards',
        summary: 'A-058 Start a batch sync of boards (phase 1) and their tickets entered in the date range (phase 2, max 90 days); returns parentRunId',
        body: ZSyncBoardsBody,
        response: { 200: ZSyncBoardsResult },
      },
      config: { access: SYNC_ADMIN },
    },
    async (request) => sync.startSync(actorOf(request), request.body),
  );

  app.get(
    '/psa/api/batch/status',
    {
      schema: {
        tags: ['ticket-sync'],
        operationId: 'getBatchStatus',
        summary: 'A-033 Status of a batch sync run: phase1 and phase2 (absent until phase 1 has completed)',
        querystring: ZBatchStatusQuery,
        response: { 200: ZBatchStatus },
      },
      config: { access: SYNC_ADMIN },
    },
    async (request) => sync.getStatus(actorOf(request), request.query.parentRunId),
  );
};
