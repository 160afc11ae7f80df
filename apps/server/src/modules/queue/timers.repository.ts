import { and, asc, eq, gt, inArray, isNotNull, isNull, lt, ne, or, sql } from 'drizzle-orm';
import { queueTickets, queueTimers, queueTimerSessions, type TDatabase } from '@switchboard/db';
import { queueTimeZoneOf } from './queue-settings.repository';
import { sessionFlag } from './queue.scoring';

export type TTimerRow = typeof queueTimers.$inferSelect;
export type TTimerSessionRow = typeof queueTimerSessions.$inferSelect;

/** The technician's open (running or paused) timer on a queue ticket. */
export async function findOpenTimer(db: TDatabase, mspId: string, queueTicketId: string, techId: string, lock = false): Promise<TTimerRow | undefined> {
  const query = db
    .select()
    .from(queueTimers)
    .where(and(eq(queueTimers.mspId, mspId), eq(queueTimers.queueTicketId, queueTicketId), eq(queueTimers.techId, techId), ne(queueTimers.state, 'completed')))
    .limit(1);
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

/** The technician's latest timer on a ticket, open or completed. */
export async function findLatestTimer(db: TDatabase, mspId: string, queueTicketId: string, techId: string): Promise<TTimerRow | undefined> {
  const [row] = await db
    .select()
    .from(queueTimers)
    .where(and(eq(queueTimers.mspId, mspId), eq(queueTimers.queueTicketId, queueTicketId), eq(queueTimers.techId, techId)))
    .orderBy(sql`${queueTimers.startedAt} desc`)
    .limit(1);
  return row;
}

/** One timer of the MSP by id (a session's own timer, whatever timers came after it); `lock` takes it FOR UPDATE. */
export async function findTimer(db: TDatabase, mspId: string, timerId: string, lock = false): Promise<TTimerRow | undefined> {
  const query = db
    .select()
    .from(queueTimers)
    .where(and(eq(queueTimers.mspId, mspId), eq(queueTimers.id, timerId)))
    .limit(1);
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

/** The open (running or paused) timers on these queue tickets, of every technician or of one, unlocked. */
export async function listOpenTimersOfTickets(db: TDatabase, mspId: string, queueTicketIds: string[], techId?: string): Promise<TTimerRow[]> {
  if (queueTicketIds.length === 0) return [];
  return db
    .select()
    .from(queueTimers)
    .where(and(eq(queueTimers.mspId, mspId), inArray(queueTimers.queueTicketId, queueTicketIds), ne(queueTimers.state, 'completed'), ...(techId === undefined ? [] : [eq(queueTimers.techId, techId)])));
}

/**
 * The open (running or paused) timers on the MSP's closed queue tickets, whenever they closed, with those tickets
 * locked (the lock order: tickets, then sessions and timers). Reads the open-timer index (a few rows per technician).
 */
export async function listOpenTimersOnClosedTickets(db: TDatabase, mspId: string): Promise<TTimerRow[]> {
  const rows = await db
    .select({ timer: queueTimers })
    .from(queueTimers)
    .innerJoin(queueTickets, and(eq(queueTickets.mspId, queueTimers.mspId), eq(queueTickets.id, queueTimers.queueTicketId)))
    .where(and(eq(queueTimers.mspId, mspId), ne(queueTimers.state, 'completed'), eq(queueTickets.state, 'closed')))
    .orderBy(asc(queueTickets.id))
    .for('update', { of: queueTickets });
  return rows.map((row) => row.timer);
}

export async function insertTimer(db: TDatabase, values: typeof queueTimers.$inferInsert): Promise<TTimerRow> {
  const [row] = await db.insert(queueTimers).values(values).returning();
  if (!row) throw new Error('Timer insert returned no row');
  return row;
}

export async function setTimerState(db: TDatabase, mspId: string, timerId: string, values: Partial<Pick<TTimerRow, 'state' | 'completedAt' | 'notes' | 'psaTimeEntryId'>>): Promise<void> {
  await db.update(queueTimers).set(values).where(and(eq(queueTimers.mspId, mspId), eq(queueTimers.id, timerId)));
}

export async function insertSession(db: TDatabase, values: typeof queueTimerSessions.$inferInsert): Promise<TTimerSessionRow> {
  const [row] = await db.insert(queueTimerSessions).values(values).returning();
  if (!row) throw new Error('Timer session insert returned no row');
  return row;
}

/** The technician's running session, whatever the ticket (at most one: the partial unique index). */
export async function findRunningSession(db: TDatabase, mspId: string, techId: string): Promise<TTimerSessionRow | undefined> {
  const [row] = await db
    .select()
    .from(queueTimerSessions)
    .where(and(eq(queueTimerSessions.mspId, mspId), eq(queueTimerSessions.techId, techId), isNull(queueTimerSessions.endedAt)))
    .limit(1)
    .for('update');
  return row;
}

/** Ends a running session at `endedAt`, flagging it when it crossed midnight (in the MSP's time zone) or ran over 12 hours. */
export async function endSession(db: TDatabase, session: TTimerSessionRow, endedAt: Date): Promise<TTimerSessionRow> {
  const end = endedAt < session.startedAt ? session.startedAt : endedAt;
  const timeZone = await queueTimeZoneOf(db, session.mspId);
  const [row] = await db
    .update(queueTimerSessions)
    .set({ endedAt: end, flag: sessionFlag(session.startedAt, end, timeZone) })
    .where(and(eq(queueTimerSessions.mspId, session.mspId), eq(queueTimerSessions.id, session.id)))
    .returning();
  return row ?? session;
}

export async function listSessionsOfTimer(db: TDatabase, mspId: string, timerId: string): Promise<TTimerSessionRow[]> {
  return db
    .select()
    .from(queueTimerSessions)
    .where(and(eq(queueTimerSessions.mspId, mspId), eq(queueTimerSessions.timerId, timerId)))
    .orderBy(asc(queueTimerSessions.startedAt));
}

/** Every session of a technician on a ticket, oldest first. */
export async function listSessions(db: TDatabase, mspId: string, queueTicketId: string, techId: string): Promise<TTimerSessionRow[]> {
  return db
    .select()
    .from(queueTimerSessions)
    .where(and(eq(queueTimerSessions.mspId, mspId), eq(queueTimerSessions.queueTicketId, queueTicketId), eq(queueTimerSessions.techId, techId)))
    .orderBy(asc(queueTimerSessions.startedAt));
}

export async function findSession(db: TDatabase, mspId: string, sessionId: string): Promise<TTimerSessionRow | undefined> {
  const [row] = await db
    .select()
    .from(queueTimerSessions)
    .where(and(eq(queueTimerSessions.mspId, mspId), eq(queueTimerSessions.id, sessionId)))
    .limit(1)
    .for('update');
  return row;
}

export async function confirmSession(db: TDatabase, mspId: string, sessionId: string, values: { endedAt?: Date; confirmedAt: Date }): Promise<TTimerSessionRow | undefined> {
  const [row] = await db
    .update(queueTimerSessions)
    .set(values)
    .where(and(eq(queueTimerSessions.mspId, mspId), eq(queueTimerSessions.id, sessionId)))
    .returning();
  return row;
}

/** How many sessions to confirm one read lists (oldest first): more would be a screen nobody reads. */
const SESSIONS_TO_CONFIRM_LIMIT = 100;

/**
 * The technician's finished sessions flagged (past midnight or over 12 hours) and not confirmed, on any ticket, oldest
 * first: what waits for their confirmation, also after the ticket left their list.
 */
export async function listSessionsAwaitingConfirmation(db: TDatabase, mspId: string, techId: string): Promise<TTimerSessionRow[]> {
  return db
    .select()
    .from(queueTimerSessions)
    .where(
      and(
        eq(queueTimerSessions.mspId, mspId),
        eq(queueTimerSessions.techId, techId),
        isNotNull(queueTimerSessions.endedAt),
        isNotNull(queueTimerSessions.flag),
        isNull(queueTimerSessions.confirmedAt),
      ),
    )
    .orderBy(asc(queueTimerSessions.startedAt))
    .limit(SESSIONS_TO_CONFIRM_LIMIT);
}

/** Sessions of the MSP (or one technician) that overlap [from, to): the activities reads. One that ends at `from` does not. */
export async function listSessionsBetween(db: TDatabase, mspId: string, from: Date, to: Date, techId?: string): Promise<TTimerSessionRow[]> {
  return db
    .select()
    .from(queueTimerSessions)
    .where(
      and(
        eq(queueTimerSessions.mspId, mspId),
        lt(queueTimerSessions.startedAt, to),
        or(isNull(queueTimerSessions.endedAt), gt(queueTimerSessions.endedAt, from)),
        ...(techId ? [eq(queueTimerSessions.techId, techId)] : []),
      ),
    )
    .orderBy(asc(queueTimerSessions.startedAt));
}

/** Timers of these tickets (for completion dates in the activities reads). */
export async function listTimersOfTickets(db: TDatabase, mspId: string, queueTicketIds: string[]): Promise<TTimerRow[]> {
  if (queueTicketIds.length === 0) return [];
  return db
    .select()
    .from(queueTimers)
    .where(and(eq(queueTimers.mspId, mspId), inArray(queueTimers.queueTicketId, queueTicketIds)));
}
