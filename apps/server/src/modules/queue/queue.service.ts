import {
  MESSAGES,
  QUEUE_PAGE_SIZE,
  type TActivitiesResponse,
  type TActivity,
  type TCompleteTicketResponse,
  type TNextTicketsQuery,
  type TPsaWriteState,
  type TQueueGetAllQuery,
  type TQueueSettings,
  type TQueueTicket,
  type TQueueTicketPage,
  type TRejectTicketBody,
  type TRequeueBody,
  type TRequeueQuery,
} from '@switchboard/contracts';
import type { TDatabase } from '@switchboard/db';
import type { TAppDeps } from '../../app-deps';
import { conflict, notFound, validation } from '../../lib/app-error';
import type { TActor } from '../../plugins/access';
import { assertWorkingOn, lockOpenQueueTicket, resolveTechnician, workingTierRank } from './queue.policy';
import { presentQueueTicket, presentSession } from './queue.presenter';
import { deliverQueueWrite, deliverTimeEntries, enqueueQueueWrite, isAssignedInPsaByQueue, psaWriteCountsByTicket, QUEUE_WRITES } from './queue.psa-writes';
import type { TQueueMaintenance } from './queue.maintenance';
import { claimNextTickets, claimNextTicketsBatch, findTechnicians, releaseClaimedTickets, releaseTicketsNotAssignedInPsa, type TClaimRequest, type TTechnicianRow } from './queue-claims.repository';
import { findLatestWorkBefore, insertQueueEvent, insertRejection, listCompletionsBetween, type TCompletionRow } from './queue-events.repository';
import { listEligibleTickets, listQueuePage, listUserNames, listWorkingTickets } from './queue-listings.repository';
import { saveQueueSettings } from './queue-settings.repository';
import { findBoardStatuses, findTicketById, findTicketByPsaId, listTicketsByIds, updateQueueTicket, type TQueueTicketRow } from './queue-tickets.repository';
import { rerankQueue } from './queue-upkeep.repository';
import { createCoalescer } from '../../lib/coalesce';
import { dayIn, minutesBetween, shiftDay, startOfDayIn, tierRank } from './queue.scoring';
import { completeOpenTimersInTx, completeTimerInTx, memberNumberOf, pauseTimerOnTicket } from './timers.service';
import { listSessions, listSessionsBetween } from './timers.repository';
import { insertQueueNote } from './notes.repository';
import { userAuditFields } from '../../lib/audit';

/**
 * The years a day's activities can be asked for: PostgreSQL has no year 0, and the day after 9999-12-31 is no longer a
 * YYYY-MM-DD date; a time zone's offset keeps both ends of any day in between within what PostgreSQL holds.
 */
const ACTIVITY_YEARS = { min: 1900, max: 9998 };
/** Coalesced claims and releases (decision 029): at most this many technicians per statement, this many statements per MSP at once. */
const COALESCE = { maxBatch: 64, maxInFlight: 4 };

/** What a `completed` queue event keeps for the activities reads: the SLA due time the completion is measured against. */
const completionDetails = (ticket: TQueueTicketRow) => ({ slaDueAt: ticket.slaDueAt ? ticket.slaDueAt.toISOString() : null });
const roundMinutes = (minutes: number) => Math.round(minutes * 100) / 100;

/** One answer per input for the distinct keys of `inputs` (a technician twice in one batch is served once). */
async function byDistinct<TInput, TOutput>(inputs: TInput[], keyOf: (input: TInput) => string, merge: (a: TInput, b: TInput) => TInput, run: (distinct: TInput[]) => Promise<TOutput[]>): Promise<TOutput[]> {
  const distinct = new Map<string, TInput>();
  for (const input of inputs) {
    const seen = distinct.get(keyOf(input));
    distinct.set(keyOf(input), seen === undefined ? input : merge(seen, input));
  }
  const keys = [...distinct.keys()];
  const outputs = await run([...distinct.values()]);
  const byKey = new Map(keys.map((key, index) => [key, outputs[index] as TOutput]));
  return inputs.map((input) => byKey.get(keyOf(input)) as TOutput);
}

/**
 * Closes a locked queue ticket in the caller's transaction (A-113, and A-119 with `close=true`): closed here at once, the
 * open timers on it completed and their time entries queued first, then the PSA close with the board's closing status
 * queued in the outbox, which retries it until it lands (R-320). The caller has checked who may close it.
 */
export async function closeTicketInTx(tx: TDatabase, ticket: TQueueTicketRow, actorId: string, now: Date): Promise<{ statusName: string | null; timeEntryWriteIds: string[]; writeId: string }> {
  const statuses = ticket.boardId === null ? undefined : await findBoardStatuses(tx, ticket.mspId, ticket.boardId);
  await updateQueueTicket(tx, ticket.mspId, ticket.id, { state: 'closed', closedAt: now, ...(ticket.completedAt === null ? { completedAt: now } : {}) }, now);
  // A close that is also the completion counts as its technician's completion in the activities reads, as A-119's does.
  if (ticket.completedAt === null && ticket.assignedTechId !== null) await insertQueueEvent(tx, ticket.mspId, ticket.id, ticket.assignedTechId, 'completed', now, completionDetails(ticket));
  await insertQueueEvent(tx, ticket.mspId, ticket.id, actorId, 'closed', now);
  // Queued before the close, so the PSA gets the time before the ticket closes (the outbox keeps the order).
  const timeEntryWriteIds = await completeOpenTimersInTx(tx, ticket, { notes: MESSAGES.queue.completed, now, createdBy: actorId });
  const writeId = await enqueueQueueWrite(tx, {
    mspId: ticket.mspId,
    kind: QUEUE_WRITES.close,
    ticketRowId: ticket.ticketRowId,
    // Each close its own (a ticket reopened in the PSA, worked and closed again needs a second close there).
    idempotencyKey: `close:${ticket.id}:${now.getTime()}`,
    payload: { ticketId: ticket.psaTicketId, statusId: statuses?.closingStatusId ?? null, resolution: null },
    createdBy: actorId,
  }, now);
  return { statusName: statuses?.closingStatusName ?? null, timeEntryWriteIds, writeId };
}

/** The technician queue (DESIGN §8; 02 §4; R-294–R-332): claims, lists, completion, requeue, reject, release. */
export function createQueueService(deps: TAppDeps, maintenance: TQueueMaintenance) {
  const db = deps.database.db;

  // Calls of one MSP that arrive together go to the database as one statement (decision 029;
  // bench/queue.bench.ts): the technician reads of "next" and "release", and the claims and releases of
  // technicians without a PSA member (no PSA write, so no transaction of their own).
  const claimTogether = createCoalescer<TClaimRequest, TQueueTicketRow[]>(
    (mspId, requests) =>
      byDistinct(
        requests,
        (request) => request.techId,
        (a, b) => (b.limit > a.limit ? b : a),
        (distinct) => claimNextTicketsBatch(db, mspId, distinct, deps.now()),
      ),
    COALESCE,
  );
  const releaseTogether = createCoalescer<string, { released: number; hasAssignedInPsaLeft: boolean }>(
    (mspId, techIds) =>
      byDistinct(
        techIds,
        (techId) => techId,
        (a) => a,
        (distinct) => releaseTicketsNotAssignedInPsa(db, mspId, deps.now(), distinct),
      ),
    COALESCE,
  );

  const findTogether = createCoalescer<string, TTechnicianRow | undefined>((mspId, techIds) => findTechnicians(db, mspId, techIds), COALESCE);

  async function present(mspId: string, rows: TQueueTicketRow[], settings?: TQueueSettings): Promise<TQueueTicket[]> {
    const now = deps.now();
    const weights = settings ?? (await maintenance.settingsOf(mspId));
    const counts = await psaWriteCountsByTicket(db, mspId, rows.map((row) => row.ticketRowId));
    return rows.map((row) => presentQueueTicket(row, weights, now, counts.get(row.ticketRowId)));
  }

  async function presentOne(mspId: string, id: string): Promise<TQueueTicket> {
    const row = await findTicketById(db, mspId, id);
    if (!row) throw notFound(MESSAGES.queue.ticketNotFound);
    const [ticket] = await present(mspId, [row]);
    if (!ticket) throw notFound(MESSAGES.queue.ticketNotFound);
    return ticket;
  }

  /** The claim's PSA write (owner and "Assigned" status), when the technician is linked to a PSA member. */
  async function enqueueAssign(tx: TDatabase, actor: TActor, technician: TTechnicianRow, ticket: TQueueTicketRow): Promise<string | null> {
    const memberId = memberNumberOf(technician);
    if (memberId === null) return null;
    return enqueueQueueWrite(tx, {
      mspId: actor.mspId,
      kind: QUEUE_WRITES.assign,
      ticketRowId: ticket.ticketRowId,
      idempotencyKey: `assign:${ticket.id}:${technician.id}:${deps.now().getTime()}`,
      payload: { ticketId: ticket.psaTicketId, boardId: ticket.boardId, memberId },
      createdBy: actor.userId,
    }, deps.now());
  }

  /** The hand-back's PSA write (no owner, the board's New status), only when the queue assigned the ticket there. */
  async function enqueueUnassign(tx: TDatabase, actor: TActor, ticket: TQueueTicketRow): Promise<string | null> {
    if (!(await isAssignedInPsaByQueue(tx, actor.mspId, ticket.ticketRowId))) return null;
    const statuses = ticket.boardId === null ? undefined : await findBoardStatuses(tx, actor.mspId, ticket.boardId);
    return enqueueQueueWrite(tx, {
      mspId: actor.mspId,
      kind: QUEUE_WRITES.unassign,
      ticketRowId: ticket.ticketRowId,
      idempotencyKey: `unassign:${ticket.id}:${deps.now().getTime()}`,
      payload: { ticketId: ticket.psaTicketId, statusName: statuses?.newStatusName ?? null },
      createdBy: actor.userId,
    }, deps.now());
  }

  /**
   * A-122: the technician's current tickets topped up to `limit` with new claims from the top of the
   * queue (own tier first, then lower). Pressing "next" again does not hoard more than `limit`.
   */
  async function nextTickets(actor: TActor, query: TNextTicketsQuery): Promise<TQueueTicket[]> {
    const technician = await resolveTechnician(db, actor, query.techId, 'work', findTogether);
    const rank = workingTierRank(technician);
    await maintenance.maintain(actor.mspId);
    const settings = await maintenance.settingsOf(actor.mspId);
    const isLinkedToPsa = memberNumberOf(technician) !== null;
    // The claim counts what the technician holds itself, under their lock (decision 029): a count read before
    // it let two calls that did not share a batch (two tabs, two replicas, a retry) both claim `limit`.
    const claim = async () => {
      const input = { mspId: actor.mspId, techId: technician.id, tierRank: rank, limit: query.limit, now: deps.now() };
      // The claim is one statement (atomic alone): a technician without a PSA member makes no PSA write, so no
      // transaction is opened and the claim goes with those of other technicians arriving at the same time.
      if (!isLinkedToPsa) return { rows: await claimTogether(actor.mspId, { techId: technician.id, tierRank: rank, limit: query.limit }), writeIds: [] as string[] };
      return db.transaction(async (tx) => {
        const rows = await claimNextTickets(tx, input);
        const writeIds: string[] = [];
        for (const row of rows.filter((each) => each.isNew === true)) {
          const id = await enqueueAssign(tx, actor, technician, row);
          if (id !== null) writeIds.push(id);
        }
        return { rows, writeIds };
      });
    };
    let { rows, writeIds } = await claim();
    // A full batch is the rule; fewer means the queue ran dry or rows were taken mid-scan: look once more.
    if (rows.length < query.limit && rows.some((row) => row.isNew === true)) {
      const again = await claim();
      rows = again.rows;
      writeIds = [...writeIds, ...again.writeIds];
    }
    maintenance.deliverLater(actor.mspId, writeIds);
    const now = deps.now();
    return rows.map((row) => presentQueueTicket(row, settings, now, { pending: row.isNew === true && isLinkedToPsa ? 1 : 0, failed: 0 }));
  }

  /** A-123: the technician's claimed and in-progress tickets. */
  async function currentWorking(actor: TActor, techId: string): Promise<TQueueTicket[]> {
    const technician = await resolveTechnician(db, actor, techId, 'read');
    await maintenance.maintain(actor.mspId);
    return present(actor.mspId, await listWorkingTickets(db, actor.mspId, technician.id));
  }

  /** A-124: what the technician could be given, best first, 30 per page (NoTier: nothing). */
  async function eligibleTickets(actor: TActor, techId: string, page: number): Promise<TQueueTicket[]> {
    const technician = await resolveTechnician(db, actor, techId, 'read');
    if (technician.tierLevel === null || technician.tierLevel === 'NoTier') return [];
    await maintenance.maintain(actor.mspId);
    const rows = await listEligibleTickets(db, actor.mspId, technician.id, tierRank(technician.tierLevel), deps.now(), (page - 1) * QUEUE_PAGE_SIZE, QUEUE_PAGE_SIZE);
    return present(actor.mspId, rows);
  }

  /** A-015: all queue tickets of the MSP, filtered, 30 per page (R-285, R-289). */
  async function getAll(actor: TActor, query: TQueueGetAllQuery): Promise<TQueueTicketPage> {
    await maintenance.maintain(actor.mspId);
    const { rows, total } = await listQueuePage(db, actor.mspId, query, (query.page - 1) * QUEUE_PAGE_SIZE, QUEUE_PAGE_SIZE);
    return { tickets: await present(actor.mspId, rows), total, page: query.page, pageSize: QUEUE_PAGE_SIZE };
  }

  /** A-127: takes one queue ticket by its queue id; plain refusals when someone else has it or it is not for this tier. */
  async function manualPick(actor: TActor, techId: string, queueTicketId: string): Promise<TQueueTicket> {
    const technician = await resolveTechnician(db, actor, techId, 'work');
    const rank = workingTierRank(technician);
    const writeId = await db.transaction(async (tx) => {
      const now = deps.now();
      const ticket = await lockOpenQueueTicket(tx, actor.mspId, queueTicketId);
      if (ticket.state === 'claimed' || ticket.state === 'working') {
        if (ticket.assignedTechId === technician.id) return null;
        throw conflict(MESSAGES.queue.heldByOther);
      }
      if (ticket.isReserved && ticket.assignedTechId !== technician.id) throw conflict(MESSAGES.queue.heldByOther);
      if (tierRank(ticket.tier) > rank) throw conflict(MESSAGES.queue.tierTooHigh);
      if (ticket.holdUntil !== null && ticket.holdUntil > now && ticket.assignedTechId !== technician.id) throw conflict(MESSAGES.queue.onHold);
      await updateQueueTicket(tx, actor.mspId, ticket.id, { state: 'claimed', assignedTechId: technician.id, claimedAt: now, isReserved: false, holdUntil: null }, now);
      await insertQueueEvent(tx, actor.mspId, ticket.id, technician.id, 'picked', now);
      return enqueueAssign(tx, actor, technician, ticket);
    });
    if (writeId !== null) maintenance.deliverLater(actor.mspId, [writeId]);
    return presentOne(actor.mspId, queueTicketId);
  }

  async function lockedTicketByPsaId(tx: TDatabase, actor: TActor, ticketId: number): Promise<TQueueTicketRow> {
    const ticket = await findTicketByPsaId(tx, actor.mspId, ticketId, true);
    if (!ticket) throw notFound(MESSAGES.queue.ticketNotFound);
    return ticket;
  }

  /**
   * A-119 / A-120: marks the ticket complete; a timer still open on it is completed with the note
   * 'Ticket completed' (R-319) and its time entry goes to the PSA. The PSA close is A-113, or, with
   * `close` (decision 043), made here in the same transaction: R-320 sends the two together, and a close
   * lost between two calls (the second failed) left the ticket open in the PSA with nothing to retry it.
   */
  async function complete(actor: TActor, ticketId: number, techId: string, options: { close?: boolean } = {}): Promise<TCompleteTicketResponse> {
    const technician = await resolveTechnician(db, actor, techId, 'work');
    const result = await db.transaction(async (tx) => {
      const now = deps.now();
      const ticket = await lockedTicketByPsaId(tx, actor, ticketId);
      assertWorkingOn(ticket, technician.id);
      const timer = await completeTimerInTx(tx, ticket, technician, MESSAGES.queue.completed, now, actor.userId);
      await updateQueueTicket(tx, actor.mspId, ticket.id, { state: 'completed', completedAt: now }, now);
      await insertQueueEvent(tx, actor.mspId, ticket.id, technician.id, 'completed', now, completionDetails(ticket));
      const close = options.close === true ? await closeTicketInTx(tx, { ...ticket, completedAt: now }, actor.userId, now) : null;
      return { ticket, timeEntryWriteIds: [...(timer?.timeEntryWriteId ? [timer.timeEntryWriteId] : []), ...(close?.timeEntryWriteIds ?? [])], closeWriteId: close?.writeId ?? null, awaitsConfirmation: timer?.awaitsConfirmation === true };
    });
    const timeEntry = await deliverTimeEntries(deps, actor.mspId, result.timeEntryWriteIds);
    const close = result.closeWriteId === null ? null : await deliverQueueWrite(deps, actor.mspId, result.closeWriteId);
    const sessions = await listSessions(db, actor.mspId, result.ticket.id, technician.id);
    const now = deps.now();
    const minutes = sessions.reduce((sum, session) => sum + minutesBetween(session.startedAt, session.endedAt ?? now), 0);
    return { ticket: await presentOne(actor.mspId, result.ticket.id), totalWorkHours: Math.round((minutes / 60) * 100) / 100, awaitsConfirmation: result.awaitsConfirmation, close, timeEntry };
  }

  /** Mark incomplete, persisted (decisions #18): a completed ticket goes back to the technician's working list. */
  async function markIncomplete(actor: TActor, ticketId: number, techId: string): Promise<TQueueTicket> {
    const technician = await resolveTechnician(db, actor, techId, 'work');
    const id = await db.transaction(async (tx) => {
      const now = deps.now();
      const ticket = await lockedTicketByPsaId(tx, actor, ticketId);
      if (ticket.state === 'closed') throw conflict(MESSAGES.queue.ticketClosed);
      if (ticket.state !== 'completed') throw conflict(MESSAGES.queue.notCompleted);
      if (ticket.assignedTechId !== technician.id) throw conflict(MESSAGES.queue.heldByOther);
      await updateQueueTicket(tx, actor.mspId, ticket.id, { state: 'working', completedAt: null }, now);
      await insertQueueEvent(tx, actor.mspId, ticket.id, technician.id, 'incomplete', now);
      return ticket.id;
    });
    return presentOne(actor.mspId, id);
  }

  /**
   * A-121: the active ticket goes back to the queue with a hold (hours), optionally reserved for the
   * same technician (assignedFlag) and with a new tier. Kept for them, a running timer on it is paused
   * (R-325); handed back, their timer is completed and its time entry sent, as nobody else can finish it.
   */
  async function requeue(actor: TActor, query: TRequeueQuery, body: TRequeueBody): Promise<{ ticket: TQueueTicket; awaitsConfirmation: boolean; timeEntry: TPsaWriteState | null }> {
    const technician = await resolveTechnician(db, actor, query.techId, 'work');
    if (!body || (body.id === undefined && body.ticketId === undefined)) throw validation(MESSAGES.queue.noActiveTicketToRequeue, [{ name: 'body', reason: MESSAGES.queue.noActiveTicketToRequeue }]);
    const isAssigned = query.assignedFlag === 'true';
    const result = await db.transaction(async (tx) => {
      const now = deps.now();
      const ticket = body.id !== undefined ? await findTicketById(tx, actor.mspId, body.id, true) : await findTicketByPsaId(tx, actor.mspId, body.ticketId ?? 0, true);
      if (!ticket || ticket.assignedTechId !== technician.id || (ticket.state !== 'claimed' && ticket.state !== 'working')) throw conflict(MESSAGES.queue.noActiveTicketToRequeue);
      let timeEntryWriteId: string | null = null;
      let awaitsConfirmation = false;
      if (isAssigned) await pauseTimerOnTicket(tx, actor.mspId, ticket.id, technician.id, now);
      else {
        const completed = await completeTimerInTx(tx, ticket, technician, null, now, actor.userId);
        timeEntryWriteId = completed?.timeEntryWriteId ?? null;
        awaitsConfirmation = completed?.awaitsConfirmation === true;
      }
      const holdUntil = query.holdTimeInHours > 0 ? new Date(now.getTime() + query.holdTimeInHours * 3_600_000) : null;
      await updateQueueTicket(
        tx,
        actor.mspId,
        ticket.id,
        {
          state: 'queued',
          holdUntil,
          claimedAt: null,
          isReserved: isAssigned,
          assignedTechId: isAssigned ? technician.id : null,
          ...(query.newTier ? { tier: query.newTier, tierRank: tierRank(query.newTier), isTierPinned: true } : {}),
        },
        now,
      );
      await insertQueueEvent(tx, actor.mspId, ticket.id, technician.id, 'requeued', now, { holdTimeInHours: query.holdTimeInHours, assignedFlag: isAssigned, newTier: query.newTier ?? null });
      return { ticket, timeEntryWriteId, awaitsConfirmation, writeId: isAssigned ? null : await enqueueUnassign(tx, actor, ticket) };
    });
    const timeEntry = await deliverTimeEntries(deps, actor.mspId, result.timeEntryWriteId === null ? [] : [result.timeEntryWriteId]);
    if (result.writeId !== null) await deliverQueueWrite(deps, actor.mspId, result.writeId);
    return { ticket: await presentOne(actor.mspId, result.ticket.id), awaitsConfirmation: result.awaitsConfirmation, timeEntry };
  }

  /**
   * Reject with a reason (issue #10, beyond the spec): the claimed ticket goes back to the queue, is
   * not offered to this technician again for the MSP's cooldown, and the reason becomes an internal
   * note in the PSA. Their timer on it is completed and its time entry sent (it leaves their list).
   */
  async function reject(actor: TActor, ticketId: number, techId: string, body: TRejectTicketBody) {
    const technician = await resolveTechnician(db, actor, techId, 'work');
    if (body.reason === '') throw validation(MESSAGES.queue.rejectReasonRequired, [{ name: 'reason', reason: MESSAGES.queue.rejectReasonRequired }]);
    const settings = await maintenance.settingsOf(actor.mspId);
    const result = await db.transaction(async (tx) => {
      const now = deps.now();
      const ticket = await lockedTicketByPsaId(tx, actor, ticketId);
      assertWorkingOn(ticket, technician.id);
      const timer = await completeTimerInTx(tx, ticket, technician, null, now, actor.userId);
      const until = new Date(now.getTime() + settings.rejectCooldownMinutes * 60_000);
      await updateQueueTicket(tx, actor.mspId, ticket.id, { state: 'queued', claimedAt: null, assignedTechId: null, isReserved: false }, now);
      await insertRejection(tx, actor.mspId, ticket.id, technician.id, body.reason, now, until);
      await insertQueueEvent(tx, actor.mspId, ticket.id, technician.id, 'rejected', now, { reason: body.reason });
      const text = `Handed back by ${`${technician.firstName} ${technician.lastName}`.trim()}: ${body.reason}`;
      const note = await insertQueueNote(tx, { mspId: actor.mspId, queueTicketId: ticket.id, psaTicketId: ticket.psaTicketId, kind: 'internal', noteType: null, info: '', text, createdBy: actor.userId, createdAt: now });
      const noteWriteId = await enqueueQueueWrite(tx, {
        mspId: actor.mspId,
        kind: QUEUE_WRITES.note,
        ticketRowId: ticket.ticketRowId,
        idempotencyKey: `note:${note.id}`,
        payload: { noteId: note.id, ticketId: ticket.psaTicketId, text, kind: 'internal', noteType: null, memberId: memberNumberOf(technician) },
        createdBy: actor.userId,
      }, deps.now());
      const unassignWriteId = await enqueueUnassign(tx, actor, ticket);
      return { ticket, until, timeEntryWriteId: timer?.timeEntryWriteId ?? null, awaitsConfirmation: timer?.awaitsConfirmation === true, noteWriteId, unassignWriteId };
    });
    const timeEntry = await deliverTimeEntries(deps, actor.mspId, result.timeEntryWriteId === null ? [] : [result.timeEntryWriteId]);
    const note = await deliverQueueWrite(deps, actor.mspId, result.noteWriteId);
    if (result.unassignWriteId !== null) await deliverQueueWrite(deps, actor.mspId, result.unassignWriteId);
    return { ticketId: result.ticket.psaTicketId, rejectedUntil: result.until.toISOString(), note, awaitsConfirmation: result.awaitsConfirmation, timeEntry };
  }

  /** Releases the technician's claimed but unstarted tickets (also done for absent technicians by the upkeep). */
  async function release(actor: TActor, techId: string): Promise<number> {
    const technician = await resolveTechnician(db, actor, techId, 'work', findTogether);
    // Tickets the PSA never heard of go back in one statement (no transaction: two round trips fewer on
    // the queue's second-hottest call, bench/queue.bench.ts); only tickets assigned there need the transaction.
    const quick = await releaseTogether(actor.mspId, technician.id);
    if (!quick.hasAssignedInPsaLeft) return quick.released;
    const { released, writeIds } = await db.transaction(async (tx) => {
      const rows = await releaseClaimedTickets(tx, actor.mspId, deps.now(), { techId: technician.id });
      return { released: rows, writeIds: await maintenance.enqueueUnassigns(tx, actor.mspId, rows) };
    });
    maintenance.deliverLater(actor.mspId, writeIds);
    return quick.released + released.length;
  }

  /**
   * The day [from, to) of an ISO date in the MSP's time zone (its queue settings; UTC until an admin picks
   * one), today there by default: midnight to midnight as the MSP's people count a working day (23 or 25
   * hours across a daylight-saving change).
   */
  function dayOf(date: string | undefined, timeZone: string): { date: string; from: Date; to: Date } {
    const day = date === undefined || date === '' ? dayIn(deps.now(), timeZone) : date.slice(0, 10);
    const utcMidnight = new Date(`${day}T00:00:00.000Z`);
    const year = Number(day.slice(0, 4));
    const isDate = /^\d{4}-\d{2}-\d{2}$/.test(day) && !Number.isNaN(utcMidnight.getTime()) && utcMidnight.toISOString().slice(0, 10) === day;
    if (!isDate || year < ACTIVITY_YEARS.min || year > ACTIVITY_YEARS.max) throw validation(MESSAGES.queue.badDate, [{ name: 'date', reason: MESSAGES.queue.badDate }]);
    const next = shiftDay(day, 1);
    return { date: day, from: startOfDayIn(day, timeZone), to: startOfDayIn(next, timeZone) };
  }

  /**
   * A-125 / A-126: who worked on what on a date, minutes clipped to the day, completions and SLA met. Completions come
   * from the queue's events, so a later reopen in the PSA leaves a past day as it was. Time of a session flagged for
   * running past midnight or over 12 hours and not yet confirmed (decision 043) is not a fact until its technician
   * confirms it: a timer left running would count as 24 hours on every day after, so it is reported apart. The answer
   * names the latest earlier day with work in the same scope (previousDayWithWork), in the MSP's time zone.
   */
  async function activities(actor: TActor, date: string | undefined, techId?: string): Promise<TActivitiesResponse> {
    if (techId !== undefined) await resolveTechnician(db, actor, techId, 'read');
    const { timeZone } = await maintenance.settingsOf(actor.mspId);
    const day = dayOf(date, timeZone);
    const now = deps.now();
    const sessions = await listSessionsBetween(db, actor.mspId, day.from, day.to, techId);
    const completions = await listCompletionsBetween(db, actor.mspId, day.from, day.to, techId);
    // The day's latest completion of each technician and ticket (oldest first, so a later one replaces an earlier).
    const completionOf = new Map<string, TCompletionRow>(completions.map((completion) => [`${completion.techId}:${completion.queueTicketId}`, completion]));
    const ticketIds = [...new Set([...sessions.map((session) => session.queueTicketId), ...completions.map((completion) => completion.queueTicketId)])];
    const tickets = new Map((await listTicketsByIds(db, actor.mspId, ticketIds)).map((ticket) => [ticket.id, ticket]));
    const techIds = [...new Set([...sessions.map((session) => session.techId), ...completions.map((completion) => completion.techId)])];
    const names = await listUserNames(db, actor.mspId, techIds);
    const byKey = new Map<string, TActivity>();
    const activityOf = (tech: string, ticket: TQueueTicketRow): TActivity => {
      const key = `${tech}:${ticket.id}`;
      let activity = byKey.get(key);
      if (!activity) {
        const completion = completionOf.get(key);
        activity = {
          techId: tech,
          technicianName: names.get(tech) ?? '',
          ticketId: ticket.psaTicketId,
          queueTicketId: ticket.id,
          title: ticket.summary,
          sessions: [],
          totalWorkMinutes: 0,
          unconfirmedMinutes: 0,
          completed: completion !== undefined,
          completedAt: completion ? completion.completedAt.toISOString() : null,
          slaMet: completion?.slaDueAt ? completion.completedAt <= completion.slaDueAt : null,
        };
        byKey.set(key, activity);
      }
      return activity;
    };
    for (const session of sessions) {
      const ticket = tickets.get(session.queueTicketId);
      if (!ticket) continue;
      const activity = activityOf(session.techId, ticket);
      const presented = presentSession(session, ticket.psaTicketId, now, timeZone);
      activity.sessions.push(presented);
      const start = session.startedAt < day.from ? day.from : session.startedAt;
      const endRaw = session.endedAt ?? now;
      const end = endRaw > day.to ? day.to : endRaw;
      // A running session is flagged once it passes midnight or 12 hours (presentSession), an ended one when it ended.
      if (presented.flag !== null && session.confirmedAt === null) activity.unconfirmedMinutes = roundMinutes(activity.unconfirmedMinutes + minutesBetween(start, end));
      else activity.totalWorkMinutes = roundMinutes(activity.totalWorkMinutes + minutesBetween(start, end));
    }
    for (const completion of completions) {
      const ticket = tickets.get(completion.queueTicketId);
      if (ticket) activityOf(completion.techId, ticket);
    }
    const list = [...byKey.values()];
    const totals = new Map<string, TActivitiesResponse['totals'][number]>();
    for (const activity of list) {
      const total = totals.get(activity.techId) ?? { techId: activity.techId, technicianName: activity.technicianName, totalWorkMinutes: 0, unconfirmedMinutes: 0, ticketsCompleted: 0, slaMet: 0 };
      total.totalWorkMinutes = roundMinutes(total.totalWorkMinutes + activity.totalWorkMinutes);
      total.unconfirmedMinutes = roundMinutes(total.unconfirmedMinutes + activity.unconfirmedMinutes);
      if (activity.completed) total.ticketsCompleted += 1;
      if (activity.slaMet === true) total.slaMet += 1;
      totals.set(activity.techId, total);
    }
    // The latest earlier day with work of the same scope, so an empty day (a weekend, a Monday morning) can lead to it.
    const latestWork = await findLatestWorkBefore(db, actor.mspId, day.from, now, techId);
    return { date: day.date, timeZone, activities: list, totals: [...totals.values()], ...(latestWork === null ? {} : { previousDayWithWork: dayIn(latestWork, timeZone) }) };
  }

  async function getSettings(actor: TActor): Promise<TQueueSettings> {
    return maintenance.settingsOf(actor.mspId);
  }

  /** The MSP's weights (adminPortal): saved, every open ticket re-ranked, audited. */
  async function saveSettings(actor: TActor, settings: TQueueSettings): Promise<TQueueSettings> {
    await db.transaction(async (tx) => {
      await saveQueueSettings(tx, actor.mspId, settings, deps.now());
      await rerankQueue(tx, actor.mspId, settings);
      await deps.audit.record(tx, { ...userAuditFields(actor), action: 'queue.settings_save', target: actor.mspId, outcome: 'success', details: { ...settings } });
    });
    maintenance.forgetSettings(actor.mspId);
    return settings;
  }

  return { nextTickets, currentWorking, eligibleTickets, getAll, manualPick, complete, markIncomplete, requeue, reject, release, activities, getSettings, saveSettings, presentOne, present, enqueueAssign, enqueueUnassign };
}
export type TQueueService = ReturnType<typeof createQueueService>;
