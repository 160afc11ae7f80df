import { and, desc, eq, inArray } from 'drizzle-orm';
import { MESSAGES, PSA_WRITE_MESSAGES, type TPsaWriteState } from '@switchboard/contracts';
import { psaOutbox, queueNotes, queueTimers, type TDatabase } from '@switchboard/db';
import type { TPsaNoteKind } from '@switchboard/psa';
import type { TAppDeps } from '../../app-deps';
import { noteIdOfResult, psaResendOf } from '../psa-outbox/psa-resend';
import { attemptPsaWrite, definePsaWrite, enqueuePsaWrite, isPsaWriteInFlight, psaWritesFor, type TPsaWriteOutcome } from '../psa-outbox/psa-outbox';

/**
 * Every PSA write of the queue goes through the durable outbox (issue #10: kept, retried with
 * backoff, never duplicated, visible as pending). The kinds below are defined once at module level;
 * services enqueue inside their transaction and try once after the commit.
 */

export interface TAssignPayload {
  ticketId: number;
  boardId: number | null;
  /** The technician's PSA member id. */
  memberId: number;
}
export interface TUnassignPayload {
  ticketId: number;
  /** The board's new-ticket status name (the adapter's New status when null), so the ticket no longer shows as assigned. */
  statusName: string | null;
}
export interface TNotePayload {
  noteId: string;
  ticketId: number;
  text: string;
  kind: TPsaNoteKind;
  noteType: number | null;
  /** The technician's PSA member, so the note is theirs (ConnectWise note member). */
  memberId: number | null;
}
export interface TUpdatePayload {
  ticketId: number;
  summary?: string;
  typeId?: number | null;
  subtypeId?: number | null;
  priorityId?: number;
  statusId?: number;
}
export interface TClosePayload {
  ticketId: number;
  statusId: number | null;
  resolution: string | null;
}
export interface TTimeEntryPayload {
  timerId: string;
  ticketId: number;
  memberId: number;
  start: string;
  end: string;
  minutes: number;
  notes: string;
}

export const QUEUE_WRITES = {
  assign: 'queue.assign',
  unassign: 'queue.unassign',
  note: 'queue.note',
  update: 'queue.update',
  close: 'queue.close',
  timeEntry: 'queue.timeEntry',
} as const;
export type TQueueWriteKind = (typeof QUEUE_WRITES)[keyof typeof QUEUE_WRITES];

definePsaWrite<TAssignPayload, { ticketId: number }>(QUEUE_WRITES.assign, {
  describe: () => PSA_WRITE_MESSAGES.summary.assign,
  send: async (client, payload) => {
    // Owner / primary resource and the board's "Assigned" status (the adapter's default name).
    await client.assignTicket(payload.ticketId, { memberId: payload.memberId });
    return { ticketId: payload.ticketId };
  },
});

definePsaWrite<TUnassignPayload, { ticketId: number }>(QUEUE_WRITES.unassign, {
  describe: () => PSA_WRITE_MESSAGES.summary.unassign,
  send: async (client, payload) => {
    await client.unassignTicket(payload.ticketId, payload.statusName === null ? {} : { statusName: payload.statusName });
    return { ticketId: payload.ticketId };
  },
});

definePsaWrite<TNotePayload, { noteId: number }>(QUEUE_WRITES.note, {
  describe: (payload) => PSA_WRITE_MESSAGES.summary.note(payload.kind),
  send: async (client, payload, row, context) => {
    const resend = await psaResendOf(context.db, row, context.now, noteIdOfResult);
    const note = await client.addNote(payload.ticketId, { text: payload.text, kind: payload.kind, noteTypeId: payload.noteType, memberId: payload.memberId, resend });
    return { noteId: note.id };
  },
  onDone: async (tx, row, result) => {
    await tx.update(queueNotes).set({ psaNoteId: result.noteId }).where(and(eq(queueNotes.mspId, row.mspId), eq(queueNotes.id, (row.payload as TNotePayload).noteId)));
  },
});

definePsaWrite<TUpdatePayload, { ticketId: number }>(QUEUE_WRITES.update, {
  describe: (payload) => PSA_WRITE_MESSAGES.summary.update(Object.keys(payload)),
  send: async (client, payload) => {
    const { ticketId, ...changes } = payload;
    await client.updateTicket(ticketId, changes);
    return { ticketId };
  },
});

definePsaWrite<TClosePayload, { ticketId: number }>(QUEUE_WRITES.close, {
  describe: (payload) => PSA_WRITE_MESSAGES.summary.close(payload.resolution),
  send: async (client, payload, row, context) => {
    // A resend may find the resolution note its earlier call wrote (the PSAs write it before the status).
    const resend = payload.resolution === null ? undefined : await psaResendOf(context.db, row, context.now, noteIdOfResult);
    await client.closeTicket(payload.ticketId, { ...(payload.statusId === null ? {} : { statusId: payload.statusId }), ...(payload.resolution === null ? {} : { resolution: payload.resolution }), resend });
    return { ticketId: payload.ticketId };
  },
});

definePsaWrite<TTimeEntryPayload, { timeEntryId: number }>(QUEUE_WRITES.timeEntry, {
  describe: (payload) => PSA_WRITE_MESSAGES.summary.timeEntry(payload.minutes),
  send: async (client, payload) => {
    // The adapter looks an entry of unknown outcome up (ticket, member, start) before sending it again.
    const entry = await client.addTimeEntry({ ticketId: payload.ticketId, memberId: payload.memberId, startAt: payload.start, endAt: payload.end, notes: payload.notes });
    return { timeEntryId: entry.id };
  },
  onDone: async (tx, row, result) => {
    await tx.update(queueTimers).set({ psaTimeEntryId: result.timeEntryId }).where(and(eq(queueTimers.mspId, row.mspId), eq(queueTimers.id, (row.payload as TTimeEntryPayload).timerId)));
  },
});

export interface TQueueWrite {
  mspId: string;
  kind: TQueueWriteKind;
  /** psa_tickets row id: the writes of one ticket are found (and badged as pending) by it. */
  ticketRowId: string;
  idempotencyKey: string;
  payload: TAssignPayload | TUnassignPayload | TNotePayload | TUpdatePayload | TClosePayload | TTimeEntryPayload;
  createdBy: string | null;
}

/** Enqueues one write inside the caller's transaction; returns the outbox row id. */
export async function enqueueQueueWrite(tx: TDatabase, write: TQueueWrite, now: Date): Promise<string> {
  const row = await enqueuePsaWrite(
    tx,
    { mspId: write.mspId, kind: write.kind, idempotencyKey: write.idempotencyKey, target: { type: 'ticket', id: write.ticketRowId }, payload: write.payload, createdBy: write.createdBy },
    now,
  );
  return row.id;
}

/**
 * True when the ticket's last ownership write is an assignment the PSA has or will get (done or
 * pending), so handing it back must unassign it there. A claim by a technician without a PSA member
 * assigns nothing, and an assignment the PSA refused for good left the owner as it was: unassigning
 * then would clear an owner set in the PSA by someone else.
 */
export async function isAssignedInPsaByQueue(tx: TDatabase, mspId: string, ticketRowId: string): Promise<boolean> {
  const [last] = await tx
    .select({ kind: psaOutbox.kind, status: psaOutbox.status })
    .from(psaOutbox)
    .where(and(eq(psaOutbox.mspId, mspId), eq(psaOutbox.targetType, 'ticket'), eq(psaOutbox.targetId, ticketRowId), inArray(psaOutbox.kind, [QUEUE_WRITES.assign, QUEUE_WRITES.unassign])))
    .orderBy(desc(psaOutbox.seq))
    .limit(1);
  return last?.kind === QUEUE_WRITES.assign && last.status !== 'failed';
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** How long a request waits for earlier writes about the same ticket that are being sent right now. */
const ORDER_WAIT_MS = 3000;

function stateOf(outcome: TPsaWriteOutcome): TPsaWriteState {
  if (outcome.status === 'done') return { status: 'done', message: null, nextAttemptAt: null };
  if (outcome.status === 'failed') return { status: 'failed', message: outcome.error.detail, nextAttemptAt: null };
  return { status: 'pending', message: outcome.error?.detail ?? MESSAGES.queue.psaPending, nextAttemptAt: outcome.nextAttemptAt?.toISOString() ?? null };
}

/**
 * Tries a write at once after the commit; what happened in the words the screens show. The outbox
 * sends the writes about one ticket in order, so when an earlier one is still waiting (a claim's
 * assignment sent in the background a moment ago) this sends the due earlier ones first, or waits
 * briefly for the one in flight; an earlier write the PSA is refusing leaves this one pending.
 */
export async function deliverQueueWrite(deps: TAppDeps, mspId: string, rowId: string): Promise<TPsaWriteState> {
  const db = deps.database.db;
  const deadline = Date.now() + ORDER_WAIT_MS;
  for (;;) {
    const outcome = await attemptPsaWrite(deps, mspId, rowId);
    if (outcome.status !== 'pending' || outcome.error !== null || Date.now() > deadline) return stateOf(outcome);
    const earlier = (await psaWritesFor(db, mspId, outcome.row.targetType, [outcome.row.targetId])).filter((row) => row.status === 'pending' && row.seq < outcome.row.seq).sort((a, b) => a.seq - b.seq);
    const [first] = earlier;
    if (!first) {
      // This write itself is being sent (by the retry loop or another request): wait for that send, never beside it.
      await sleep(25);
      continue;
    }
    const now = deps.now();
    const isInFlight = isPsaWriteInFlight(first.id) || (first.lockedUntil !== null && first.lockedUntil > now);
    if (isInFlight) {
      await sleep(25);
      continue;
    }
    if (first.nextAttemptAt > now) return { status: 'pending', message: first.lastError ?? MESSAGES.queue.psaPending, nextAttemptAt: first.nextAttemptAt.toISOString() };
    const before = await attemptPsaWrite(deps, mspId, first.id);
    if (before.status === 'pending' && before.error !== null) return { ...stateOf(before), message: before.error.detail };
  }
}

/** How many writes of a ticket copy the PSA does not have: still being retried, and refused for good (not discarded). */
export interface TTicketPsaWriteCounts {
  pending: number;
  failed: number;
}

/**
 * The writes of each ticket copy not yet in the PSA, pending apart from failed (review s29, finding 2: a write refused
 * for good showed as "pending … it will be retried"); a discarded write counts in neither.
 */
export async function psaWriteCountsByTicket(db: TDatabase, mspId: string, ticketRowIds: string[]): Promise<Map<string, TTicketPsaWriteCounts>> {
  const counts = new Map<string, TTicketPsaWriteCounts>();
  if (ticketRowIds.length === 0) return counts;
  for (const row of await psaWritesFor(db, mspId, 'ticket', ticketRowIds)) {
    const counted = counts.get(row.targetId) ?? { pending: 0, failed: 0 };
    if (row.status === 'failed') counted.failed += 1;
    else counted.pending += 1;
    counts.set(row.targetId, counted);
  }
  return counts;
}

/**
 * The delivery of several time entries as one state for the screens (review s29, finding 1): failed when the PSA refused
 * any, else pending when any waits, else done; null when none was sent.
 */
export function timeEntriesState(states: readonly TPsaWriteState[]): TPsaWriteState | null {
  return states.find((state) => state.status === 'failed') ?? states.find((state) => state.status === 'pending') ?? states[0] ?? null;
}

/** Tries the time entries after the commit, in order; their delivery as one state (timeEntriesState). */
export async function deliverTimeEntries(deps: TAppDeps, mspId: string, writeIds: readonly string[]): Promise<TPsaWriteState | null> {
  const states: TPsaWriteState[] = [];
  for (const id of writeIds) states.push(await deliverQueueWrite(deps, mspId, id));
  return timeEntriesState(states);
}

/**
 * The delivery state of each pending or failed write of one kind on a ticket copy, keyed by the payload's noteId; a
 * write an admin discarded is still failed here: the PSA does not have that note.
 */
export async function pendingWriteStates(db: TDatabase, mspId: string, ticketRowId: string, kind: TQueueWriteKind): Promise<Map<string, TPsaWriteState>> {
  const states = new Map<string, TPsaWriteState>();
  for (const row of await psaWritesFor(db, mspId, 'ticket', [ticketRowId], { withDiscarded: true })) {
    if (row.kind !== kind) continue;
    const payload = row.payload as Partial<TNotePayload>;
    if (typeof payload.noteId !== 'string') continue;
    states.set(
      payload.noteId,
      row.status === 'failed' ? { status: 'failed', message: row.lastError, nextAttemptAt: null } : { status: 'pending', message: row.lastError ?? MESSAGES.queue.psaPending, nextAttemptAt: row.nextAttemptAt.toISOString() },
    );
  }
  return states;
}
