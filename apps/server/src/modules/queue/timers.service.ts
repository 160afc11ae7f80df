import { MESSAGES, type TPsaWriteState, type TSessionsToConfirmResponse, type TTimerConfirmBody, type TTimerCompleteBody, type TTimerResponse, type TTimerSession, type TTimerSessionsResponse } from '@switchboard/contracts';
import type { TDatabase } from '@switchboard/db';
import type { TAppDeps } from '../../app-deps';
import { conflict, notFound, validation } from '../../lib/app-error';
import { isUniqueViolation } from '../../lib/db-errors';
import type { TActor } from '../../plugins/access';
import { assertWorkingOn, resolveTechnician } from './queue.policy';
import { presentSession } from './queue.presenter';
import { deliverQueueWrite, enqueueQueueWrite, QUEUE_WRITES } from './queue.psa-writes';
import { findTechnicians, type TTechnicianRow } from './queue-claims.repository';
import { queueTimeZoneOf } from './queue-settings.repository';
import { findTicketById, findTicketByPsaId, listTicketsByIds, updateQueueTicket, type TQueueTicketRow } from './queue-tickets.repository';
import { hoursOf, minutesBetween, sessionFlag } from './queue.scoring';
import {
  confirmSession,
  endSession,
  findLatestTimer,
  findOpenTimer,
  findRunningSession,
  findSession,
  findTimer,
  insertSession,
  insertTimer,
  listOpenTimersOfTickets,
  listOpenTimersOnClosedTickets,
  listSessions,
  listSessionsAwaitingConfirmation,
  listSessionsOfTimer,
  setTimerState,
  type TTimerRow,
  type TTimerSessionRow,
} from './timers.repository';

/** A PSA member id as the PSA's number, or null when the technician is not linked to one. */
export function memberNumberOf(technician: Pick<TTechnicianRow, 'psaMemberId'>): number | null {
  const value = technician.psaMemberId;
  return value !== null && /^\d{1,9}$/.test(value) ? Number(value) : null;
}

/*
 * Lock order, the same on every path: the queue ticket(s), then the technician's running session
 * (findRunningSession locks it), then their timers; several technicians one after the other in id
 * order (completeTimers). A start on one ticket used to lock the running session before the timer
 * running elsewhere while a pause of that timer locked them the other way round, so the two at once
 * deadlocked (40P01, a 500).
 */

/** Ends a running session and pauses its timer (stop means pause unless asked to complete, 02 §4). */
async function pauseSession(tx: TDatabase, running: TTimerSessionRow, now: Date): Promise<void> {
  await endSession(tx, running, now);
  await setTimerState(tx, running.mspId, running.timerId, { state: 'paused' });
}

/** Pauses the technician's timer on this ticket when it is the one running (a requeue kept for them). */
export async function pauseTimerOnTicket(tx: TDatabase, mspId: string, queueTicketId: string, techId: string, now: Date): Promise<void> {
  const running = await findRunningSession(tx, mspId, techId);
  if (running && running.queueTicketId === queueTicketId) await pauseSession(tx, running, now);
}

const totalMinutes = (sessions: TTimerSessionRow[], now: Date) => sessions.reduce((sum, session) => sum + minutesBetween(session.startedAt, session.endedAt ?? now), 0);

export interface TCompletedTimer {
  timer: TTimerRow;
  sessions: TTimerSessionRow[];
  /** The outbox row of the time entry; null when nothing was worked or a flagged session awaits confirmation. */
  timeEntryWriteId: string | null;
  awaitsConfirmation: boolean;
}

/** Enqueues the completed timer's time entry (R-302: start, end and notes of the work). */
async function enqueueTimeEntry(tx: TDatabase, mspId: string, ticket: TQueueTicketRow, technician: Pick<TTechnicianRow, 'psaMemberId'>, timer: TTimerRow, sessions: TTimerSessionRow[], createdBy: string | null, now: Date): Promise<string | null> {
  const worked = sessions.filter((session) => session.endedAt !== null);
  const minutes = totalMinutes(worked, now);
  const first = worked[0];
  const memberId = memberNumberOf(technician);
  // Time is charged to a PSA member: a technician not linked to one keeps the sessions here only.
  if (!first || minutes <= 0 || memberId === null) return null;
  const start = first.startedAt;
  // One entry for the timer: it starts when work started and lasts as long as the sessions add up to
  // (pauses are not billed); the notes list each session.
  const end = new Date(start.getTime() + Math.round(minutes * 60_000));
  const lines = worked.map((session) => `${session.startedAt.toISOString()} – ${session.endedAt?.toISOString() ?? ''}`);
  const notes = [timer.notes ?? '', `Work sessions (UTC):`, ...lines].filter((line) => line !== '').join('\n');
  return enqueueQueueWrite(tx, {
    mspId,
    kind: QUEUE_WRITES.timeEntry,
    ticketRowId: ticket.ticketRowId,
    idempotencyKey: `time-entry:${timer.id}`,
    payload: { timerId: timer.id, ticketId: ticket.psaTicketId, memberId, start: start.toISOString(), end: end.toISOString(), minutes: Math.round(minutes * 100) / 100, notes },
    createdBy,
  }, now);
}

/** Completes the technician's open timer on the ticket (if any) inside the caller's transaction. */
export async function completeTimerInTx(tx: TDatabase, ticket: TQueueTicketRow, technician: Pick<TTechnicianRow, 'id' | 'psaMemberId'>, notes: string | null, now: Date, createdBy: string | null): Promise<TCompletedTimer | undefined> {
  const running = await findRunningSession(tx, ticket.mspId, technician.id);
  const timer = await findOpenTimer(tx, ticket.mspId, ticket.id, technician.id, true);
  if (!timer) return undefined;
  if (running?.timerId === timer.id) await endSession(tx, running, now);
  await setTimerState(tx, ticket.mspId, timer.id, { state: 'completed', completedAt: now, notes });
  const completed: TTimerRow = { ...timer, state: 'completed', completedAt: now, notes };
  const sessions = await listSessionsOfTimer(tx, ticket.mspId, timer.id);
  const awaitsConfirmation = sessions.some((session) => session.flag !== null && session.confirmedAt === null);
  const timeEntryWriteId = awaitsConfirmation ? null : await enqueueTimeEntry(tx, ticket.mspId, ticket, technician, completed, sessions, createdBy, now);
  return { timer: completed, sessions, timeEntryWriteId, awaitsConfirmation };
}

const compareIds = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const byTechThenTicket = (a: TTimerRow, b: TTimerRow) => compareIds(a.techId, b.techId) || compareIds(a.queueTicketId, b.queueTicketId);

/** Completes these open timers, technician by technician in id order; the outbox ids of the time entries queued. */
async function completeTimers(tx: TDatabase, mspId: string, timers: TTimerRow[], tickets: TQueueTicketRow[], options: { notes: string | null; now: Date; createdBy: string | null }): Promise<string[]> {
  if (timers.length === 0) return [];
  const techIds = [...new Set(timers.map((timer) => timer.techId))];
  const found = await findTechnicians(tx, mspId, techIds);
  const technicians = new Map(techIds.map((techId, index) => [techId, found[index]]));
  const ticketsById = new Map(tickets.map((ticket) => [ticket.id, ticket]));
  const writeIds: string[] = [];
  for (const timer of [...timers].sort(byTechThenTicket)) {
    const ticket = ticketsById.get(timer.queueTicketId);
    if (!ticket) continue;
    // A user no longer a technician has no PSA member to charge: their timer still completes.
    const completed = await completeTimerInTx(tx, ticket, technicians.get(timer.techId) ?? { id: timer.techId, psaMemberId: null }, options.notes, options.now, options.createdBy);
    if (completed?.timeEntryWriteId) writeIds.push(completed.timeEntryWriteId);
  }
  return writeIds;
}

/**
 * Completes the open timers on a ticket that leaves its technician (`techId`: theirs only) or closes
 * (everyone's), in the caller's transaction, so no time stays on a timer nobody can reach. Each time
 * entry is queued as on a completion; a flagged session's still waits for its confirmation. Returns
 * the outbox ids of the entries queued.
 */
export async function completeOpenTimersInTx(tx: TDatabase, ticket: TQueueTicketRow, options: { techId?: string; notes: string | null; now: Date; createdBy: string | null }): Promise<string[]> {
  const open = await listOpenTimersOfTickets(tx, ticket.mspId, [ticket.id], options.techId);
  return completeTimers(tx, ticket.mspId, open, [ticket], options);
}

/**
 * The queue upkeep's part (queue.maintenance, in the transaction that closes the tickets the PSA closed): completes every
 * timer still open on a closed ticket of the MSP, the ones just closed and any an older server left running on a ticket
 * closed before a close completed its timers (only a ticket's next close would have, and a closed ticket never closes
 * again). Each time entry is queued as on a completion, keyed by its timer (`time-entry:<timer id>`), so another pass or
 * replica cannot queue it twice; the outbox's retry loop sends it (the upkeep runs outside any request). A session that
 * ran over 12 hours or past midnight (left running for days) is flagged as on any completion, so its entry waits for the
 * technician's confirmation with the real end time.
 */
export async function completeTimersOfClosedTickets(tx: TDatabase, mspId: string, now: Date): Promise<string[]> {
  const open = await listOpenTimersOnClosedTickets(tx, mspId);
  if (open.length === 0) return [];
  const tickets = await listTicketsByIds(tx, mspId, [...new Set(open.map((timer) => timer.queueTicketId))]);
  return completeTimers(tx, mspId, open, tickets, { notes: MESSAGES.queue.completed, now, createdBy: null });
}

/** Timers (02 §4 "Timer per ticket", A-114–A-118; ): server-authoritative sessions. */
export function createTimersService(deps: TAppDeps) {
  const db = deps.database.db;

  async function ticketOf(actor: TActor, ticketId: number): Promise<TQueueTicketRow> {
    const ticket = await findTicketByPsaId(db, actor.mspId, ticketId);
    if (!ticket) throw notFound(MESSAGES.queue.ticketNotFound);
    return ticket;
  }

  async function respond(actor: TActor, ticket: TQueueTicketRow, techId: string, timeEntry: TPsaWriteState | null): Promise<TTimerResponse> {
    const now = deps.now();
    const timer = (await findOpenTimer(db, actor.mspId, ticket.id, techId)) ?? (await findLatestTimer(db, actor.mspId, ticket.id, techId));
    const sessions = timer ? await listSessionsOfTimer(db, actor.mspId, timer.id) : [];
    const allSessions = await listSessions(db, actor.mspId, ticket.id, techId);
    const running = sessions.find((session) => session.endedAt === null);
    const minutes = totalMinutes(allSessions, now);
    return {
      ticketId: ticket.psaTicketId,
      technicianId: techId,
      sessionStarted: sessions[0]?.startedAt.toISOString() ?? null,
      newSessionStartTime: running?.startedAt.toISOString() ?? null,
      totalWorkHours: hoursOf(minutes),
      error: null,
      state: timer?.state ?? 'completed',
      totalWorkMinutes: Math.round(minutes * 100) / 100,
      timeEntry,
    };
  }

  /** Opens a session on the ticket's timer after stopping any other running one; retried once if a concurrent start won the unique index. */
  async function openSession(actor: TActor, ticket: TQueueTicketRow, techId: string, mode: 'start' | 'resume'): Promise<void> {
    const run = () =>
      db.transaction(async (tx) => {
        const now = deps.now();
        const locked = await findTicketById(tx, actor.mspId, ticket.id, true);
        if (!locked) throw notFound(MESSAGES.queue.ticketNotFound);
        assertWorkingOn(locked, techId);
        const running = await findRunningSession(tx, actor.mspId, techId);
        let timer = await findOpenTimer(tx, actor.mspId, ticket.id, techId, true);
        if (mode === 'resume') {
          if (!timer) throw conflict(MESSAGES.queue.timer.noTimer);
          if (timer.state === 'running') throw conflict(MESSAGES.queue.timer.alreadyRunning);
        }
        if (timer?.state === 'running') return; // start on a running timer: nothing to do
        // "Any previous timer is stopped first" (02 §4).
        if (running) await pauseSession(tx, running, now);
        if (!timer) timer = await insertTimer(tx, { mspId: actor.mspId, queueTicketId: ticket.id, techId, state: 'running', startedAt: now });
        else await setTimerState(tx, actor.mspId, timer.id, { state: 'running' });
        await insertSession(tx, { mspId: actor.mspId, timerId: timer.id, queueTicketId: ticket.id, techId, startedAt: now });
        if (locked.state === 'claimed') await updateQueueTicket(tx, actor.mspId, ticket.id, { state: 'working', startedAt: now }, now);
      });
    try {
      await run();
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      try {
        await run();
      } catch (again) {
        if (isUniqueViolation(again)) throw conflict(mode === 'start' ? MESSAGES.queue.timer.startFailed : MESSAGES.queue.timer.resumeFailed);
        throw again;
      }
    }
  }

  /** idle → running (a paused timer on the ticket runs again); any other running timer is paused first. */
  async function start(actor: TActor, body: { ticketId: number; techId: string }): Promise<TTimerResponse> {
    await resolveTechnician(db, actor, body.techId, 'work');
    const ticket = await ticketOf(actor, body.ticketId);
    await openSession(actor, ticket, body.techId, 'start');
    return respond(actor, ticket, body.techId, null);
  }

  /** paused → running with a new session. */
  async function resume(actor: TActor, body: { ticketId: number; techId: string }): Promise<TTimerResponse> {
    await resolveTechnician(db, actor, body.techId, 'work');
    const ticket = await ticketOf(actor, body.ticketId);
    await openSession(actor, ticket, body.techId, 'resume');
    return respond(actor, ticket, body.techId, null);
  }

  /** running → paused. */
  async function pause(actor: TActor, body: { ticketId: number; techId: string }): Promise<TTimerResponse> {
    await resolveTechnician(db, actor, body.techId, 'work');
    const ticket = await ticketOf(actor, body.ticketId);
    await db.transaction(async (tx) => {
      const running = await findRunningSession(tx, actor.mspId, body.techId);
      const timer = await findOpenTimer(tx, actor.mspId, ticket.id, body.techId, true);
      if (!timer) throw conflict(MESSAGES.queue.timer.noTimer);
      if (timer.state !== 'running') throw conflict(MESSAGES.queue.timer.notRunning);
      if (running?.timerId === timer.id) await pauseSession(tx, running, deps.now());
    });
    return respond(actor, ticket, body.techId, null);
  }

  /** running or paused → completed, with optional notes; the time entry goes to the PSA. */
  async function complete(actor: TActor, body: TTimerCompleteBody): Promise<TTimerResponse> {
    const technician = await resolveTechnician(db, actor, body.techId, 'work');
    const ticket = await ticketOf(actor, body.ticketId);
    const completed = await db.transaction(async (tx) => {
      const done = await completeTimerInTx(tx, ticket, technician, body.notes === undefined || body.notes === '' ? null : body.notes, deps.now(), actor.userId);
      if (!done) throw conflict(MESSAGES.queue.timer.noTimer);
      return done;
    });
    const timeEntry = await timeEntryState(completed);
    return respond(actor, ticket, body.techId, timeEntry);
  }

  /** What became of a completion's time entry. */
  async function timeEntryState(completed: TCompletedTimer): Promise<TPsaWriteState | null> {
    if (completed.awaitsConfirmation) return { status: 'pending', message: MESSAGES.queue.timer.awaitsConfirmation, nextAttemptAt: null };
    if (completed.timeEntryWriteId === null) return null;
    return deliverQueueWrite(deps, completed.timer.mspId, completed.timeEntryWriteId);
  }

  /** the technician's sessions on the ticket, total minutes and whether a session runs. */
  async function sessionsOf(actor: TActor, ticketId: number, techId: string): Promise<TTimerSessionsResponse> {
    await resolveTechnician(db, actor, techId, 'read');
    const ticket = await ticketOf(actor, ticketId);
    const now = deps.now();
    const sessions = await listSessions(db, actor.mspId, ticket.id, techId);
    const timeZone = await queueTimeZoneOf(db, actor.mspId);
    return {
      sessions: sessions.map((session) => presentSession(session, ticket.psaTicketId, now, timeZone)),
      totalWorkMinutes: Math.round(totalMinutes(sessions, now) * 100) / 100,
      isActive: sessions.some((session) => session.endedAt === null),
      serverTime: now.toISOString(),
    };
  }

  /**
   * Confirms a flagged session (ran past midnight or over 12 hours), optionally with the real end
   * time. Once no flagged session of a completed timer is unconfirmed, its time entry is sent. Only a
   * flagged, unconfirmed session that has ended (or, running, is given its real end) can be confirmed.
   */
  async function confirm(actor: TActor, body: TTimerConfirmBody): Promise<{ session: TTimerSession; timeEntry: TPsaWriteState | null }> {
    const technician = await resolveTechnician(db, actor, body.techId, 'work');
    const now = deps.now();
    const timeZone = await queueTimeZoneOf(db, actor.mspId);
    const result = await db.transaction(async (tx) => {
      // Lock order as everywhere (see the top of the file): the session, then its timer. The timer is locked before
      // its sessions are read, so two confirmations of one timer's sessions at once take turns and the second sees
      // the first's confirmation: each used to see the other unconfirmed, and neither queued the time entry.
      const session = await findSession(tx, actor.mspId, body.sessionId);
      if (!session || session.techId !== body.techId) throw notFound(MESSAGES.queue.timer.sessionNotFound);
      const timer = await findTimer(tx, actor.mspId, session.timerId, true);
      const endedAt = body.endTime === undefined || body.endTime === '' ? undefined : new Date(body.endTime);
      if (endedAt && Number.isNaN(endedAt.getTime())) throw validation(MESSAGES.queue.timer.badEndTime, [{ name: 'endTime', reason: MESSAGES.queue.timer.badEndTime }]);
      if (session.confirmedAt !== null) throw conflict(MESSAGES.queue.timer.alreadyConfirmed);
      const isRunning = session.endedAt === null;
      if (isRunning && !endedAt) throw conflict(MESSAGES.queue.timer.stillRunning);
      // A running session is flagged by how long it has run so far (as A-118 shows it); an ended one by its stored flag.
      const flag = isRunning ? sessionFlag(session.startedAt, now, timeZone) : session.flag;
      if (flag === null) throw conflict(MESSAGES.queue.timer.notFlagged);
      if (endedAt && (endedAt <= session.startedAt || endedAt > now)) throw validation(MESSAGES.queue.timer.endBeforeStart, [{ name: 'endTime', reason: MESSAGES.queue.timer.endBeforeStart }]);
      if (endedAt && isRunning) {
        await endSession(tx, session, endedAt);
        await setTimerState(tx, actor.mspId, session.timerId, { state: 'paused' });
      }
      const confirmed = await confirmSession(tx, actor.mspId, session.id, { ...(endedAt && !isRunning ? { endedAt } : {}), confirmedAt: now });
      if (!confirmed) throw notFound(MESSAGES.queue.timer.sessionNotFound);
      const ticket = await findTicketById(tx, actor.mspId, session.queueTicketId);
      if (!ticket) throw notFound(MESSAGES.queue.ticketNotFound);
      // The session's own timer: a newer timer started on the ticket since must not hide it.
      let timeEntryWriteId: string | null = null;
      if (timer && timer.state === 'completed' && timer.psaTimeEntryId === null) {
        const sessions = await listSessionsOfTimer(tx, actor.mspId, timer.id);
        if (!sessions.some((each) => each.flag !== null && each.confirmedAt === null)) timeEntryWriteId = await enqueueTimeEntry(tx, actor.mspId, ticket, technician, timer, sessions, actor.userId, now);
      }
      return { confirmed, psaTicketId: ticket.psaTicketId, timeEntryWriteId };
    });
    const timeEntry = result.timeEntryWriteId === null ? null : await deliverQueueWrite(deps, actor.mspId, result.timeEntryWriteId);
    return { session: presentSession(result.confirmed, result.psaTicketId, now, timeZone), timeEntry };
  }

  /**
   * The technician's finished sessions awaiting confirmation on any of their tickets (decision 043): a ticket completed,
   * requeued, handed back or closed leaves their list, and its flagged session must stay reachable, or its time is never billed.
   */
  async function sessionsToConfirm(actor: TActor, techId: string): Promise<TSessionsToConfirmResponse> {
    await resolveTechnician(db, actor, techId, 'read');
    const now = deps.now();
    const sessions = await listSessionsAwaitingConfirmation(db, actor.mspId, techId);
    const tickets = new Map((await listTicketsByIds(db, actor.mspId, [...new Set(sessions.map((session) => session.queueTicketId))])).map((ticket) => [ticket.id, ticket]));
    const timeZone = await queueTimeZoneOf(db, actor.mspId);
    return {
      sessions: sessions.flatMap((session) => {
        const ticket = tickets.get(session.queueTicketId);
        return ticket ? [{ ...presentSession(session, ticket.psaTicketId, now, timeZone), ticketTitle: ticket.summary }] : [];
      }),
    };
  }

  return { start, pause, resume, complete, sessionsOf, confirm, sessionsToConfirm };
}
