import { z } from 'zod';
import type { TAppDeps } from '../../app-deps';
import { lockForMsp } from '../../lib/advisory-lock';
import { AppError, validation } from '../../lib/app-error';
import { decryptSecret, encryptSecret, randomToken, safeEqualHex, sha256 } from '../../lib/crypto';
import { createGuardedFetch } from '../../lib/guarded-fetch';
import { isIntegrationConfigured } from '../integrations/integrations.presenter';
import { findIntegration } from '../integrations/integrations.repository';
import type { TPsaClientProvider } from '../integrations/psa-client-for-msp';
import { assertStillConnectedTo, isSamePsa, PsaConnectionChanged, psaIdentityOf, workConnectionOf, type TWorkConnection } from '../integrations/psa-identity';
import { createTicketSyncService } from '../ticket-sync/ticket-sync.service';
import {
  countEvent,
  deleteEventSubscription,
  deleteReconcileCursor,
  deleteTicketCopies,
  findEventSubscription,
  findReconcileCursor,
  listConnectedMsps,
  listOpenCopyIds,
  markReconciled,
  saveCheckedAfterId,
  saveEventSubscription,
  saveReconcileWindow,
  type TPsaEventSubscriptionRow,
} from './psa-events.repository';
import { usableEventsBaseUrl } from './psa-events.delivery';
import { isAutotaskSignatureValid, isConnectWiseSignatureValid } from './psa-events.signatures';

export const PSA_EVENT_QUEUE = 'psa-events.apply';
export const PSA_EVENTS_PATH = '/psa/events';

export interface TPsaEventJob {
  mspId: string;
  ticketId: number;
  isDeleted: boolean;
  /**
   * The connection key of the PSA that sent the event (decision 042): applied only while the MSP is still connected to
   * it. Absent in jobs queued by an earlier release (then the PSA connected when the job runs).
   */
  psaConnection?: string;
}

type TReconcileLog = (message: string, error: unknown) => void;

export interface TPsaEventsDeps extends Pick<TAppDeps, 'database' | 'audit' | 'now' | 'config' | 'jobQueue'> {
  psaClients: Pick<TPsaClientProvider, 'forMsp'>;
  /** Fetches ConnectWise's signing key (tests may pass one that counts calls). */
  fetchSigningKey?: (url: string) => Promise<string>;
}

/** A route token is `{mspId}.{secret}`: the MSP finds its row by primary key, the secret proves the caller got the URL from us. */
const ZRouteToken = z.string().regex(/^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.([A-Za-z0-9_-]{16,128})$/);

const ZConnectWiseCallback = z.object({
  Action: z.string().max(40),
  Type: z.string().max(40),
  ID: z.coerce.number().int().positive().max(2_147_483_647),
  Metadata: z.object({ key_url: z.string().url().max(2000) }),
});

const ZAutotaskEvent = z.object({
  Action: z.enum(['Create', 'Update', 'Delete', 'Deactivated']),
  EntityType: z.string().max(40).optional(),
  Id: z.coerce.number().int().positive().max(2_147_483_647).optional(),
});

const SIGNING_KEY_TTL_MS = 10 * 60_000;
/**
 * A reread starts this long after the first event of a burst; the events for the same ticket that arrive meanwhile
 * merge into it (the queue's 'short' policy), so a burst costs one PSA request, not one per event (decision 022).
 */
export const PSA_EVENT_DEBOUNCE_SECONDS = 2;
/** Each pass rereads a little before its last one, so a change made while a pass ran is not missed. */
const RECONCILE_OVERLAP_MS = 2 * 60_000;
/** Open copies reread per request when checking for tickets deleted in the PSA (an id list both PSAs take in one query). */
const EXISTENCE_CHUNK = 100;

const latest = (a: Date | null, b: Date | null): Date | null => (a === null ? b : b === null || a > b ? a : b);

const refused = () => new AppError('unauthenticated', 'The event’s route token or signature is not valid.');

/**
 * ConnectWise serves the signing key from its API host: the site's host or `api-{site host}` (cloud), never another
 * domain; anything else could make us fetch an address an attacker chose (psa-apis.md §6.1 "Harden it").
 */
function isKeyUrlOfSite(keyUrl: string, psaUrl: string | undefined): boolean {
  if (!psaUrl) return false;
  try {
    const key = new URL(keyUrl);
    const site = new URL(/^https?:\/\//i.test(psaUrl) ? psaUrl : `https://${psaUrl}`);
    const sameHost = key.host === site.host || key.host === `api-${site.host}`;
    return sameHost && (key.protocol === 'https:' || key.protocol === site.protocol);
  } catch {
    return false;
  }
}

/** Ticket events from the PSA and the reconcile that catches missed ones (docs/decisions/016-psa-events-and-reconcile.md). */
export function createPsaEventsService(deps: TPsaEventsDeps) {
  const db = deps.database.db;
  const sync = createTicketSyncService({ ...deps, staleAfterMs: 120_000, maxAttempts: 6 });
  const guardedFetch = createGuardedFetch({ allowList: deps.config.outboundAllowList });
  const signingKeys = new Map<string, { key: string; until: number }>();
  // Work of a PSA the MSP is no longer connected to is expected after a change of keys, not a failure: one line says so.
  const logDropped = (what: string) => process.stderr.write(`psa-events: ${what} was dropped: the PSA connection changed (decision 042)\n`);

  const fetchSigningKey =
    deps.fetchSigningKey ??
    (async (url: string): Promise<string> => {
      const response = await guardedFetch(url, { signal: AbortSignal.timeout(10_000), redirect: 'error' });
      if (!response.ok) throw new Error(`signing key: HTTP ${response.status}`);
      // The key document may arrive JSON-encoded as a string (connectwise-rest parses twice).
      let document: unknown = await response.json();
      if (typeof document === 'string') document = JSON.parse(document);
      const parsed = z.object({ signing_key: z.string().min(1).max(1000) }).safeParse(document);
      if (!parsed.success) throw new Error('signing key: unexpected document');
      return parsed.data.signing_key;
    });

  async function signingKeyAt(url: string): Promise<string> {
    const cached = signingKeys.get(url);
    if (cached && cached.until > Date.now()) return cached.key;
    const key = await fetchSigningKey(url);
    signingKeys.set(url, { key, until: Date.now() + SIGNING_KEY_TTL_MS });
    return key;
  }

  /** Registers the MSP's ticket webhook at its PSA (replacing an earlier one); false when there is no address the PSA could call. */
  async function subscribe(mspId: string): Promise<boolean> {
    // No address the PSA could call: registering would only make it retry into nothing; the reconcile loop covers it.
    const baseUrl = usableEventsBaseUrl(deps.config.psaEventsUrl);
    if (!baseUrl) return false;
    const integration = await findIntegration(db, mspId);
    if (!integration || !isIntegrationConfigured(integration)) return false;
    const connection = psaIdentityOf(integration);
    const client = await deps.psaClients.forMsp(mspId);
    const previous = await findEventSubscription(db, mspId);
    const secret = randomToken(24);
    const webhookSecret = integration.psaType === 'AUTOTASK' ? randomToken(24) : null;
    const webhook = await client.registerTicketWebhook({
      url: `${baseUrl}${PSA_EVENTS_PATH}/${mspId}.${secret}`,
      description: 'Switchboard ticket sync',
      secretKey: webhookSecret ?? '',
    });
    // Keys for another PSA saved while this one registered: the webhook belongs to a connection that is gone (saving
    // the keys dropped its subscription), so it is removed there and not stored; the next pass registers at the new one.
    if (!isSamePsa(connection, psaIdentityOf(await findIntegration(db, mspId)))) {
      await client.unregisterTicketWebhook(webhook.id).catch(() => undefined);
      return false;
    }
    // Two subscribes of one MSP at once (the reconcile loops of two replicas, or a pass and an enable) each registered a
    // webhook; the one that stores second finds the other's row under the MSP's lock and removes its own, so the PSA
    // keeps exactly one. The lock is held for two statements only: no PSA call waits inside the transaction.
    const isStored = await db.transaction(async (tx) => {
      await lockForMsp(tx, 'psa-event-subscription', mspId);
      const current = await findEventSubscription(tx, mspId);
      if (current && current.routeTokenHash !== previous?.routeTokenHash) return false;
      await saveEventSubscription(tx, {
        mspId,
        psaType: integration.psaType,
        webhookId: webhook.id,
        routeTokenHash: sha256(secret),
        secretCiphertext: webhookSecret === null ? null : encryptSecret(deps.config.encryptionKey, webhookSecret),
        createdAt: deps.now(),
      });
      return true;
    });
    if (!isStored) {
      await client.unregisterTicketWebhook(webhook.id).catch(() => undefined);
      return true;
    }
    // The old URL's secret no longer matches the stored hash; its webhook goes too, so the PSA does not keep calling it.
    // Only on the same connection: saving keys for another PSA drops the subscription (and removes its webhook with the
    // old keys), so a row still here was registered at this PSA; the old id would name someone else's callback elsewhere.
    if (previous && previous.psaType === integration.psaType && previous.webhookId !== webhook.id) await client.unregisterTicketWebhook(previous.webhookId).catch(() => undefined);
    return true;
  }

  /** Removes the MSP's webhook at the PSA (while the keys still work) and forgets the subscription and the reconcile cursor. */
  async function unsubscribe(mspId: string): Promise<void> {
    // Disconnecting wipes the keys; the next connection may be another PSA, for which this cursor means nothing.
    await deleteReconcileCursor(db, mspId);
    const subscription = await findEventSubscription(db, mspId);
    if (!subscription) return;
    try {
      const client = await deps.psaClients.forMsp(mspId);
      await client.unregisterTicketWebhook(subscription.webhookId);
    } finally {
      // Forgotten even when the PSA is unreachable: the route token stops working, so stray callouts are refused.
      await deleteEventSubscription(db, mspId);
    }
  }

  /** Checks the route token and the PSA's signature, then queues the ticket to be reread; any failure is a 401. */
  async function receive(routeToken: string, headers: Record<string, string | string[] | undefined>, rawBody: string): Promise<{ queued: number }> {
    const token = ZRouteToken.safeParse(routeToken);
    const [, mspId = '', secret = ''] = token.success ? (/^(.*)\.(.*)$/.exec(token.data) ?? []) : [];
    if (!token.success) throw refused();
    // Read before the subscription: saving keys for another PSA drops the subscription in the same transaction, so an
    // event that finds the subscription was sent by this connection or refused (decision 042).
    const connection = psaIdentityOf(await findIntegration(db, mspId));
    const subscription = await findEventSubscription(db, mspId);
    if (!subscription || !safeEqualHex(subscription.routeTokenHash, sha256(secret))) throw refused();
    let parsed: unknown;
    try {
      parsed = JSON.parse(rawBody);
    } catch {
      parsed = undefined;
    }
    const header = (name: string) => {
      const value = headers[name];
      return Array.isArray(value) ? value[0] : value;
    };
    const job = await verifiedJob(subscription, rawBody, parsed, header);
    if (!job) {
      await countEvent(db, mspId, false, deps.now());
      throw refused();
    }
    await countEvent(db, mspId, true, deps.now());
    if (job === 'deactivated') {
      // Autotask switched the webhook off (too many failed deliveries): the reconcile loop registers a new one.
      await deleteEventSubscription(db, mspId);
      return { queued: 0 };
    }
    if (job === 'ignored' || !connection) return { queued: 0 };
    // A delete has its own key: merged into a waiting reread it would reread a ticket that is gone and keep the copy.
    const jobId = await deps.jobQueue.send(PSA_EVENT_QUEUE, { ...job, psaConnection: connection.key } satisfies TPsaEventJob, { singletonKey: `${job.mspId}:${job.ticketId}:${job.isDeleted ? 'delete' : 'reread'}`, startAfterSeconds: PSA_EVENT_DEBOUNCE_SECONDS });
    // 0: merged into the reread of this ticket that is already waiting to start.
    return { queued: jobId === null ? 0 : 1 };
  }

  async function verifiedJob(
    subscription: TPsaEventSubscriptionRow,
    rawBody: string,
    parsed: unknown,
    header: (name: string) => string | undefined,
  ): Promise<TPsaEventJob | 'deactivated' | 'ignored' | null> {
    const mspId = subscription.mspId;
    if (subscription.psaType === 'AUTOTASK') {
      if (!subscription.secretCiphertext) return null;
      const webhookSecret = decryptSecret(deps.config.encryptionKey, subscription.secretCiphertext);
      if (!isAutotaskSignatureValid(webhookSecret, rawBody, parsed, header('x-hook-signature'))) return null;
      const event = ZAutotaskEvent.safeParse(parsed);
      if (!event.success) throw validation('The event is not an Autotask webhook callout.');
      if (event.data.Action === 'Deactivated') return 'deactivated';
      if (event.data.Id === undefined || (event.data.EntityType !== undefined && event.data.EntityType !== 'Ticket')) return 'ignored';
      return { mspId, ticketId: event.data.Id, isDeleted: event.data.Action === 'Delete' };
    }
    const callback = ZConnectWiseCallback.safeParse(parsed);
    if (!callback.success) return null;
    const integration = await findIntegration(db, mspId);
    if (!isKeyUrlOfSite(callback.data.Metadata.key_url, integration?.settings.psaUrl)) return null;
    let signingKey: string;
    try {
      signingKey = await signingKeyAt(callback.data.Metadata.key_url);
    } catch {
      return null;
    }
    if (!isConnectWiseSignatureValid(signingKey, rawBody, header('x-content-signature'))) return null;
    if (callback.data.Type.toLowerCase() !== 'ticket') return 'ignored';
    return { mspId, ticketId: callback.data.ID, isDeleted: callback.data.Action.toLowerCase() === 'deleted' };
  }

  /**
   * The queue's handler: rereads the ticket from the PSA (the event is only a hint, so an old or replayed one cannot
   * bring old data back; the copy's lastUpdated guard holds against a slower concurrent reread) or drops a deleted one.
   */
  async function applyEvent(job: TPsaEventJob): Promise<void> {
    const integration = await findIntegration(db, job.mspId);
    const connectedNow = workConnectionOf(integration);
    if (!integration || !connectedNow) return;
    // Sent by a PSA the MSP is no longer connected to (decision 042): its ticket id names another ticket now.
    const connection: TWorkConnection = job.psaConnection === undefined ? connectedNow : { psaType: integration.psaType, key: job.psaConnection };
    try {
      if (job.isDeleted) {
        await db.transaction(async (tx) => {
          await assertStillConnectedTo(tx, job.mspId, connection);
          await deleteTicketCopies(tx, job.mspId, integration.psaType, [job.ticketId]);
        });
        return;
      }
      // A ticket the PSA no longer returns is removed here too: its delete event may have been lost.
      await sync.copyTicketsFromPsa(job.mspId, { ticketIds: [job.ticketId] }, { withListNames: false, connection });
    } catch (error) {
      if (!(error instanceof PsaConnectionChanged)) throw error;
      // Nothing to retry: the copies of that PSA are gone, and the new one's events and reconcile take over.
      logDropped(`an event for ticket ${job.ticketId} of MSP ${job.mspId}`);
    }
  }

  /** Requests one reconcile pass may spend, from the hourly share and the interval. */
  const requestsPerPass = () => Math.max(5, Math.floor((deps.config.psaReconcileRequestsPerHour * Math.max(deps.config.psaReconcileIntervalMs, 1)) / 3_600_000));

  /**
   * One MSP's safety net: registers the webhook if it is missing, then rereads the tickets changed since the last pass
   * and checks that open copies still exist in the PSA, within the request budget. A pass cut by the budget keeps the
   * cursor and stores where its window stopped (the last ticket id read): the next pass goes on after it, so a window
   * larger than the budget still finishes. The cursor is kept whether or not there is a webhook, so a server down longer
   * than the look-back still reads what it missed.
   */
  async function reconcileMsp(
    mspId: string,
    options: { updatedSince?: Date; maxRequests?: number; log?: TReconcileLog } = {},
  ): Promise<{ written: number; deleted: number; isCut: boolean; requests: number }> {
    if (!(await findEventSubscription(db, mspId))) {
      // A PSA may refuse the webhook (an API member without callback rights): logged, tried again next pass, and the
      // reread below still runs, or the copies would never follow the PSA.
      await subscribe(mspId).catch((error: unknown) => options.log?.(`psa-events: registering the ticket webhook of MSP ${mspId} failed; the reconcile pass goes on`, error));
    }
    // The PSA this pass reads (decision 042): keys for another saved meanwhile end it without writing or moving the cursor.
    const connection = workConnectionOf(await findIntegration(db, mspId));
    if (!connection) return { written: 0, deleted: 0, isCut: false, requests: 0 };
    try {
      return await reconcileConnection(mspId, connection, options);
    } catch (error) {
      if (!(error instanceof PsaConnectionChanged)) throw error;
      logDropped(`the reconcile pass of MSP ${mspId}`);
      return { written: 0, deleted: 0, isCut: false, requests: 0 };
    }
  }

  async function reconcileConnection(
    mspId: string,
    connection: TWorkConnection,
    options: { updatedSince?: Date; maxRequests?: number },
  ): Promise<{ written: number; deleted: number; isCut: boolean; requests: number }> {
    const startedAt = deps.now();
    const cursor = await findReconcileCursor(db, mspId);
    // An explicit window (a test, an operator) starts afresh; otherwise an unfinished window goes on where it stopped.
    const open = options.updatedSince === undefined && cursor?.windowSince && cursor.windowAfterId !== null ? cursor : null;
    const lookBack = Math.max(2 * deps.config.psaReconcileIntervalMs, RECONCILE_OVERLAP_MS);
    const since =
      options.updatedSince ??
      open?.windowSince ??
      (cursor ? new Date(cursor.lastReconciledAt.getTime() - RECONCILE_OVERLAP_MS) : new Date(startedAt.getTime() - lookBack));
    const windowStartedAt = open?.windowStartedAt ?? startedAt;
    const budget = options.maxRequests ?? requestsPerPass();
    const result = await sync.copyTicketsFromPsa(mspId, { updatedSince: since, ...(open?.windowAfterId ? { afterId: open.windowAfterId } : {}) }, { maxRequests: budget, withListNames: false, connection });
    const seen = latest(open?.windowLastUpdatedAt ?? null, result.lastUpdatedAt);
    if (result.isCut) {
      const afterId = result.lastId ?? open?.windowAfterId ?? 0;
      await saveReconcileWindow(db, mspId, { since, afterId, startedAt: windowStartedAt, lastUpdatedAt: seen }, new Date(since.getTime() + RECONCILE_OVERLAP_MS));
    } else {
      await markReconciled(db, mspId, nextCursor(since, seen, windowStartedAt));
    }
    // At most a quarter of the budget: the check would otherwise spend the whole of it on every pass of a large MSP
    // (100,000 open copies are 1,000 requests), making the budget's cap its steady rate at the PSA.
    const check = await removeDeletedCopies(mspId, connection, Math.min(budget - result.requests, Math.ceil(budget / 4)));
    return { written: result.written, deleted: result.deleted + check.deleted, isCut: result.isCut, requests: result.requests + check.requests };
  }

  /**
   * Where the next window starts (less the overlap), by the PSA's clock: the newest change time the window saw, but no
   * later than our start (a PSA clock ahead of ours) and never before the window's own start. Our clock alone would
   * lose the edits of a PSA whose clock runs behind ours by more than the overlap. A window that saw nothing stays put.
   */
  function nextCursor(since: Date, seen: Date | null, windowStartedAt: Date): Date {
    const current = since.getTime() + RECONCILE_OVERLAP_MS;
    if (!seen) return new Date(current);
    return new Date(Math.max(current, Math.min(seen.getTime(), windowStartedAt.getTime())));
  }

  /**
   * A ticket deleted in the PSA leaves no change to read, and its delete event may never come (no public address,
   * decision 022, or a lost callout): the open copies are reread by id, a chunk at a time while the pass's budget
   * has requests left, going on across passes from a stored position (by ticket id, starting over at the end), and the copies
   * the PSA no longer returns are removed.
   */
  async function removeDeletedCopies(mspId: string, connection: TWorkConnection, requestsLeft: number): Promise<{ deleted: number; requests: number }> {
    const integration = await findIntegration(db, mspId);
    const cursor = await findReconcileCursor(db, mspId);
    if (!integration || !isIntegrationConfigured(integration) || !cursor) return { deleted: 0, requests: 0 };
    let position = cursor.checkedAfterId;
    let deleted = 0;
    let requests = 0;
    while (requests < requestsLeft) {
      const ticketIds = await listOpenCopyIds(db, mspId, integration.psaType, position, EXISTENCE_CHUNK);
      if (ticketIds.length === 0) {
        position = 0; // every open copy checked: the next pass starts over
        break;
      }
      // A chunk is one page: read whole (a cut read could not tell a deleted ticket from one not reached yet), so a
      // pass may go over its budget by at most one chunk's request.
      const result = await sync.copyTicketsFromPsa(mspId, { ticketIds }, { withListNames: false, connection });
      requests += result.requests;
      deleted += result.deleted;
      position = ticketIds.at(-1) ?? position;
    }
    if (position !== cursor.checkedAfterId) await saveCheckedAfterId(db, mspId, position);
    return { deleted, requests };
  }

  /** One pass over every connected MSP; one MSP's failure does not stop the others. */
  async function reconcileAll(log: TReconcileLog): Promise<void> {
    for (const { mspId } of await listConnectedMsps(db)) {
      await reconcileMsp(mspId, { log }).catch((error: unknown) => log(`psa-events: reconcile of MSP ${mspId} failed`, error));
    }
  }

  return { subscribe, unsubscribe, receive, applyEvent, reconcileMsp, reconcileAll };
}

export type TPsaEventsService = ReturnType<typeof createPsaEventsService>;
