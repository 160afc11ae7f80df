import type { TAppDeps } from '../app-deps';
import { jobQueueFor } from '../modules/ticket-sync/ticket-sync.jobs';
import { createTicketSyncService } from '../modules/ticket-sync/ticket-sync.service';

/** How often the demo rereads the simulator's recently changed tickets. */
const RECONCILE_EVERY_MS = 30_000;
/** Each pass looks back a little further than the interval, so a change made during a pass is not missed. */
const LOOK_BACK_MS = 2 * RECONCILE_EVERY_MS;

/**
 * The demo MSP's tickets copied into psa_tickets at start-up (the simulator's demo history is closed tickets; new ones
 * are open), then kept in step with the simulator by a reconcile of recently changed tickets every 30 s. Returns the number copied first and a stop function.
 */
export async function keepDemoTicketsInStep(deps: TAppDeps, mspId: string, everyMs: number = RECONCILE_EVERY_MS): Promise<{ copied: number; stop: () => void }> {
  const sync = createTicketSyncService({ ...deps, jobs: jobQueueFor(deps), staleAfterMs: deps.config.syncTakeoverAfterMs, maxAttempts: 6 });
  const copied = await sync.reconcileTickets(mspId, {});
  let isRunning = false;
  const timer = setInterval(() => {
    if (isRunning) return;
    isRunning = true;
    sync
      .reconcileTickets(mspId, { updatedSince: new Date(deps.now().getTime() - Math.max(LOOK_BACK_MS, 2 * everyMs)) })
      .catch((error: unknown) => process.stderr.write(`demo: ticket reconcile failed (${error instanceof Error ? error.message : String(error)}); next try in 30 s\n`))
      .finally(() => {
        isRunning = false;
      });
  }, everyMs);
  timer.unref();
  return { copied, stop: () => clearInterval(timer) };
}
