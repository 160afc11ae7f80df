import { and, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import { psaCompanies, psaContacts, psaMembers, psaTickets, syncRuns, type TDatabase } from '@switchboard/db';
import type { TPsaType } from '@switchboard/contracts';

export type TSyncRunRow = typeof syncRuns.$inferSelect;

/** Creates a batch sync run (phase 1 QUEUED, phase 2 absent). */
export async function insertSyncRun(
  db: TDatabase,
  row: { mspId: string; psaType: TPsaType; psaConnection: string | null; boardIds: number[]; startDate: string; endDate: string; requestedBy: string; now: Date },
): Promise<TSyncRunRow> {
  const [run] = await db
    .insert(syncRuns)
    .values({ mspId: row.mspId, psaType: row.psaType, psaConnection: row.psaConnection, boardIds: row.boardIds, startDate: row.startDate, endDate: row.endDate, requestedBy: row.requestedBy, createdAt: row.now, updatedAt: row.now })
    .returning();
  if (!run) throw new Error('sync run insert returned nothing');
  return run;
}

/** The tenant's run, or undefined (another tenant's id reads as absent). */
export async function findSyncRun(db: TDatabase, mspId: string, runId: string): Promise<TSyncRunRow | undefined> {
  const [run] = await db.select().from(syncRuns).where(and(eq(syncRuns.mspId, mspId), eq(syncRuns.id, runId)));
  return run;
}

const isOpen = or(inArray(syncRuns.phase1Status, ['QUEUED', 'RUNNING']), inArray(syncRuns.phase2Status, ['QUEUED', 'RUNNING']));

/** Runs not finished in any tenant (worker start-up re-enqueues them; the queue's singleton key drops repeats). */
export async function findOpenSyncRuns(db: TDatabase): Promise<Pick<TSyncRunRow, 'mspId' | 'id'>[]> {
  return db.select({ mspId: syncRuns.mspId, id: syncRuns.id }).from(syncRuns).where(isOpen).limit(1_000);
}

/** Open runs whose worker stopped reporting before `staleBefore` (it died): every replica's sweep hands them to the queue again. */
export async function findStaleSyncRuns(db: TDatabase, staleBefore: Date): Promise<Pick<TSyncRunRow, 'mspId' | 'id' | 'attempts'>[]> {
  return db
    .select({ mspId: syncRuns.mspId, id: syncRuns.id, attempts: syncRuns.attempts })
    .from(syncRuns)
    .where(and(isOpen, lt(syncRuns.heartbeatAt, staleBefore)))
    .limit(1_000);
}

/**
 * Takes the run for this worker: only when nobody holds it (no heartbeat, or one older than `staleBefore`, i.e. a
 * worker that died). Counts the attempt. Undefined when the run is finished or held elsewhere.
 */
export async function claimSyncRun(db: TDatabase, mspId: string, runId: string, now: Date, staleBefore: Date): Promise<TSyncRunRow | undefined> {
  const [run] = await db
    .update(syncRuns)
    .set({ heartbeatAt: now, attempts: sql`${syncRuns.attempts} + 1`, updatedAt: now })
    .where(and(eq(syncRuns.mspId, mspId), eq(syncRuns.id, runId), isOpen, or(isNull(syncRuns.heartbeatAt), lt(syncRuns.heartbeatAt, staleBefore))))
    .returning();
  return run;
}

/**
 * The holder's heartbeat. `attempts` is the claim's number (each claim adds one), so a worker that was taken over
 * (it stalled past the takeover time) finds nothing to update and learns that it no longer holds the run.
 */
export async function beatSyncRun(db: TDatabase, mspId: string, runId: string, claim: number, now: Date): Promise<boolean> {
  const rows = await db
    .update(syncRuns)
    .set({ heartbeatAt: now })
    .where(and(eq(syncRuns.mspId, mspId), eq(syncRuns.id, runId), eq(syncRuns.attempts, claim), isOpen))
    .returning({ id: syncRuns.id });
  return rows.length > 0;
}

export type TSyncRunPatch = Partial<Omit<TSyncRunRow, 'mspId' | 'id' | 'createdAt'>>;

/** Updates the run (state, counts, checkpoint, heartbeat); with `claim`, only while that claim still holds it. */
export async function updateSyncRun(db: TDatabase, mspId: string, runId: string, patch: TSyncRunPatch, claim?: number): Promise<void> {
  await db
    .update(syncRuns)
    .set(patch)
    .where(and(eq(syncRuns.mspId, mspId), eq(syncRuns.id, runId), claim === undefined ? undefined : eq(syncRuns.attempts, claim)));
}

/**
 * Adds to the run's counters (phase 2 progress and PSA requests) and moves its checkpoint, in one statement; only for
 * the worker holding claim number `claim`. False when another worker has taken the run over (the caller rolls back).
 */
export async function advanceSyncRun(db: TDatabase, mspId: string, runId: string, step: { claim: number; tickets: number; psaRequests: number; lastTicketId: number; now: Date }): Promise<boolean> {
  const rows = await db
    .update(syncRuns)
    .set({
      phase2Processed: sql`${syncRuns.phase2Processed} + ${step.tickets}`,
      psaRequests: sql`${syncRuns.psaRequests} + ${step.psaRequests}`,
      lastTicketId: sql`greatest(${syncRuns.lastTicketId}, ${step.lastTicketId})`,
      heartbeatAt: step.now,
      updatedAt: step.now,
    })
    .where(and(eq(syncRuns.mspId, mspId), eq(syncRuns.id, runId), eq(syncRuns.attempts, step.claim)))
    .returning({ id: syncRuns.id });
  return rows.length > 0;
}

type TDbPsaType = TSyncRunRow['psaType'];

/** Names of synchronized companies, contacts and members by PSA id, for ticket rows that carry ids only (Autotask). */
export async function findDirectoryNames(
  db: TDatabase,
  mspId: string,
  psaType: TDbPsaType,
  ids: { companies: string[]; contacts: string[]; members: string[] },
): Promise<{ companies: Map<string, string>; contacts: Map<string, string>; members: Map<string, string> }> {
  const companies = ids.companies.length
    ? await db.select({ id: psaCompanies.externalId, name: psaCompanies.name }).from(psaCompanies).where(and(eq(psaCompanies.mspId, mspId), eq(psaCompanies.psaType, psaType), inArray(psaCompanies.externalId, ids.companies)))
    : [];
  const contacts = ids.contacts.length
    ? await db
        .select({ id: psaContacts.externalId, first: psaContacts.firstName, last: psaContacts.lastName })
        .from(psaContacts)
        .where(and(eq(psaContacts.mspId, mspId), eq(psaContacts.psaType, psaType), inArray(psaContacts.externalId, ids.contacts)))
    : [];
  const members = ids.members.length
    ? await db
        .select({ id: psaMembers.externalId, first: psaMembers.firstName, last: psaMembers.lastName })
        .from(psaMembers)
        .where(and(eq(psaMembers.mspId, mspId), eq(psaMembers.psaType, psaType), inArray(psaMembers.externalId, ids.members)))
    : [];
  return {
    companies: new Map(companies.map((row) => [row.id, row.name])),
    contacts: new Map(contacts.map((row) => [row.id, `${row.first} ${row.last}`.trim()])),
    members: new Map(members.map((row) => [row.id, `${row.first} ${row.last}`.trim()])),
  };
}

/**
 * ConnectWise copies whose notes are not read since they were written or changed: open ones first (a technician works
 * them now and needs the description), then the closed ones, latest closed first (past resolutions).
 */
export async function findCopiesWithUnreadNotes(db: TDatabase, mspId: string, limit: number): Promise<{ id: string; externalId: string; isClosed: boolean }[]> {
  return db
    .select({ id: psaTickets.id, externalId: psaTickets.externalId, isClosed: psaTickets.isClosed })
    .from(psaTickets)
    .where(and(eq(psaTickets.mspId, mspId), eq(psaTickets.psaType, 'CONNECTWISE'), isNull(psaTickets.notesReadAt)))
    .orderBy(psaTickets.isClosed, sql`${psaTickets.psaClosedAt} desc nulls last`)
    .limit(limit);
}

/** MSPs with ConnectWise copies whose notes are still to be read (the reader is enqueued for each at start-up). */
export async function findMspsWithUnreadNotes(db: TDatabase): Promise<string[]> {
  const rows = await db
    .selectDistinct({ mspId: psaTickets.mspId })
    .from(psaTickets)
    .where(and(eq(psaTickets.psaType, 'CONNECTWISE'), isNull(psaTickets.notesReadAt)))
    .limit(1_000);
  return rows.map((row) => row.mspId);
}

/**
 * Stores what a copy's notes say (a null keeps what the copy holds: the demo's history, a resolution written through the
 * queue) and marks its notes read; a copy another pass read meanwhile is left alone. A changed description or resolution
 * moves synced_at, so the queue's incremental refresh sees it. Returns whether the copy was still waiting.
 */
export async function saveNotesOfCopy(db: TDatabase, mspId: string, id: string, notes: { description: string | null; resolution: string | null; readAt: Date }): Promise<boolean> {
  const description = sql`coalesce(${notes.description}::text, ${psaTickets.description})`;
  const resolution = sql`coalesce(${notes.resolution}::text, ${psaTickets.resolution})`;
  const rows = await db
    .update(psaTickets)
    .set({
      description,
      resolution,
      notesReadAt: notes.readAt,
      syncedAt: sql`case when (${description}, ${resolution}) is distinct from (${psaTickets.description}, ${psaTickets.resolution}) then ${notes.readAt.toISOString()}::timestamptz else ${psaTickets.syncedAt} end`,
    })
    .where(and(eq(psaTickets.mspId, mspId), eq(psaTickets.id, id), isNull(psaTickets.notesReadAt)))
    .returning({ id: psaTickets.id });
  return rows.length > 0;
}
