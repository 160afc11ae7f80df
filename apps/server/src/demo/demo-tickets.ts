import type { TAppDeps } from '../app-deps';
import { createTicketSyncService } from '../modules/ticket-sync/ticket-sync.service';

/**
 * The demo MSP's tickets copied into psa_tickets at start-up (the simulator's demo history is closed tickets; new ones
 * are open). Keeping them in step afterwards is the psa-events reconcile loop's job (PSA_RECONCILE_INTERVAL_MS, 30 s in
 * the embedded start; decision 016) together with the simulator's webhooks — the demo runs no loop of its own.
 * Returns the number copied.
 */
export async function copyDemoTickets(deps: TAppDeps, mspId: string): Promise<number> {
  const sync = createTicketSyncService({ ...deps, staleAfterMs: deps.config.syncTakeoverAfterMs, maxAttempts: 6 });
  return sync.reconcileTickets(mspId, {});
}
