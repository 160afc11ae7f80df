import { batchSyncRangeProblem, MESSAGES, parseSyncDay, type TBatchStatus, type TSyncBoardsBody, type TSyncBoardsResult } from '@switchboard/contracts';
import { isPsaError, type PsaClient, type TPsaTicketRecord, type TStreamTicketsFilter } from '@switchboard/psa';
import type { TAppDeps } from '../../app-deps';
import { AppError, notFound, validation } from '../../lib/app-error';
import type { TActor } from '../../plugins/access';
import { enqueueCategoriserLearning } from '../assistant/categoriser-learning.jobs';
import { upsertTicketCopies, type TTicketCopy } from '../boards/ticket-copies.repository';
import { isIntegrationConfigured } from '../integrations/integrations.presenter';
import { findIntegration } from '../integrations/integrations.repository';
import type { TPsaClientProvider } from '../integrations/psa-client-for-msp';
import { withPsaErrors } from '../integrations/psa-errors';
import { assertStillConnectedTo, isStillConnectedTo, PsaConnectionChanged, psaIdentityOf, workConnectionOf, type TWorkConnection } from '../integrations/psa-identity';
import { queueTimeZoneOf } from '../queue/queue-settings.repository';
import { startOfDayIn } from '../queue/queue.scoring';
import { deleteTicketCopies } from '../psa-events/psa-events.repository';
import { enqueueTicketNotes } from './ticket-notes.jobs';
import { presentBatchStatus } from './ticket-sync.presenter';
import {
  advanceSyncRun,
  claimSyncRun,
  findDirectoryNames,
  beatSyncRun,
  findOpenSyncRuns,
  findStaleSyncRuns,
  findSyncRun,
  insertSyncRun,
  updateSyncRun,
  type TSyncRunRow,
} from './ticket-sync.repository';
import { userAuditFields } from '../../lib/audit';
import { createIntervalLoop } from '../../lib/interval-loop';

export const SYNC_RUN_QUEUE = 'ticket-sync.run';

export interface TTicketSyncDeps extends Pick<TAppDeps, 'database' | 'audit' | 'now' | 'jobQueue'> {
  psaClients: Pick<TPsaClientProvider, 'forMsp'>;
  /**
   * A run whose worker has not reported for this long is taken over by another (a worker that died): SYNC_TAKEOVER_AFTER_MS,
   * decision 021. The holder reports every third of it.
   */
  staleAfterMs: number;
  /** Attempts before a run that keeps failing for a temporary reason is marked FAILED. */
  maxAttempts: number;
}

export interface TSyncRunJob {
  mspId: string;
  runId: string;
}

/** Why a run stops when the MSP's PSA connection changed under it (shown as the phase's error). */
const CONNECTION_CHANGED = 'The PSA connection changed after this sync started, so it was stopped. Start a new sync for the PSA connected now.';

/** Tickets written per transaction; also how often the checkpoint and heartbeat move. */
const FLUSH_TICKETS = 500;
const DAY_MS = 86_400_000;
/**
 * PSA pages phase 2 asks for before it reaches them (one request at a time still): page N+1 and N+2 are prepared by
 * the PSA while page N is mapped and written. Bounds memory to three pages and the batches being written.
 */
const READ_AHEAD_PAGES = 2;

/** The run stopped because this process is stopping; the queue retries it (here or on another replica). */
class SyncInterrupted extends Error {}

/** Another worker claimed the run after this one stalled past the takeover time; this one stops without writing. */
class SyncTakenOver extends Error {}

type TNames = Record<string, Record<string, string>>;

function toCopy(ticket: TPsaTicketRecord, names: TNames, directory: Awaited<ReturnType<typeof findDirectoryNames>>): TTicketCopy {
  const ref = (id: number | null, given: string | null, table: string, fallback?: Map<string, string>) =>
    id === null ? null : { id, name: given ?? names[table]?.[String(id)] ?? fallback?.get(String(id)) ?? null };
  const date = (value: string | null) => {
    const parsed = value ? new Date(value) : null;
    return parsed && !Number.isNaN(parsed.getTime()) ? parsed : null;
  };
  return {
    externalId: ticket.id,
    ticketNumber: ticket.number,
    summary: ticket.summary,
    description: ticket.description,
    board: ref(ticket.boardId, ticket.boardName, 'boards'),
    type: ref(ticket.typeId, ticket.typeName, 'types'),
    subtype: ref(ticket.subtypeId, ticket.subtypeName, 'subtypes'),
    item: ref(ticket.itemId, ticket.itemName, 'items'),
    priority: ref(ticket.priorityId, ticket.priorityName, 'priorities'),
    status: ref(ticket.statusId, ticket.statusName, 'statuses'),
    company: ref(ticket.companyId, ticket.companyName, 'companies', directory.companies),
    contact: ref(ticket.contactId, ticket.contactName, 'contacts', directory.contacts),
    owner: ref(ticket.ownerId, ticket.ownerName, 'members', directory.members),
    isClosed: ticket.isClosed,
    resolution: ticket.resolution,
    createdAt: date(ticket.createdAt),
    updatedAt: date(ticket.updatedAt),
    closedAt: date(ticket.closedAt),
  };
}

/** The connection a run was started for (runs of earlier releases name none: compared by PSA type). */
const connectionOfRun = (run: TSyncRunRow): TWorkConnection => ({ psaType: run.psaType, key: run.psaConnection });

/** What one read of tickets into the copies did (copyTicketsFromPsa). */
export interface TCopyResult {
  written: number;
  /** Copies removed because the PSA no longer has their ticket. */
  deleted: number;
  isCut: boolean;
  requests: number;
  /** The last ticket id read, or null when none was. */
  lastId: number | null;
  /** The newest change time (the PSA's clock) among the tickets read. */
  lastUpdatedAt: Date | null;
}

/** Batch board sync: a durable two-phase job per run. */
export function createTicketSyncService(deps: TTicketSyncDeps) {
  const db = deps.database.db;

  /** checks the range and boards (01 §5 messages, in order), stores the run and enqueues it. */
  async function startSync(actor: TActor, body: TSyncBoardsBody): Promise<TSyncBoardsResult> {
    const problem = batchSyncRangeProblem({ startDate: body.startDate, endDate: body.endDate, boardIds: body.boardIds });
    if (problem) throw validation(problem);
    const integration = await findIntegration(db, actor.mspId);
    // without a saved PSA connection there is no configuration to sync with.
    if (!integration || !isIntegrationConfigured(integration)) throw new AppError('psa_not_configured', MESSAGES.batchSync.userConfigurationNotFound);
    const boardIds = [...new Set(body.boardIds ?? [])];
    const client = await deps.psaClients.forMsp(actor.mspId);
    const known = new Set((await withPsaErrors(() => client.listBoards())).map((board) => board.id));
    const unknown = boardIds.filter((id) => !known.has(id));
    if (unknown.length > 0) throw validation(MESSAGES.batchSync.boardUnknown, unknown.map((id) => ({ name: 'boardIds', reason: `No board ${id} in the PSA.` })));
    const run = await db.transaction(async (tx) => {
      const inserted = await insertSyncRun(tx, {
        mspId: actor.mspId,
        psaType: integration.psaType,
        // The connection the run belongs to: a retry after keys for another PSA were saved must not copy that PSA's tickets.
        psaConnection: psaIdentityOf(integration)?.key ?? null,
        boardIds,
        startDate: String(body.startDate),
        endDate: String(body.endDate),
        requestedBy: actor.userId,
        now: deps.now(),
      });
      await deps.audit.record(tx, { ...userAuditFields(actor), action: 'ticket-sync.start', target: inserted.id, outcome: 'success', details: { boardIds, startDate: inserted.startDate, endDate: inserted.endDate } });
      return inserted;
    });
    // Enqueued after the run row is committed (STYLE: jobs after commit).
    await deps.jobQueue.send(SYNC_RUN_QUEUE, { mspId: actor.mspId, runId: run.id } satisfies TSyncRunJob, { singletonKey: run.id });
    return { parentRunId: run.id };
  }

  /** both phases of the caller's run; another tenant's run is 404. */
  async function getStatus(actor: TActor, runId: string): Promise<TBatchStatus> {
    const run = await findSyncRun(db, actor.mspId, runId);
    if (!run) throw notFound(MESSAGES.batchSync.runNotFound);
    return presentBatchStatus(run);
  }

  /** Re-enqueues every unfinished run (after a restart); a run still held by a live worker is skipped by its claim. */
  async function resumeOpenRuns(): Promise<number> {
    const open = await findOpenSyncRuns(db);
    for (const run of open) await deps.jobQueue.send(SYNC_RUN_QUEUE, { mspId: run.mspId, runId: run.id } satisfies TSyncRunJob, { singletonKey: run.id });
    return open.length;
  }

  /**
   * Decision 021: a run held by a worker that stopped reporting (a replica killed mid-run) goes back to the queue, from
   * whichever replica sweeps first; the claim (a conditional update) lets exactly one worker take it. The singleton
   * key names the claim it replaces, so the sweeps of several replicas send one job per takeover.
   */
  async function takeOverStaleRuns(): Promise<number> {
    const stale = await findStaleSyncRuns(db, new Date(deps.now().getTime() - deps.staleAfterMs));
    for (const run of stale) await deps.jobQueue.send(SYNC_RUN_QUEUE, { mspId: run.mspId, runId: run.id } satisfies TSyncRunJob, { singletonKey: `${run.id}:${run.attempts}` });
    return stale.length;
  }

  /**
   * The run's dates as the MSP's own days (its queue settings' time zone, UTC until an admin picks one): from the
   * start of the first day there to the start of the day after the last, so the end date is a whole day. The zone is
   * read when phase 2 starts (again on a resumed attempt, which only matters if an admin changed it mid-run).
   */
  async function enteredRangeOf(run: TSyncRunRow): Promise<{ createdFrom: Date; createdBefore: Date }> {
    const start = parseSyncDay(run.startDate);
    const end = parseSyncDay(run.endDate);
    if (!start || !end) throw new Error('stored run has an unreadable date range');
    const timeZone = await queueTimeZoneOf(db, run.mspId);
    const dayAfterEnd = new Date(end.getTime() + DAY_MS).toISOString().slice(0, 10);
    return { createdFrom: startOfDayIn(start.toISOString().slice(0, 10), timeZone), createdBefore: startOfDayIn(dayAfterEnd, timeZone) };
  }

  async function phaseOne(run: TSyncRunRow, client: PsaClient, signal: AbortSignal): Promise<TNames> {
    const now = deps.now();
    await updateSyncRun(db, run.mspId, run.id, { phase1Status: 'RUNNING', phase1StartedAt: run.phase1StartedAt ?? now, updatedAt: now }, run.attempts);
    const before = client.requestCount();
    const names: TNames = { boards: {}, statuses: {}, types: {}, subtypes: {}, items: {}, priorities: {} };
    const put = (table: string, rows: { id: number; name: string }[]) => {
      const target = (names[table] ??= {});
      for (const row of rows) target[String(row.id)] = row.name;
    };
    put('boards', await client.listBoards());
    put('priorities', await client.listPriorities());
    // ConnectWise keeps statuses, types, subtypes and items per board; Autotask has one picklist each (read once).
    const scopes = run.psaType === 'CONNECTWISE' ? run.boardIds : [null];
    for (const scope of scopes) {
      if (signal.aborted) throw new SyncInterrupted();
      put('statuses', await client.listStatuses(scope));
      put('types', await client.listTypes(scope));
      put('subtypes', await client.listSubtypes(scope));
      put('items', await client.listItems(scope));
    }
    const finished = deps.now();
    await updateSyncRun(db, run.mspId, run.id, {
      phase1Status: 'COMPLETED',
      phase1Processed: run.boardIds.length,
      phase1FinishedAt: finished,
      phase1Error: null,
      phase2Status: 'QUEUED',
      referenceNames: names,
      psaRequests: run.psaRequests + (client.requestCount() - before),
      heartbeatAt: finished,
      updatedAt: finished,
    }, run.attempts);
    return names;
  }

  async function phaseTwo(run: TSyncRunRow, names: TNames, client: PsaClient, signal: AbortSignal): Promise<void> {
    const now = deps.now();
    await updateSyncRun(db, run.mspId, run.id, { phase2Status: 'RUNNING', phase2StartedAt: run.phase2StartedAt ?? now, updatedAt: now }, run.attempts);
    const entered = await enteredRangeOf(run);
    let buffer: TPsaTicketRecord[] = [];
    let requestsSeen = client.requestCount();
    // Closed tickets are what the MSP's categoriser learns from: one learning job per attempt once its writes have
    // ended, not one per batch (each job brings the model up to date with every close since it was stored, so a job per
    // batch only repeated that work during the sync). A resumed run may have written closed tickets in an attempt that
    // stopped before it could send the job.
    let hasWrittenClosed = run.lastTicketId > 0;
    const write = async (batch: TPsaTicketRecord[]) => {
      const distinct = (pick: (ticket: TPsaTicketRecord) => number | null, given: (ticket: TPsaTicketRecord) => string | null) => [
        ...new Set(batch.filter((ticket) => given(ticket) === null).flatMap((ticket) => (pick(ticket) === null ? [] : [String(pick(ticket))]))),
      ];
      const directory = await findDirectoryNames(db, run.mspId, run.psaType, {
        companies: distinct((ticket) => ticket.companyId, (ticket) => ticket.companyName),
        contacts: distinct((ticket) => ticket.contactId, (ticket) => ticket.contactName),
        members: distinct((ticket) => ticket.ownerId, (ticket) => ticket.ownerName),
      });
      const at = deps.now();
      const requestsNow = client.requestCount();
      await db.transaction(async (tx) => {
        // Keys for another PSA saved since the run started: this batch of the old PSA's tickets is not written (decision 042).
        await assertStillConnectedTo(tx, run.mspId, connectionOfRun(run));
        await upsertTicketCopies(tx, run.mspId, run.psaType, batch.map((ticket) => toCopy(ticket, names, directory)), at);
        const isHeld = await advanceSyncRun(tx, run.mspId, run.id, { claim: run.attempts, tickets: batch.length, psaRequests: requestsNow - requestsSeen, lastTicketId: Math.max(...batch.map((ticket) => ticket.id)), now: at });
        // Rolled back: the worker that took the run over writes these tickets from the checkpoint it found.
        if (!isHeld) throw new SyncTakenOver();
      });
      requestsSeen = requestsNow;
      if (batch.some((ticket) => ticket.isClosed)) hasWrittenClosed = true;
    };
    // A batch is written while the PSA's next pages are read: paging and writing overlap instead of taking turns, so the
    // sync runs at about the PSA's paging speed. One write at a time (the checkpoint moves in order), and the loop
    // waits for it before handing on the next batch, so memory holds at most two batches and the pages read ahead.
    let writing: Promise<void> = Promise.resolve();
    const flush = async () => {
      await writing;
      if (buffer.length === 0) return;
      const batch = buffer;
      buffer = [];
      writing = write(batch);
      // Its failure is taken up by the next `await writing`; until then it is not an unhandled rejection.
      writing.catch(() => undefined);
    };
    try {
      // Read-ahead: the PSA prepares the next pages while this one is mapped and written (the run reads to the end; an
      // interrupted run has sent at most READ_AHEAD_PAGES page requests it will not use, and its retry reads from the checkpoint).
      const filter = { boardIds: run.boardIds, ...entered, afterId: run.lastTicketId };
      for await (const ticket of client.streamTickets(filter, { readAhead: READ_AHEAD_PAGES })) {
        if (signal.aborted) {
          await flush();
          await writing;
          throw new SyncInterrupted();
        }
        buffer.push(ticket);
        if (buffer.length >= FLUSH_TICKETS) await flush();
      }
      await flush();
      await writing;
    } catch (error) {
      // A PSA failure mid-page: the write in flight ends (committed or rolled back) before the run is marked.
      await writing.catch(() => undefined);
      // What was committed before the failure is learnt from now (never throws: a missed job only delays learning).
      if (hasWrittenClosed) await enqueueCategoriserLearning(deps.jobQueue, run.mspId);
      throw error;
    }
    const finished = deps.now();
    await updateSyncRun(db, run.mspId, run.id, { phase2Status: 'COMPLETED', phase2FinishedAt: finished, phase2Error: null, heartbeatAt: null, updatedAt: finished }, run.attempts);
    if (hasWrittenClosed) await enqueueCategoriserLearning(deps.jobQueue, run.mspId);
    // ConnectWise descriptions and resolutions are notes: read in the background, after the run (it stays at paging speed).
    if (run.psaType === 'CONNECTWISE') await enqueueTicketNotes(deps.jobQueue, run.mspId);
  }

  /** True while the MSP is connected to the PSA the run was started for (runs of earlier releases: to a PSA of its type). */
  async function isConnectedTo(run: TSyncRunRow): Promise<boolean> {
    return isStillConnectedTo(await findIntegration(db, run.mspId), connectionOfRun(run));
  }

  /** The queue's handler: claims the run, runs what is left of it, and records how it ended. */
  async function runJob(job: TSyncRunJob, signal: AbortSignal): Promise<void> {
    const run = await claimSyncRun(db, job.mspId, job.runId, deps.now(), new Date(deps.now().getTime() - deps.staleAfterMs));
    if (!run) return; // finished, or a live worker holds it
    // The heartbeat (decision 021): without it a long PSA page or a slow batch would look like a dead worker.
    const takenOver = new AbortController();
    const heartbeat = createIntervalLoop({
      intervalMs: Math.max(250, Math.floor(deps.staleAfterMs / 3)),
      run: async () => {
        if (!(await beatSyncRun(db, run.mspId, run.id, run.attempts, deps.now()))) takenOver.abort();
      },
      onError: () => undefined, // a failed beat is retried at the next tick; a long outage lets another replica take over
    });
    heartbeat.start();
    const workSignal = AbortSignal.any([signal, takenOver.signal]);
    const failPhase = async (message: string) => {
      const at = deps.now();
      const current = await findSyncRun(db, run.mspId, run.id);
      if (current?.phase1Status !== 'COMPLETED') await updateSyncRun(db, run.mspId, run.id, { phase1Status: 'FAILED', phase1Error: message, phase1FinishedAt: at, heartbeatAt: null, updatedAt: at }, run.attempts);
      else await updateSyncRun(db, run.mspId, run.id, { phase2Status: 'FAILED', phase2Error: message, phase2FinishedAt: at, heartbeatAt: null, updatedAt: at }, run.attempts);
    };
    try {
      // Keys for another PSA saved since the run started (or a disconnect): its boards, names and checkpoint mean
      // nothing there, and its tickets would be copied under the old PSA. The run ends; a new one can be started.
      if (!(await isConnectedTo(run))) {
        await failPhase(CONNECTION_CHANGED);
        return;
      }
      const client = await deps.psaClients.forMsp(run.mspId);
      const names = run.phase1Status === 'COMPLETED' ? run.referenceNames : await phaseOne(run, client, workSignal);
      // Phase 2 writes under this worker's claim even when the row was reread.
      const current = { ...((await findSyncRun(db, run.mspId, run.id)) ?? run), attempts: run.attempts };
      await phaseTwo(current, names, client, workSignal);
    } catch (error) {
      // Another worker holds the run now; it carries on from the checkpoint, so this job ends quietly.
      if (error instanceof SyncTakenOver || takenOver.signal.aborted) return;
      // Keys for another PSA were saved while it ran: the batch that saw them was not written (decision 042).
      if (error instanceof PsaConnectionChanged) {
        await failPhase(CONNECTION_CHANGED);
        return;
      }
      if (error instanceof SyncInterrupted || signal.aborted) {
        // Released at once, so the retry (here or on another replica) need not wait for the heartbeat to go stale.
        await updateSyncRun(db, run.mspId, run.id, { heartbeatAt: null, updatedAt: deps.now() }, run.attempts);
        throw error;
      }
      const isTemporary = isPsaError(error) && (error.kind === 'rate_limited' || error.kind === 'unavailable');
      if (isTemporary && run.attempts < deps.maxAttempts) {
        // The adapter already retried with backoff; the queue retries the run later, from its checkpoint.
        await updateSyncRun(db, run.mspId, run.id, { heartbeatAt: null, updatedAt: deps.now() }, run.attempts);
        throw error;
      }
      await failPhase(isPsaError(error) ? `${error.kind}: ${error.message}` : MESSAGES.batchSync.syncedFailed);
      if (!isPsaError(error)) throw error;
    } finally {
      await heartbeat.stop();
    }
  }

  /**
   * Copies the MSP's tickets that are open, or (with `updatedSince`) changed since then, or named by `ticketIds`, into
   * psa_tickets: the reconcile and the webhook events keep the copies in step without reading the whole PSA. Names
   * come from the PSA rows, the boards and priorities lists (unless `withListNames` is false: one request per event)
   * or the synchronized directory. Stops once `maxRequests` PSA requests are spent (`isCut`), so a tenant's budget holds;
   * `lastId` is then the last ticket read (streams run in id order), where the next read can go on. A ticket named by
   * `ticketIds` that the PSA no longer returns was deleted there: its copy goes (and its queue entry with it).
   * `lastUpdatedAt` is the newest PSA change time read, by the PSA's own clock. Every write checks that the MSP is still
   * connected to the PSA read (`connection`, the caller's, else the one connected when the read starts) and throws
   * PsaConnectionChanged when not (decision 042).
   */
  async function copyTicketsFromPsa(
    mspId: string,
    filter: TStreamTicketsFilter,
    options: { maxRequests?: number; withListNames?: boolean; connection?: TWorkConnection } = {},
  ): Promise<TCopyResult> {
    // Read before the client is built, so the client can only be of this connection or a later one (which the writes refuse).
    const integration = await findIntegration(db, mspId);
    const connectedNow = workConnectionOf(integration);
    if (!integration || !connectedNow) return { written: 0, deleted: 0, isCut: false, requests: 0, lastId: null, lastUpdatedAt: null };
    const connection = options.connection ?? connectedNow;
    if (!isStillConnectedTo(integration, connection)) throw new PsaConnectionChanged();
    const client = await deps.psaClients.forMsp(mspId);
    const requestsBefore = client.requestCount();
    const names: TNames = {};
    const fill = (table: string, rows: { id: number; name: string }[]) => {
      names[table] = Object.fromEntries(rows.map((row) => [String(row.id), row.name]));
    };
    if (options.withListNames !== false) {
      fill('boards', await client.listBoards());
      fill('priorities', await client.listPriorities());
    }
    let written = 0;
    let isCut = false;
    let lastId: number | null = null;
    let lastUpdatedAt: Date | null = null;
    // Only a read by id needs to know which came back (see `missing` below).
    const returned = filter.ticketIds ? new Set<number>() : null;
    let buffer: TPsaTicketRecord[] = [];
    const flush = async () => {
      if (buffer.length === 0) return;
      const batch = buffer;
      buffer = [];
      const ids = (pick: (ticket: TPsaTicketRecord) => number | null) => [...new Set(batch.flatMap((ticket) => (pick(ticket) === null ? [] : [String(pick(ticket))])))];
      const directory = await findDirectoryNames(db, mspId, integration.psaType, { companies: ids((ticket) => ticket.companyId), contacts: ids((ticket) => ticket.contactId), members: ids((ticket) => ticket.ownerId) });
      const copies = batch.map((ticket) => toCopy(ticket, names, directory));
      written += await db.transaction(async (tx) => {
        await assertStillConnectedTo(tx, mspId, connection);
        return upsertTicketCopies(tx, mspId, integration.psaType, copies, deps.now());
      });
      // A closed ticket is something the MSP's categoriser learns from (committed above, so the job sees it).
      if (batch.some((ticket) => ticket.isClosed)) await enqueueCategoriserLearning(deps.jobQueue, mspId);
    };
    for await (const ticket of client.streamTickets(filter)) {
      buffer.push(ticket);
      lastId = ticket.id;
      returned?.add(ticket.id);
      const updatedAt = ticket.updatedAt ? new Date(ticket.updatedAt) : null;
      if (updatedAt && !Number.isNaN(updatedAt.getTime()) && (lastUpdatedAt === null || updatedAt > lastUpdatedAt)) lastUpdatedAt = updatedAt;
      if (buffer.length >= FLUSH_TICKETS) await flush();
      if (options.maxRequests !== undefined && client.requestCount() - requestsBefore >= options.maxRequests) {
        isCut = true;
        break;
      }
    }
    await flush();
    // Asked by id and not returned: deleted in the PSA (a lost delete event, or no webhook at all). Only a complete read
    // says so; the same removal as a delete event's, so the queue follows the same way.
    const missing = isCut || !filter.ticketIds || !returned ? [] : filter.ticketIds.filter((ticketId) => !returned.has(ticketId));
    const deleted =
      missing.length === 0
        ? 0
        : await db.transaction(async (tx) => {
            // The PSA that no longer returns them must still be the one the copies came from.
            await assertStillConnectedTo(tx, mspId, connection);
            return deleteTicketCopies(tx, mspId, integration.psaType, missing);
          });
    // A new or changed ConnectWise copy has its notes (description, resolution) read again, in the background.
    if (written > 0 && integration.psaType === 'CONNECTWISE') await enqueueTicketNotes(deps.jobQueue, mspId);
    return { written, deleted, isCut, requests: client.requestCount() - requestsBefore, lastId, lastUpdatedAt };
  }

  /** Copies the MSP's open tickets, or those changed since `updatedSince`, into psa_tickets; returns how many were written. */
  async function reconcileTickets(mspId: string, filter: { openOnly?: boolean; updatedSince?: Date }): Promise<number> {
    return (await copyTicketsFromPsa(mspId, filter)).written;
  }

  return { startSync, getStatus, resumeOpenRuns, takeOverStaleRuns, runJob, reconcileTickets, copyTicketsFromPsa, staleAfterMs: deps.staleAfterMs };
}

export type TTicketSyncService = ReturnType<typeof createTicketSyncService>;
