import {
  IMPORT_CHUNK_ROWS,
  MESSAGES,
  type TImportProgress,
  type TProgressiveClient,
  type TProgressiveContact,
  type TSaveSelectedResult,
} from '@switchboard/contracts';
import { isPsaError } from '@switchboard/psa';
import type { TAppDeps } from '../../app-deps';
import { conflict, notFound, validation } from '../../lib/app-error';
import type { TActor } from '../../plugins/access';
import { findIntegration } from '../integrations/integrations.repository';
import { isStillConnectedTo, PsaConnectionChanged, workConnectionOf, writeForConnection, type TWorkConnection } from '../integrations/psa-identity';
import type { TPsaClientProvider } from '../integrations/psa-client-for-msp';
import { appErrorFromPsaError, psaNotConfigured, withPsaErrors } from '../integrations/psa-errors';
import { findSavedCompanyExternalIds, upsertPsaContactsCounted, upsertPsaDirectory, withReferencedCompanies } from '../psa-directory/psa-directory.repository';
import { clientCopy, contactCopy, presentClient, presentContact } from './imports.presenter';
import { addSavedToImportJob, findClientSyncTypeId, findImportJob, insertImportJob, saveClientSyncType, updateImportJob, updateOwnedImportJob, type TImportJobRow, type TImportKind } from './imports.repository';
import { userAuditFields } from '../../lib/audit';

export interface TImportsDeps extends Pick<TAppDeps, 'database' | 'audit' | 'now'> {
  psaClients: Pick<TPsaClientProvider, 'forMsp'>;
}

/** What a progressive stream tells its transport (the SSE route); `send` resolves when the bytes may be dropped. */
export interface TImportSink {
  send(event: 'started' | 'progress' | 'data' | 'complete' | 'error', payload: unknown): Promise<void>;
}

/** Rows per write when the whole directory is synchronized. */
const SYNC_BATCH = 500;
/** The stream rereads its job row (a cancel from any replica) every this many chunks. */
const CANCEL_CHECK_CHUNKS = 2;

/** Clients and contacts loading (A-059/A-060 streams, A-056/A-057 saves, A-042/A-043). */
export function createImportsService(deps: TImportsDeps) {
  const db = deps.database.db;

  const connectionChanged = () => conflict(MESSAGES.imports.connectionChanged);

  /**
   * The PSA connection rows are read from or saved for (decision 042): the one `job`'s stream read (a job of an earlier
   * release, or none: the one connected now). Refused in plain words once keys for another PSA have been saved.
   */
  async function connectionFor(mspId: string, job?: TImportJobRow): Promise<TWorkConnection> {
    const now = workConnectionOf(await findIntegration(db, mspId));
    if (!now) throw psaNotConfigured();
    const connection = { psaType: now.psaType, key: job?.psaConnection ?? now.key };
    if (connection.key !== now.key) throw connectionChanged();
    return connection;
  }

  async function jobOf(actor: TActor, jobId: string, kind: TImportKind): Promise<TImportJobRow> {
    const job = await findImportJob(db, actor.mspId, jobId, kind);
    if (!job) throw notFound(MESSAGES.imports.jobNotFound);
    return job;
  }

  /**
   * Everything a stream needs before its first byte, so a missing connection or an unknown job is a plain problem+json
   * answer rather than a broken event stream. A given `jobId` resumes that job: its counts continue and the PSA is read
   * from after the last row it sent (`lastExternalId`).
   */
  async function prepareStream(actor: TActor, kind: TImportKind, jobId: string | undefined, heldByBrowser?: { afterId: number; received: number }) {
    // Another tenant's (or an unknown) job is 404 before anything else is said about this MSP's PSA.
    const resumed = jobId ? await jobOf(actor, jobId, kind) : undefined;
    // Read before the client is built, so the client is of this connection or a later one (which the stream notices).
    const connection = await connectionFor(actor.mspId, resumed);
    const client = await deps.psaClients.forMsp(actor.mspId);
    const job = resumed ?? (await insertImportJob(db, actor.mspId, kind, actor.userId, connection.key, deps.now()));
    if (!jobId) return { client, connection, job, ownedAt: job.updatedAt, resumeAfter: { lastId: 0, fetched: 0 } };
    // The browser's word is preferred: the job records a chunk as sent once the socket took it, which is before (or
    // without) the browser reading it when the connection dies.
    const resumeAfter = heldByBrowser ? { lastId: heldByBrowser.afterId, fetched: heldByBrowser.received } : { lastId: job.lastExternalId, fetched: job.fetched };
    const ownedAt = deps.now();
    await updateImportJob(db, actor.mspId, job.id, { status: 'STREAMING', fetched: resumeAfter.fetched, lastExternalId: resumeAfter.lastId, updatedAt: ownedAt });
    return { client, connection, job, ownedAt, resumeAfter };
  }

  /**
   * Pages the PSA through the adapter's stream and hands it on in chunks: started, then per chunk a data and a progress
   * event, then complete. Memory holds one chunk: the next page is not read until the sink has taken this one.
   * Ends early (complete with `cancelled`) when `signal` aborts (the browser went away) or the job is cancelled.
   */
  async function runStream(actor: TActor, kind: TImportKind, prepared: Awaited<ReturnType<typeof prepareStream>>, sink: TImportSink, signal: AbortSignal): Promise<void> {
    const { client, connection, job, resumeAfter } = prepared;
    // Every write of this stream is conditional on the job still being as this stream left it (its `updatedAt`): when
    // the browser's connection dropped and it resumed the job through another request (issue #11), the old stream,
    // still paging on a live replica, must not mark the job CANCELLED or rewind its counts under the new one.
    let ownedAt = prepared.ownedAt;
    let isTakenOver = false;
    const write = async (patch: Partial<Pick<TImportJobRow, 'status' | 'fetched' | 'total' | 'lastExternalId'>>) => {
      if (isTakenOver) return;
      const updatedAt = deps.now();
      if (await updateOwnedImportJob(db, actor.mspId, job.id, ownedAt, { ...patch, updatedAt })) ownedAt = updatedAt;
      else if ((await findImportJob(db, actor.mspId, job.id, kind))?.status === 'CANCELLED') isCancelled = true;
      else isTakenOver = true;
    };
    let isCancelled = false;
    await sink.send('started', { importJobId: job.id, kind });
    let total: number | null = null;
    try {
      total = kind === 'clients' ? await client.countCompanies() : await client.countContacts();
      await write({ total });
    } catch (error) {
      // The total only sizes the progress bar; without it the stream still runs (percentage 0 until complete).
      if (!isPsaError(error)) throw error;
    }
    // A resumed job carries on after the last row held (issue #11: the replica streaming it died). Both PSAs stream in
    // id order (ConnectWise `orderBy=id asc`, Autotask pages by id), so "id > that row's id" seeks exactly.
    let fetched = resumeAfter.fetched;
    let page = Math.ceil(fetched / IMPORT_CHUNK_ROWS);
    let lastId = resumeAfter.lastId;
    const from = lastId > 0 ? { afterId: lastId } : {};
    let chunk: (TProgressiveClient | TProgressiveContact)[] = [];
    const flush = async () => {
      if (chunk.length === 0) return;
      // Keys for another PSA saved while this one was read: its rows must not reach the screen that saves them (decision 042).
      if (!isStillConnectedTo(await findIntegration(db, actor.mspId), connection)) throw new PsaConnectionChanged();
      page += 1;
      await sink.send('data', kind === 'clients' ? await withSavedMarks(actor.mspId, connection, chunk as TProgressiveClient[]) : chunk);
      chunk = [];
      const progress: TImportProgress = {
        importJobId: job.id,
        progress: { progressPercentage: total ? Math.min(100, Math.round((fetched / total) * 1000) / 10) : 0, currentPage: page, fetched, total },
      };
      await sink.send('progress', progress);
      await write({ fetched, lastExternalId: lastId });
      if (!isCancelled && page % CANCEL_CHECK_CHUNKS === 0 && (await findImportJob(db, actor.mspId, job.id, kind))?.status === 'CANCELLED') isCancelled = true;
    };
    try {
      const rows = kind === 'clients' ? mapStream(client.streamCompanies(from), presentClient) : mapStream(client.streamContacts({}, from), presentContact);
      for await (const row of rows) {
        if (signal.aborted || isCancelled || isTakenOver) break;
        chunk.push(row);
        fetched += 1;
        lastId = row.id;
        if (chunk.length >= IMPORT_CHUNK_ROWS) await flush();
      }
      if (!signal.aborted && !isCancelled && !isTakenOver) await flush();
    } catch (error) {
      // The code lets the screen word the problem for where the admin stands (refused keys: psa_bad_keys).
      const problem = isPsaError(error) ? appErrorFromPsaError(error) : error instanceof PsaConnectionChanged ? connectionChanged() : { code: 'internal', detail: MESSAGES.imports.loadFailed };
      await write({ status: 'FAILED', fetched });
      if (isTakenOver) return;
      await sink.send('error', { importJobId: job.id, code: problem.code, detail: problem.detail });
      await sink.send('complete', { importJobId: job.id, fetched, total, status: 'FAILED' });
      return;
    }
    // Another request resumed this job: it owns the job and its browser; this stream ends without a word.
    if (isTakenOver) return;
    const status = signal.aborted || isCancelled ? 'CANCELLED' : 'COMPLETE';
    await write({ status, fetched });
    if (!signal.aborted && !isTakenOver) await sink.send('complete', { importJobId: job.id, fetched, total, status });
  }

  /**
   * marks each company of a chunk the MSP has already saved (a copy of the PSA this stream reads; the connection
   * was checked just before), so a second load shows which rows are new. One query per chunk.
   */
  async function withSavedMarks(mspId: string, connection: TWorkConnection, rows: TProgressiveClient[]): Promise<TProgressiveClient[]> {
    const saved = await findSavedCompanyExternalIds(db, mspId, connection.psaType, rows.map((row) => String(row.id)));
    return rows.map((row) => ({ ...row, isAlreadySaved: saved.has(String(row.id)) }));
  }

  /** Ours (api-additions): the cancel button; the stream, on whichever replica, sees it at its next check. */
  async function cancelStream(actor: TActor, kind: TImportKind, jobId: string): Promise<{ importJobId: string; status: string }> {
    const job = await jobOf(actor, jobId, kind);
    if (job.status === 'STREAMING') await updateImportJob(db, actor.mspId, job.id, { status: 'CANCELLED', updatedAt: deps.now() });
    return { importJobId: job.id, status: job.status === 'STREAMING' ? 'CANCELLED' : job.status };
  }

  async function countSaved(actor: TActor, jobId: string | undefined, kind: TImportKind, saved: number): Promise<number | null> {
    return jobId ? addSavedToImportJob(db, actor.mspId, jobId, saved) : null;
  }

  /** upserts the selected companies by PSA id; saving the same rows again changes nothing. */
  async function saveSelectedClients(actor: TActor, rows: TProgressiveClient[], jobId: string | undefined): Promise<TSaveSelectedResult> {
    if (rows.length === 0) throw validation(MESSAGES.imports.nothingSelected);
    const connection = await connectionFor(actor.mspId, jobId ? await jobOf(actor, jobId, 'clients') : undefined);
    const result = await writeForConnection(db, actor.mspId, connection, connectionChanged, async (tx) => {
      const written = await upsertPsaDirectory(tx, actor.mspId, connection.psaType, { companies: dedupe(rows).map(clientCopy) }, deps.now());
      const isNew = written.companies.filter((row) => row.isNew).length;
      await deps.audit.record(tx, { ...userAuditFields(actor), action: 'imports.clients.save', target: jobId ?? null, outcome: 'success', details: { saved: written.companies.length, created: isNew } });
      return written;
    });
    const created = result.companies.filter((row) => row.isNew).length;
    return { saved: result.companies.length, created, updated: result.companies.length - created, skipped: [], jobSaved: await countSaved(actor, jobId, 'clients', result.companies.length) };
  }

  /**
   * upserts the selected contacts by PSA id, linked to their company copy; a contact whose company was not
   * imported (no psa_companies row of this MSP and PSA, or no company at all) is skipped and answered in `skipped`.
   */
  async function saveSelectedContacts(actor: TActor, rows: TProgressiveContact[], jobId: string | undefined): Promise<TSaveSelectedResult> {
    if (rows.length === 0) throw validation(MESSAGES.imports.nothingSelected);
    const connection = await connectionFor(actor.mspId, jobId ? await jobOf(actor, jobId, 'contacts') : undefined);
    const psaType = connection.psaType;
    const unique = dedupe(rows);
    const withCompanyId = unique.flatMap((row) => (row.companyId === null ? [] : [{ ...row, companyId: row.companyId }]));
    const importedCompanies = await withReferencedCompanies(db, actor.mspId, psaType, new Map(), withCompanyId.map(contactCopy));
    const withCompany = withCompanyId.filter((row) => importedCompanies.has(String(row.companyId)));
    const savable = new Set(withCompany.map((row) => row.id));
    const skipped = unique.filter((row) => !savable.has(row.id)).map((row) => ({ id: row.id, reason: MESSAGES.imports.companyNotImported }));
    const result = withCompany.length
      ? await writeForConnection(db, actor.mspId, connection, connectionChanged, async (tx) => {
          const written = await upsertPsaContactsCounted(tx, actor.mspId, psaType, withCompany.map(contactCopy), deps.now());
          await deps.audit.record(tx, { ...userAuditFields(actor), action: 'imports.contacts.save', target: jobId ?? null, outcome: 'success', details: { saved: written.saved, created: written.created, skipped: skipped.length } });
          return written;
        })
      : { saved: 0, created: 0 };
    return { saved: result.saved, created: result.created, updated: result.saved - result.created, skipped, jobSaved: await countSaved(actor, jobId, 'contacts', result.saved) };
  }

  /** the client type the finish step auto-syncs. */
  async function updateClientSync(actor: TActor, clientTypeId: number, clientTypeName: string) {
    const connection = await connectionFor(actor.mspId);
    await writeForConnection(db, actor.mspId, connection, connectionChanged, async (tx) => {
      await saveClientSyncType(tx, actor.mspId, connection.psaType, clientTypeId, deps.now());
      await deps.audit.record(tx, { ...userAuditFields(actor), action: 'imports.client-sync-type', target: String(clientTypeId), outcome: 'success', details: { clientTypeName } });
    });
    return { syncClientsTypeId: clientTypeId, syncClientsTypeName: clientTypeName };
  }

  /**
   * A-043: copies the PSA companies of the client type A-042 recorded and their contacts into the synchronized copies, a
   * batch at a time (bounded memory but for the copied companies' ids). With no type recorded it is refused while the PSA
   * has company types (copying them all would bring vendors and prospects in); a PSA without types has nothing to choose,
   * so every company is copied (R-192 names no rule for that case).
   */
  async function syncClientsContacts(actor: TActor): Promise<{ companies: number; contacts: number }> {
    // Read before the client is built; each batch is written only while the MSP is still connected to it (decision 042).
    const connection = await connectionFor(actor.mspId);
    const psaType = connection.psaType;
    const clientTypeId = await findClientSyncTypeId(db, actor.mspId, psaType);
    const client = await deps.psaClients.forMsp(actor.mspId);
    if (clientTypeId === null && (await withPsaErrors(() => client.listCompanyTypes())).length > 0) throw conflict(MESSAGES.imports.clientTypeRequired);
    let companies = 0;
    let contacts = 0;
    // Contacts follow their company: a vendor's or prospect's people are not the MSP's clients either.
    const copiedCompanyIds = new Set<number>();
    await withPsaErrors(async () => {
      let batch: TProgressiveClient[] = [];
      const writeCompanies = async () => {
        if (batch.length === 0) return;
        const rows = batch;
        batch = [];
        const written = await writeForConnection(db, actor.mspId, connection, connectionChanged, (tx) => upsertPsaDirectory(tx, actor.mspId, psaType, { companies: rows.map(clientCopy) }, deps.now()));
        companies += written.companies.length;
      };
      for await (const company of client.streamCompanies()) {
        if (clientTypeId !== null && !company.types.some((type) => type.id === clientTypeId)) continue;
        copiedCompanyIds.add(company.id);
        batch.push(presentClient(company));
        if (batch.length >= SYNC_BATCH) await writeCompanies();
      }
      await writeCompanies();
      let contactBatch: (TProgressiveContact & { companyId: number })[] = [];
      const writeContacts = async () => {
        if (contactBatch.length === 0) return;
        const rows = contactBatch;
        contactBatch = [];
        contacts += (await writeForConnection(db, actor.mspId, connection, connectionChanged, (tx) => upsertPsaContactsCounted(tx, actor.mspId, psaType, rows.map(contactCopy), deps.now()))).saved;
      };
      for await (const contact of client.streamContacts()) {
        const row = presentContact(contact);
        if (row.companyId === null || (clientTypeId !== null && !copiedCompanyIds.has(row.companyId))) continue;
        contactBatch.push({ ...row, companyId: row.companyId });
        if (contactBatch.length >= SYNC_BATCH) await writeContacts();
      }
      await writeContacts();
    });
    // Written in batches, not one transaction (bounded memory over 50,000 contacts), so the event follows the last batch.
    await deps.audit.record(db, { ...userAuditFields(actor), action: 'imports.sync-all', target: null, outcome: 'success', details: { companies, contacts, clientTypeId } });
    return { companies, contacts };
  }

  return { prepareStream, runStream, cancelStream, saveSelectedClients, saveSelectedContacts, updateClientSync, syncClientsContacts };
}

async function* mapStream<TIn, TOut>(rows: AsyncIterable<TIn>, map: (row: TIn) => TOut): AsyncGenerator<TOut> {
  for await (const row of rows) yield map(row);
}

/** The last of each PSA id wins: one INSERT … ON CONFLICT may not touch a row twice. */
function dedupe<TRow extends { id: number }>(rows: TRow[]): TRow[] {
  return [...new Map(rows.map((row) => [row.id, row])).values()];
}
