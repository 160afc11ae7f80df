import type { TQueueSettings } from '@switchboard/contracts';
import type { TDatabase } from '@switchboard/db';
import type { TAppDeps } from '../../app-deps';
import { deliverQueueWrite, enqueueQueueWrite, QUEUE_WRITES } from './queue.psa-writes';
import { releaseClaimedTickets, type TReleasedTicket } from './queue-claims.repository';
import { findQueueSettings } from './queue-settings.repository';
import { closeTicketsClosedInPsa, closeTicketsOffConfiguredBoards, refreshQueue } from './queue-upkeep.repository';
import { completeTimersOfClosedTickets } from './timers.service';

/** How often one process brings an MSP's queue up to date with the ticket copies and sweeps idle claims. */
export const MAINTENANCE_INTERVAL_MS = 15_000;
const SETTINGS_CACHE_MS = 15_000;
const FULL_PASS_MS = 10 * 60_000;

/**
 * Per-process upkeep of the queue, at most every MAINTENANCE_INTERVAL_MS per MSP and on the request
 * path of queue reads (so a "next" sees tickets synchronized a moment ago without a job runner):
 * new ticket copies enter the queue, reopened ones come back, closed ones and queued ones moved off a configured
 * board leave it (completing the timers left on them), and claims
 * of technicians who signed out or went idle go back (decision in the issue: nothing waits on an absent person).
 */
export function createQueueMaintenance(deps: TAppDeps) {
  const db = deps.database.db;
  const lastRun = new Map<string, number>();
  const lastFull = new Map<string, number>();
  const running = new Map<string, Promise<void>>();
  const completed = new Set<string>();
  const settingsCache = new Map<string, { settings: TQueueSettings; expiresAt: number }>();

  async function settingsOf(mspId: string): Promise<TQueueSettings> {
    const now = deps.now().getTime();
    const cached = settingsCache.get(mspId);
    if (cached && cached.expiresAt > now) return cached.settings;
    const settings = await findQueueSettings(db, mspId);
    settingsCache.set(mspId, { settings, expiresAt: now + SETTINGS_CACHE_MS });
    return settings;
  }

  /** Unassign writes for released tickets the queue had assigned in the PSA, in the caller's transaction. */
  async function enqueueUnassigns(tx: TDatabase, mspId: string, released: TReleasedTicket[]): Promise<string[]> {
    const ids: string[] = [];
    for (const ticket of released.filter((each) => each.isAssignedInPsa)) {
      ids.push(
        await enqueueQueueWrite(tx, {
          mspId,
          kind: QUEUE_WRITES.unassign,
          ticketRowId: ticket.ticketRowId,
          idempotencyKey: `unassign:${ticket.id}:${deps.now().getTime()}`,
          payload: { ticketId: ticket.psaTicketId, statusName: ticket.newStatusName },
          createdBy: null,
        }, deps.now()),
      );
    }
    return ids;
  }

  /** Tries the given writes after the commit, without holding the request (the outbox retries the rest). */
  function deliverLater(mspId: string, writeIds: string[]): void {
    for (const id of writeIds) void deliverQueueWrite(deps, mspId, id).catch(() => undefined);
  }

  async function run(mspId: string, previousRun: number | undefined): Promise<void> {
    const settings = await settingsOf(mspId);
    const now = deps.now();
    // Compare only what changed since the last pass (with a margin for clock skew between replicas), and
    // everything every FULL_PASS_MS, so a change that slipped past the watermark is picked up too.
    const last = lastFull.get(mspId);
    const isFull = last === undefined || previousRun === undefined || now.getTime() - last >= FULL_PASS_MS;
    const since = isFull || previousRun === undefined ? null : new Date(previousRun - 60_000);
    await refreshQueue(db, mspId, settings, now, since);
    // Closed in the PSA: closed here, and in the same transaction every timer still open on a closed ticket is completed
    // with its time entry queued (a closed ticket refuses A-119, so its minutes would count forever). That includes a
    // timer an older server left running on a ticket it closed without completing its timers (before decision 018's
    // close rule): every pass reads the open timers (one read of the open-timer index), not only a pass that closes, in a
    // statement after the close (a fresh snapshot, so it also sees a timer started just before the close took the ticket's lock).
    await db.transaction(async (tx) => {
      await closeTicketsClosedInPsa(tx, mspId, now, since);
      // Moved to a board that is not configured: no longer the queue's to give out (copies changed since the watermark;
      // a board configuration removed leaves no changed copy behind, so the full pass, every FULL_PASS_MS, reads them all:
      // a queue of 100,000 open tickets is not scanned on every read's upkeep).
      await closeTicketsOffConfiguredBoards(tx, mspId, now, since);
      await completeTimersOfClosedTickets(tx, mspId, now);
    });
    if (isFull) lastFull.set(mspId, now.getTime());
    const writeIds = await db.transaction(async (tx) => {
      const released = await releaseClaimedTickets(tx, mspId, now, { idleMinutes: settings.idleReleaseMinutes, releaseOnSignOut: settings.releaseOnSignOut });
      return enqueueUnassigns(tx, mspId, released);
    });
    deliverLater(mspId, writeIds);
  }

  /**
   * Runs the upkeep when this MSP's last run is older than the interval, and waits for it. Calls
   * arriving while it runs wait only when the queue was never brought up to date in this process;
   * otherwise they go on with the queue as it is (a claim never waits on the upkeep's scan).
   */
  async function maintain(mspId: string, force = false): Promise<void> {
    const now = deps.now().getTime();
    const inFlight = running.get(mspId);
    if (inFlight) return completed.has(mspId) && !force ? undefined : inFlight;
    if (!force && now - (lastRun.get(mspId) ?? 0) < MAINTENANCE_INTERVAL_MS) return;
    const previousRun = lastRun.get(mspId);
    lastRun.set(mspId, now);
    const job = run(mspId, previousRun)
      .then(() => void completed.add(mspId))
      .finally(() => running.delete(mspId));
    running.set(mspId, job);
    return job;
  }

  function forgetSettings(mspId: string): void {
    settingsCache.delete(mspId);
  }

  return { maintain, settingsOf, forgetSettings, enqueueUnassigns, deliverLater };
}
export type TQueueMaintenance = ReturnType<typeof createQueueMaintenance>;
