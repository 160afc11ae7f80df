import { and, asc, eq, gte, inArray, isNull, lt, lte, ne, notInArray, or, sql } from 'drizzle-orm';
import { psaOutbox, psaTickets, type TDatabase } from '@switchboard/db';
import { findIntegration } from '../integrations/integrations.repository';
import { psaIdentityOf } from '../integrations/psa-identity';

export type TPsaOutboxRow = typeof psaOutbox.$inferSelect;

export interface TNewPsaWrite {
  kind: string;
  idempotencyKey: string;
  target: { type: string; id: string };
  payload: unknown;
  createdBy?: string | null;
}

/** A write as stored: with the PSA connection it was stored for (psaConnectionOf), which every insert sets. */
export type TStoredPsaWrite = TNewPsaWrite & { psaConnection: string };

/** `psa_connection` of a write stored while the MSP had no PSA connected (no keys, or keys cleared). */
export const NO_PSA_CONNECTION = 'none';

/**
 * The MSP's PSA connection now, as a write stores it (decision 013): the identity key of psa-identity.ts, which
 * `sync_runs.psa_connection` stores too (it ignores the keys, so a rotated key is the same connection), or
 * NO_PSA_CONNECTION. Read in the storing transaction: a connection change not yet committed is not seen, so a write
 * stored meanwhile keeps the connection its request began with.
 */
export async function psaConnectionOf(db: TDatabase, mspId: string): Promise<string> {
  return psaIdentityOf(await findIntegration(db, mspId))?.key ?? NO_PSA_CONNECTION;
}

/**
 * A write the PSA does not have and that is still kept: pending, or failed and not discarded by an admin (review s29).
 * What the admin's list, the tickets' counts and Send again work on.
 */
export const isOpenPsaWrite = and(ne(psaOutbox.status, 'done'), isNull(psaOutbox.discardedAt));

/** Not yet sent because an earlier write about the same target is still waiting (a note waits for its ticket's create). */
const waitsForEarlierWrite = sql`exists (
  select 1 from ${psaOutbox} as earlier
  where earlier.msp_id = ${psaOutbox.mspId} and earlier.target_type = ${psaOutbox.targetType}
    and earlier.target_id = ${psaOutbox.targetId} and earlier.status = 'pending' and earlier.seq < ${psaOutbox.seq})`;

/** Stores a write; the same idempotency key answers the row already stored (a resubmitted request). */
export async function insertPsaWrite(db: TDatabase, mspId: string, write: TStoredPsaWrite, now: Date): Promise<{ row: TPsaOutboxRow; isNew: boolean }> {
  const [inserted] = await db
    .insert(psaOutbox)
    .values({
      mspId,
      kind: write.kind,
      idempotencyKey: write.idempotencyKey,
      targetType: write.target.type,
      targetId: write.target.id,
      payload: write.payload,
      createdBy: write.createdBy ?? null,
      psaConnection: write.psaConnection,
      nextAttemptAt: now,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing({ target: [psaOutbox.mspId, psaOutbox.idempotencyKey] })
    .returning();
  if (inserted) return { row: inserted, isNew: true };
  const [existing] = await db.select().from(psaOutbox).where(and(eq(psaOutbox.mspId, mspId), eq(psaOutbox.idempotencyKey, write.idempotencyKey)));
  if (!existing) throw new Error('psa_outbox: the row with this idempotency key vanished');
  return { row: existing, isNew: false };
}

export async function findPsaWrite(db: TDatabase, mspId: string, id: string): Promise<TPsaOutboxRow | null> {
  const [row] = await db.select().from(psaOutbox).where(and(eq(psaOutbox.mspId, mspId), eq(psaOutbox.id, id)));
  return row ?? null;
}

/** The MSP's write stored under an idempotency key, if any. */
export async function findPsaWriteByKey(db: TDatabase, mspId: string, idempotencyKey: string): Promise<TPsaOutboxRow | null> {
  const [row] = await db.select().from(psaOutbox).where(and(eq(psaOutbox.mspId, mspId), eq(psaOutbox.idempotencyKey, idempotencyKey)));
  return row ?? null;
}

/**
 * Takes the lease on one pending row that is due, not held and not waiting behind an earlier write; null when it
 * cannot. A row the PSA asked to wait for (backoff, Retry-After) is not due until then: an admin's "Send again"
 * makes it due first (requeuePsaWrite).
 */
export async function claimPsaWrite(db: TDatabase, mspId: string, id: string, now: Date, leaseUntil: Date): Promise<TPsaOutboxRow | null> {
  const [row] = await db
    .update(psaOutbox)
    .set({ lockedUntil: leaseUntil })
    .where(
      and(
        eq(psaOutbox.mspId, mspId),
        eq(psaOutbox.id, id),
        eq(psaOutbox.status, 'pending'),
        lte(psaOutbox.nextAttemptAt, now),
        or(isNull(psaOutbox.lockedUntil), lt(psaOutbox.lockedUntil, now)),
        sql`not ${waitsForEarlierWrite}`,
      ),
    )
    .returning();
  return row ?? null;
}

/**
 * The keys of the due rows of every MSP, oldest first, leaving out the rows this process is still sending
 * (`inFlightIds`). Nothing is leased here: the retry loop claims each row with claimPsaWrite just before its send,
 * so no row waits out a lease behind slower sends (two replicas may list the same row; only one claims it).
 */
export async function findDuePsaWrites(db: TDatabase, now: Date, limit: number, inFlightIds: readonly string[] = []): Promise<Array<{ mspId: string; id: string }>> {
  return db
    .select({ mspId: psaOutbox.mspId, id: psaOutbox.id })
    .from(psaOutbox)
    .where(
      and(
        eq(psaOutbox.status, 'pending'),
        lte(psaOutbox.nextAttemptAt, now),
        or(isNull(psaOutbox.lockedUntil), lt(psaOutbox.lockedUntil, now)),
        inFlightIds.length > 0 ? notInArray(psaOutbox.id, [...inFlightIds]) : undefined,
        sql`not ${waitsForEarlierWrite}`,
      ),
    )
    .orderBy(asc(psaOutbox.seq))
    .limit(limit);
}

/** Rows still leased by the sender that holds `lease` (its lockedUntil): a sender that lost the row records nothing. */
const heldBy = (mspId: string, id: string, lease: Date) => and(eq(psaOutbox.mspId, mspId), eq(psaOutbox.id, id), eq(psaOutbox.status, 'pending'), eq(psaOutbox.lockedUntil, lease));

/**
 * Marks a write done; false when the sender no longer holds its lease (another worker took the row over).
 * `followUpError`: why the handler's follow-up here failed after the PSA took the write (kept as the row's last error).
 */
export async function markPsaWriteDone(db: TDatabase, mspId: string, id: string, lease: Date, attempts: number, result: unknown, now: Date, followUpError: string | null = null): Promise<boolean> {
  const rows = await db
    .update(psaOutbox)
    .set({ status: 'done', attempts, result: result ?? null, lastError: followUpError, lockedUntil: null, updatedAt: now, doneAt: now })
    .where(heldBy(mspId, id, lease))
    .returning({ id: psaOutbox.id });
  return rows.length > 0;
}

/** A failed attempt: pending again at `nextAttemptAt`, or failed for good when that is null; false when the lease was lost. */
export async function markPsaWriteAttemptFailed(db: TDatabase, mspId: string, id: string, lease: Date, attempts: number, lastError: string, nextAttemptAt: Date | null, now: Date): Promise<boolean> {
  const rows = await db
    .update(psaOutbox)
    .set({
      attempts,
      lastError,
      lockedUntil: null,
      updatedAt: now,
      ...(nextAttemptAt ? { status: 'pending' as const, nextAttemptAt } : { status: 'failed' as const }),
    })
    .where(heldBy(mspId, id, lease))
    .returning({ id: psaOutbox.id });
  return rows.length > 0;
}

/**
 * What a failed row's `result` holds when it was stopped because the MSP's PSA connection changed before it was sent
 * (decision 013): the mark that keeps "Send again" from sending it to the PSA connected now. Kept in `result`, which a
 * failed row does not otherwise use, so no column is needed.
 */
export const NOT_SENT_CONNECTION_CHANGED = 'psa_connection_changed';

/** True for a row stopped because the PSA connection changed (see NOT_SENT_CONNECTION_CHANGED). */
export function isStoppedByConnectionChange(row: Pick<TPsaOutboxRow, 'status' | 'result'>): boolean {
  const { result } = row;
  return row.status === 'failed' && typeof result === 'object' && result !== null && 'notSent' in result && result.notSent === NOT_SENT_CONNECTION_CHANGED;
}

/** The `result` of a write stopped because the PSA connection changed; `meantFor` names the connection it was for. */
function notSentResult(meantFor: string) {
  return { notSent: NOT_SENT_CONNECTION_CHANGED, meantFor };
}

const isNotStoppedByConnectionChange = sql`coalesce(${psaOutbox.result} ->> 'notSent', '') <> ${NOT_SENT_CONNECTION_CHANGED}`;

/**
 * Marks every open write of the MSP failed because its PSA connection changed, in the caller's transaction (the one
 * that changes the connection): `reasons.waiting` for a row waiting, `reasons.sending` for one a sender holds now
 * (it may still land in the PSA it was meant for; that sender records nothing, as it no longer holds a pending row).
 * No handler's onFailed runs: what one would store is another write, which would go to the PSA connected now.
 */
export async function failOpenPsaWritesOfMsp(
  db: TDatabase,
  mspId: string,
  reasons: { waiting: string; sending: string },
  meantFor: string,
  now: Date,
): Promise<{ waiting: number; sending: number }> {
  const stopped = { status: 'failed' as const, lockedUntil: null, updatedAt: now, result: notSentResult(meantFor) };
  const open = and(eq(psaOutbox.mspId, mspId), eq(psaOutbox.status, 'pending'));
  const sending = await db
    .update(psaOutbox)
    .set({ ...stopped, lastError: reasons.sending })
    .where(and(open, gte(psaOutbox.lockedUntil, now)))
    .returning({ id: psaOutbox.id });
  const waiting = await db.update(psaOutbox).set({ ...stopped, lastError: reasons.waiting }).where(open).returning({ id: psaOutbox.id });
  return { waiting: waiting.length, sending: sending.length };
}

/**
 * Settles a held write stored for another PSA connection than the MSP's current one as failed, never sent, marked like
 * the writes a connection change stops (so Send again refuses it; `meantFor` is its stored connection). Its tries are
 * left as they were: nothing was sent. False when the sender no longer holds its lease.
 */
export async function markPsaWriteNotSentForOtherConnection(db: TDatabase, mspId: string, id: string, lease: Date, reason: string, meantFor: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(psaOutbox)
    .set({ status: 'failed', lastError: reason, lockedUntil: null, updatedAt: now, result: notSentResult(meantFor) })
    .where(heldBy(mspId, id, lease))
    .returning({ id: psaOutbox.id });
  return rows.length > 0;
}

/**
 * Makes a pending or failed row due now with its tries counted from the start (an admin's "Send again", e.g. after
 * fixing the cause); a sender's lease on it stays, so a send already going is never made twice. A row stopped because
 * the PSA connection changed is left as it is (null): it would go to another PSA than the one it was meant for; so is
 * a discarded one (never sent again).
 */
export async function requeuePsaWrite(db: TDatabase, mspId: string, id: string, now: Date): Promise<TPsaOutboxRow | null> {
  const [row] = await db
    .update(psaOutbox)
    .set({ status: 'pending', attempts: 0, nextAttemptAt: now, updatedAt: now })
    .where(and(eq(psaOutbox.mspId, mspId), eq(psaOutbox.id, id), isOpenPsaWrite, isNotStoppedByConnectionChange))
    .returning();
  return row ?? null;
}

/**
 * The writes about these targets that the PSA does not have yet (pending, or failed and not discarded), oldest first.
 * `withDiscarded`: the discarded ones too, for a screen that says of each record whether the PSA has it (a note).
 */
export async function psaWritesFor(db: TDatabase, mspId: string, targetType: string, targetIds: readonly string[], options: { withDiscarded?: boolean } = {}): Promise<TPsaOutboxRow[]> {
  if (targetIds.length === 0) return [];
  return db
    .select()
    .from(psaOutbox)
    .where(and(eq(psaOutbox.mspId, mspId), eq(psaOutbox.targetType, targetType), inArray(psaOutbox.targetId, [...targetIds]), options.withDiscarded === true ? ne(psaOutbox.status, 'done') : isOpenPsaWrite))
    .orderBy(asc(psaOutbox.seq));
}

/** The MSP's copy of the ticket a write is about, as the admin's list shows it. */
export interface TPsaWriteTicketCopy {
  externalId: string;
  ticketNumber: string | null;
  summary: string;
}

/** A write with the ticket copy it is about (null unless its target is a ticket copy that is still there). */
export interface TPsaWriteWithTicket {
  row: TPsaOutboxRow;
  ticket: TPsaWriteTicketCopy | null;
}

const UUID_PATTERN = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
/**
 * The psa_tickets row id of a write about a ticket copy (target 'ticket'), null for any other: target ids are
 * text, and only a ticket's is a uuid, so the cast is guarded (CASE evaluates it only for those rows).
 */
const ticketRowIdOfWrite = sql`case when ${psaOutbox.targetType} = 'ticket' and ${psaOutbox.targetId} ~* ${UUID_PATTERN} then ${psaOutbox.targetId}::uuid end`;

/** Writes joined to the MSP's copy of their ticket: the same MSP on both sides, so a write never shows another MSP's ticket. */
function selectWritesWithTicket(db: TDatabase) {
  return db
    .select({ row: psaOutbox, ticketExternalId: psaTickets.externalId, ticketNumber: psaTickets.ticketNumber, ticketSummary: psaTickets.summary })
    .from(psaOutbox)
    .leftJoin(psaTickets, and(eq(psaTickets.mspId, psaOutbox.mspId), eq(psaTickets.id, ticketRowIdOfWrite)));
}

function withTicket(selected: { row: TPsaOutboxRow; ticketExternalId: string | null; ticketNumber: string | null; ticketSummary: string | null }): TPsaWriteWithTicket {
  const { row, ticketExternalId, ticketNumber, ticketSummary } = selected;
  return { row, ticket: ticketExternalId === null ? null : { externalId: ticketExternalId, ticketNumber, summary: ticketSummary ?? '' } };
}

/** An MSP's writes not yet in the PSA and not discarded (the admin's list), newest first, each with its ticket. */
export async function listOpenPsaWrites(db: TDatabase, mspId: string, status: 'pending' | 'failed' | undefined, limit: number): Promise<TPsaWriteWithTicket[]> {
  const rows = await selectWritesWithTicket(db)
    .where(and(eq(psaOutbox.mspId, mspId), isOpenPsaWrite, status ? eq(psaOutbox.status, status) : undefined))
    .orderBy(sql`${psaOutbox.seq} desc`)
    .limit(limit);
  return rows.map(withTicket);
}

/** One write of the MSP with its ticket (the admin's retry answers it); null once discarded, as it is gone from the list. */
export async function findPsaWriteWithTicket(db: TDatabase, mspId: string, id: string): Promise<TPsaWriteWithTicket | null> {
  const [selected] = await selectWritesWithTicket(db).where(and(eq(psaOutbox.mspId, mspId), eq(psaOutbox.id, id), isNull(psaOutbox.discardedAt)));
  return selected ? withTicket(selected) : null;
}

/**
 * Discards a write the PSA refused for good (review s29): it keeps its failed status and is never sent again (the retry
 * loop sends only pending rows, and Send again skips discarded ones). Null when the MSP has no such failed write not
 * yet discarded; the caller tells why from findPsaWrite.
 */
export async function discardFailedPsaWrite(db: TDatabase, mspId: string, id: string, now: Date): Promise<TPsaOutboxRow | null> {
  const [row] = await db
    .update(psaOutbox)
    .set({ discardedAt: now, updatedAt: now })
    .where(and(eq(psaOutbox.mspId, mspId), eq(psaOutbox.id, id), eq(psaOutbox.status, 'failed'), isNull(psaOutbox.discardedAt)))
    .returning();
  return row ?? null;
}

/** The results of the other done writes about the same target as `row` (the records they made at the PSA). */
export async function findOtherDoneResultsForTarget(db: TDatabase, row: Pick<TPsaOutboxRow, 'id' | 'mspId' | 'targetType' | 'targetId'>): Promise<unknown[]> {
  const done = await db
    .select({ result: psaOutbox.result })
    .from(psaOutbox)
    .where(and(eq(psaOutbox.mspId, row.mspId), eq(psaOutbox.targetType, row.targetType), eq(psaOutbox.targetId, row.targetId), eq(psaOutbox.status, 'done'), ne(psaOutbox.id, row.id)));
  return done.map((each) => each.result);
}
