import { MESSAGES } from '@switchboard/contracts';
import { isPsaError, runWithPsaDeadline, type PsaClient } from '@switchboard/psa';
import type { TDatabase } from '@switchboard/db';
import type { TAppDeps } from '../../app-deps';
import { AppError } from '../../lib/app-error';
import { createIntervalLoop, type TIntervalLoop } from '../../lib/interval-loop';
import { appErrorFromPsaError } from '../integrations/psa-errors';
import {
  claimPsaWrite,
  failOpenPsaWritesOfMsp,
  findDuePsaWrites,
  findPsaWrite,
  insertPsaWrite,
  markPsaWriteAttemptFailed,
  markPsaWriteDone,
  markPsaWriteNotSentForOtherConnection,
  psaConnectionOf,
  type TNewPsaWrite,
  type TPsaOutboxRow,
} from './psa-outbox.repository';

export { findPsaWriteByKey, psaWritesFor, type TPsaOutboxRow } from './psa-outbox.repository';

/**
 * The durable PSA outbox (decision 013). A module defines each kind of write once with
 * `definePsaWrite`, stores a write with `enqueuePsaWrite` inside its mutation's transaction, and may
 * try it at once after the commit with `attemptPsaWrite`; the retry loop resends what is still
 * pending. Writes about one target are sent in the order they were stored.
 */

export interface TPsaWriteContext {
  /** The database, to read what the write needs now (e.g. the PSA id of a ticket created by an earlier write). */
  db: TDatabase;
  now: Date;
}

export interface TPsaWriteHandler<TPayload, TResult> {
  /**
   * What the write does in a few plain words for an MSP admin ("Time entry of 25 min"), from the stored payload.
   * The payload is JSON kept since the write was stored (an older shape, or odd), so build it from what is there;
   * `describePsaWrite` answers the kind when this throws or answers nothing.
   */
  describe(payload: TPayload): string;
  /** One attempt at the PSA. `row.id` is stable across attempts: use it as the idempotency key. Throw to fail. */
  send(client: PsaClient, payload: TPayload, row: TPsaOutboxRow, context: TPsaWriteContext): Promise<TResult>;
  /**
   * Runs in the transaction that marks the row done (e.g. store the PSA's id on the module's own row). When it throws,
   * the row is still recorded done without it (the PSA has the write), with the error kept as its last error.
   */
  onDone?(tx: TDatabase, row: TPsaOutboxRow, result: TResult, now: Date): Promise<void>;
  /** Runs in the transaction that marks the row failed for good (e.g. store a write that tells the PSA's readers what is missing). */
  onFailed?(tx: TDatabase, row: TPsaOutboxRow, error: AppError, now: Date): Promise<void>;
}

type TAnyHandler = TPsaWriteHandler<never, unknown>;
const HANDLERS = new Map<string, TAnyHandler>();

/** Declares a kind of PSA write; call once at module level in the module that owns it. */
export function definePsaWrite<TPayload, TResult>(kind: string, handler: TPsaWriteHandler<TPayload, TResult>): void {
  if (HANDLERS.has(kind) && HANDLERS.get(kind) !== handler) throw new Error(`PSA write kind "${kind}" is defined twice`);
  HANDLERS.set(kind, handler);
}

/** Longest summary a write shows. */
const SUMMARY_MAX = 200;

/** The plain-words summary of a stored write (the admin's list); never throws: the kind when the handler cannot say. */
export function describePsaWrite(kind: string, payload: unknown): string {
  const handler = HANDLERS.get(kind);
  if (!handler) return kind;
  try {
    const text = handler.describe(payload as never);
    const summary = typeof text === 'string' ? text.trim() : '';
    return summary === '' ? kind : summary.slice(0, SUMMARY_MAX);
  } catch {
    return kind;
  }
}

export type TPsaWriteDeps = Pick<TAppDeps, 'database' | 'audit' | 'now' | 'psaClients'>;

export type TPsaWriteOutcome =
  /** `followUpError`: the PSA has it, but the handler's onDone threw (recorded done without that step). */
  | { status: 'done'; result: unknown; row: TPsaOutboxRow; followUpError?: unknown }
  /** Kept and retried: the PSA was down, limiting, or an earlier write about the same target is still waiting. */
  | { status: 'pending'; error: AppError | null; nextAttemptAt: Date | null; row: TPsaOutboxRow }
  /** The PSA refused it (or it kept failing); kept as failed with the reason, shown, and retriable by an admin. */
  | { status: 'failed'; error: AppError; row: TPsaOutboxRow; followUpError?: unknown };

/** After this many failed attempts a write is marked failed (about a day of retries); an admin can send it again. */
export const PSA_WRITE_MAX_ATTEMPTS = 12;
const BASE_DELAY_MS = 15_000;
const MAX_DELAY_MS = 4 * 60 * 60_000;
/** The longest wait a PSA's Retry-After can ask for; a longer one (1e13 s made an invalid date) is taken as this. */
export const MAX_RETRY_AFTER_MS = 24 * 60 * 60_000;
/** How long a claimed row is held by the worker or request that claimed it. */
export const PSA_WRITE_LEASE_MS = 2 * 60_000;
/**
 * One send (every request, retry and wait of it) ends within this, well before the lease does, so no
 * other worker can take the row over while this one may still change the PSA (issue #10).
 */
export const PSA_SEND_DEADLINE_MS = PSA_WRITE_LEASE_MS / 2;

/**
 * The rows this process is sending now, each with the token of its sender. The lease keeps replicas
 * apart; this keeps one process from sending a row again beside itself when the lease has run out
 * on the app's clock while the send is still going (a slow PSA, or a test moving the clock on).
 */
const IN_FLIGHT = new Map<string, symbol>();

/** True while this process is sending the write. */
export function isPsaWriteInFlight(id: string): boolean {
  return IN_FLIGHT.has(id);
}

function releaseInFlight(id: string, token: symbol): void {
  if (IN_FLIGHT.get(id) === token) IN_FLIGHT.delete(id);
}

/** Exponential backoff with jitter: 15 s, 30 s, 1 min … capped at 4 h; a PSA's Retry-After (at most a day) wins when longer. */
export function nextRetryDelayMs(attempts: number, retryAfterSeconds: number | null = null, random: () => number = Math.random): number {
  const exponential = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** Math.max(0, attempts - 1));
  const jittered = Math.round(exponential * (0.8 + random() * 0.4));
  // NaN and negative asks count as none; Infinity as the cap.
  const askedMs = retryAfterSeconds !== null && retryAfterSeconds > 0 ? Math.min(retryAfterSeconds * 1000, MAX_RETRY_AFTER_MS) : 0;
  return Math.max(jittered, askedMs);
}

/** PSA answers that another attempt cannot change. Bad keys and a missing integration are retried: an admin can fix them. */
const PERMANENT_PSA_KINDS = new Set(['validation', 'not_found', 'not_supported']);
const PERMANENT_APP_CODES = new Set(['psa_validation', 'psa_not_found', 'validation', 'not_found', 'conflict']);

function classify(error: unknown): { retry: boolean; appError: AppError; retryAfterSeconds: number | null } {
  if (isPsaError(error)) return { retry: !PERMANENT_PSA_KINDS.has(error.kind), appError: appErrorFromPsaError(error), retryAfterSeconds: error.retryAfterSeconds };
  if (error instanceof AppError) return { retry: !PERMANENT_APP_CODES.has(error.code), appError: error, retryAfterSeconds: error.extra.retryAfterSeconds ?? null };
  // Anything else (a dropped connection the adapter did not classify) is worth another try.
  return { retry: true, appError: new AppError('psa_unavailable', error instanceof Error ? error.message : 'The PSA did not answer.'), retryAfterSeconds: null };
}

/** The text kept on a failed row: the PSA's field messages when it gave some (a module's onFailed may show it too). */
export function failureText(error: AppError): string {
  const fields = error.extra.invalidParams?.map((param) => (param.name ? `${param.name}: ${param.reason}` : param.reason)) ?? [];
  return [error.detail, ...fields].join(' ').slice(0, 1000);
}

/**
 * Stores a write in the caller's transaction, for the MSP's PSA connection of that moment (it is never sent to another
 * one); a repeated idempotency key returns the row already stored.
 */
export async function enqueuePsaWrite(tx: TDatabase, input: TNewPsaWrite & { mspId: string }, now: Date = new Date()): Promise<TPsaOutboxRow> {
  if (!HANDLERS.has(input.kind)) throw new Error(`PSA write kind "${input.kind}" is not defined`);
  const { mspId, ...write } = input;
  return (await insertPsaWrite(tx, mspId, { ...write, psaConnection: await psaConnectionOf(tx, mspId) }, now)).row;
}

/**
 * Stops every write of the MSP that the PSA does not have yet, because the PSA connection is changing to another PSA
 * (another site or company, another PSA) or going away: a queued note or time entry names its ticket by the PSA's number
 * alone, and the same number is an unrelated ticket in another PSA. Call in the transaction that changes the connection.
 * Each is kept as failed, with the PSA it was meant for in its reason, and "Send again" refuses it; a write being sent
 * at that moment may still land in that PSA. How many were stopped.
 */
export async function stopPsaWritesForConnectionChange(tx: TDatabase, mspId: string, meantFor: string, now: Date): Promise<{ waiting: number; sending: number }> {
  return failOpenPsaWritesOfMsp(tx, mspId, { waiting: MESSAGES.psa.connectionChanged(meantFor), sending: MESSAGES.psa.connectionChangedWhileSending(meantFor) }, meantFor, now);
}

/** Another worker took the row over (our lease ran out): what we learnt is not recorded; the holder records its own. */
function leaseLost(row: TPsaOutboxRow): TPsaWriteOutcome {
  return { status: 'pending', error: null, nextAttemptAt: row.nextAttemptAt, row };
}

/**
 * Leases the write and sends it, when it is due and nobody holds it; null when it is not sent (another sender holds
 * it, it waits behind an earlier write, or the PSA asked to wait). The write is reserved in IN_FLIGHT before the
 * claim (no await between the check and the set), so two callers in this process never both send it, and its entry
 * is freed whatever happens: a send or bookkeeping step that throws never leaves it held until restart.
 */
async function claimAndSend(deps: TPsaWriteDeps, mspId: string, id: string, via: 'request' | 'retry'): Promise<TPsaWriteOutcome | null> {
  if (IN_FLIGHT.has(id)) return null;
  const token = Symbol(id);
  IN_FLIGHT.set(id, token);
  try {
    const now = deps.now();
    // The lease starts now, just before this send (which ends within PSA_SEND_DEADLINE_MS), never before slower sends.
    const claimed = await claimPsaWrite(deps.database.db, mspId, id, now, new Date(now.getTime() + PSA_WRITE_LEASE_MS));
    return claimed ? await sendAndRecord(deps, claimed, via) : null;
  } finally {
    releaseInFlight(id, token);
  }
}

async function sendAndRecord(deps: TPsaWriteDeps, row: TPsaOutboxRow, via: 'request' | 'retry'): Promise<TPsaWriteOutcome> {
  const db = deps.database.db;
  const attempts = row.attempts + 1;
  const handler = HANDLERS.get(row.kind);
  const lease = row.lockedUntil;
  if (lease === null) throw new Error(`psa_outbox: write ${row.id} is sent without a lease`);
  try {
    if (!handler) throw new AppError('validation', `This server does not know the PSA write "${row.kind}".`);
    const sent = await runWithPsaDeadline(PSA_SEND_DEADLINE_MS, async () => {
      const client = await deps.psaClients.forMsp(row.mspId);
      // Checked after the client is built, from a connection read no earlier than the client's: a change committed
      // before this point is seen here, and one committed after it stops the row as being sent (decision 013).
      if (!(await isStoredForConnectedPsa(db, row))) return { isSent: false } as const;
      return { isSent: true, result: await handler.send(client, row.payload as never, row, { db, now: deps.now() }) } as const;
    });
    if (!sent.isSent) return await settleStoredForOtherConnection(deps, row, lease, via);
    return await recordDone(deps, handler, row, lease, attempts, sent.result, via);
  } catch (error) {
    const { retry, appError, retryAfterSeconds } = classify(error);
    const now = deps.now();
    if (retry && attempts < PSA_WRITE_MAX_ATTEMPTS) {
      const nextAttemptAt = new Date(now.getTime() + nextRetryDelayMs(attempts, retryAfterSeconds));
      if (!(await markPsaWriteAttemptFailed(db, row.mspId, row.id, lease, attempts, failureText(appError), nextAttemptAt, now))) return leaseLost(row);
      return { status: 'pending', error: appError, nextAttemptAt, row: { ...row, attempts, nextAttemptAt } };
    }
    const recordFailure = (withHandlerStep: boolean) =>
      db.transaction(async (tx) => {
        if (!(await markPsaWriteAttemptFailed(tx, row.mspId, row.id, lease, attempts, failureText(appError), null, now))) return false;
        if (withHandlerStep && handler?.onFailed) await handler.onFailed(tx, row, appError, now);
        const details = { via, attempts, writeId: row.id, reason: appError.detail, ...(withHandlerStep ? {} : { handlerStepFailed: true }) };
        await deps.audit.record(tx, { mspId: row.mspId, actorKind: 'system', actorId: row.createdBy, action: `psa_write.${row.kind}`, target: row.targetId, outcome: 'failure', details });
        return true;
      });
    let isRecorded: boolean;
    let followUpError: unknown;
    try {
      isRecorded = await recordFailure(true);
    } catch (error) {
      // The handler's own step (onFailed) threw. Unrecorded, the write would be sent again each time its lease ran
      // out, for good; it is recorded as failed without that step, and the error goes to the caller to be told.
      if (!handler?.onFailed) throw error;
      followUpError = error;
      isRecorded = await recordFailure(false);
    }
    if (!isRecorded) return leaseLost(row);
    return { status: 'failed', error: appError, row: { ...row, status: 'failed', attempts }, ...(followUpError === undefined ? {} : { followUpError }) };
  }
}

/**
 * True when the write may go to the MSP's PSA connected now: it was stored for that connection, or before writes kept
 * theirs (null: sent as before this check existed).
 */
async function isStoredForConnectedPsa(db: TDatabase, row: TPsaOutboxRow): Promise<boolean> {
  return row.psaConnection === null || row.psaConnection === (await psaConnectionOf(db, row.mspId));
}

/**
 * A write stored for another PSA connection than the MSP's current one: its request committed just after the admin
 * connected another PSA, too late for the change to stop it, and what it names (a ticket number) means another record
 * there. Kept as failed with a plain reason, never sent, and Send again refuses it. No handler's onFailed runs: what one
 * stores is another write, which would go to the PSA connected now.
 */
async function settleStoredForOtherConnection(deps: TPsaWriteDeps, row: TPsaOutboxRow, lease: Date, via: 'request' | 'retry'): Promise<TPsaWriteOutcome> {
  const reason = MESSAGES.psa.storedForOtherConnection;
  const now = deps.now();
  const meantFor = row.psaConnection ?? '';
  const isRecorded = await deps.database.db.transaction(async (tx) => {
    if (!(await markPsaWriteNotSentForOtherConnection(tx, row.mspId, row.id, lease, reason, meantFor, now))) return false;
    const details = { via, attempts: row.attempts, writeId: row.id, reason, meantFor };
    await deps.audit.record(tx, { mspId: row.mspId, actorKind: 'system', actorId: row.createdBy, action: `psa_write.${row.kind}`, target: row.targetId, outcome: 'failure', details });
    return true;
  });
  if (!isRecorded) return leaseLost(row);
  return { status: 'failed', error: new AppError('conflict', reason), row: { ...row, status: 'failed', lastError: reason } };
}

/**
 * Records a write the PSA took as done, with the handler's onDone in the same transaction. When onDone throws, the
 * write is recorded done all the same, without that step: sent again, the resend look-ups would find it in the PSA
 * and the follow-up would fail the same way, try after try, until the write was marked failed although the PSA has
 * it. The error is kept as the row's last error, audited, and answered as `followUpError` for the caller to tell.
 */
async function recordDone(deps: TPsaWriteDeps, handler: TAnyHandler, row: TPsaOutboxRow, lease: Date, attempts: number, result: unknown, via: 'request' | 'retry'): Promise<TPsaWriteOutcome> {
  const now = deps.now();
  const record = (followUpError: string | null) =>
    deps.database.db.transaction(async (tx) => {
      if (!(await markPsaWriteDone(tx, row.mspId, row.id, lease, attempts, result, now, followUpError))) return false;
      if (followUpError === null && handler.onDone) await handler.onDone(tx, row, result, now);
      if (via === 'retry' || followUpError !== null) {
        const details = { via, attempts, writeId: row.id, ...(followUpError === null ? {} : { handlerStepFailed: true, reason: followUpError }) };
        await deps.audit.record(tx, { mspId: row.mspId, actorKind: 'system', actorId: row.createdBy, action: `psa_write.${row.kind}`, target: row.targetId, outcome: 'success', details });
      }
      return true;
    });
  let isRecorded: boolean;
  let followUp: { error: unknown; text: string } | undefined;
  try {
    isRecorded = await record(null);
  } catch (error) {
    // Without an onDone step, what threw is the bookkeeping itself: the caller retries the write (look-ups first).
    if (!handler.onDone) throw error;
    followUp = { error, text: MESSAGES.psa.followUpFailed(error instanceof Error ? error.message : String(error)).slice(0, 1000) };
    isRecorded = await record(followUp.text);
  }
  if (!isRecorded) return leaseLost(row);
  return { status: 'done', result, row: { ...row, status: 'done', attempts, lastError: followUp?.text ?? null }, ...(followUp ? { followUpError: followUp.error } : {}) };
}

/**
 * Tries one stored write now (call after the transaction that stored it has committed). A write that another worker
 * holds, or that waits behind an earlier write about the same target, stays pending; so does one whose next try is
 * not due yet (the PSA asked to wait, or the backoff): it is answered with the reason it waits, without asking the
 * PSA again or using up a try. An admin's "Send again" makes it due first.
 */
export async function attemptPsaWrite(deps: TPsaWriteDeps, mspId: string, id: string): Promise<TPsaWriteOutcome> {
  const sent = await claimAndSend(deps, mspId, id, 'request');
  if (sent) return sent;
  const row = await findPsaWrite(deps.database.db, mspId, id);
  if (!row) throw new Error(`psa_outbox: no write ${id}`);
  if (row.status === 'done') return { status: 'done', result: row.result, row };
  if (row.status === 'failed') return { status: 'failed', error: new AppError('psa_validation', row.lastError ?? 'The PSA refused this change.'), row };
  const now = deps.now();
  const isBeingSent = IN_FLIGHT.has(id) || (row.lockedUntil !== null && row.lockedUntil >= now);
  if (!isBeingSent && row.nextAttemptAt > now) {
    return { status: 'pending', error: new AppError('psa_unavailable', row.lastError ?? MESSAGES.queue.psaPending), nextAttemptAt: row.nextAttemptAt, row };
  }
  return { status: 'pending', error: null, nextAttemptAt: row.nextAttemptAt, row };
}

/** How many due writes one pass of the retry loop looks at. */
const BATCH_SIZE = 20;

export interface TPsaOutboxPassOptions {
  /** Ends the pass before its next write (the app is stopping); the writes not reached stay due, held by nobody. */
  signal?: AbortSignal;
  /** Told of a write whose send or bookkeeping threw, and the pass goes on with the next; without it the pass throws at its end. */
  onWriteError?: (error: unknown, write: { mspId: string; id: string }) => void;
}

/**
 * One pass of the retry loop: sends the due writes of every MSP, oldest first; how many were attempted. Each write is
 * leased just before its own send, so none waits out a lease behind slower sends (a later write whose shared lease ran
 * out was sent by another replica too), and none is held in this process or in the database before its turn.
 */
export async function runPsaOutboxPass(deps: TPsaWriteDeps, batchSize = BATCH_SIZE, options: TPsaOutboxPassOptions = {}): Promise<number> {
  const due = await findDuePsaWrites(deps.database.db, deps.now(), batchSize, [...IN_FLIGHT.keys()]);
  const errors: unknown[] = [];
  let attempted = 0;
  for (const write of due) {
    if (options.signal?.aborted) break;
    try {
      const outcome = await claimAndSend(deps, write.mspId, write.id, 'retry');
      if (outcome) attempted += 1;
      // Recorded, but its handler's follow-up (onDone) or failure step (onFailed) threw: told as an error of this write.
      if ((outcome?.status === 'failed' || outcome?.status === 'done') && outcome.followUpError !== undefined) {
        const step = outcome.status === 'done' ? 'was sent and recorded as done, but its follow-up' : 'was recorded as failed, but its failure step';
        const error = new Error(`PSA write ${write.id} ${step} could not be recorded: ${outcome.followUpError instanceof Error ? outcome.followUpError.message : 'an unknown error'}`, { cause: outcome.followUpError });
        if (options.onWriteError) options.onWriteError(error, write);
        else errors.push(error);
      }
    } catch (error) {
      // Its outcome could not be recorded (a database blip, a handler's onDone or onFailed): the write keeps its lease
      // until it runs out and is tried again then; the writes after it are not held up.
      attempted += 1;
      if (options.onWriteError) options.onWriteError(error, write);
      else errors.push(error);
    }
  }
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new AggregateError(errors, `${errors.length} PSA writes could not be recorded.`);
  return attempted;
}

/** start / stop (waits for a pass in progress) / runOnce (after the scheduled pass, never beside it; how many were attempted). */
export type TPsaOutboxWorker = TIntervalLoop<number>;

/** The retry loop, started and stopped with the app (every replica runs one; the leases keep them apart). */
export function createPsaOutboxWorker(deps: TPsaWriteDeps, options: { intervalMs: number; log?: (message: string, error?: unknown) => void }): TPsaOutboxWorker {
  return createIntervalLoop({
    intervalMs: options.intervalMs,
    async run(stopping) {
      let total = 0;
      const { log } = options;
      const onWriteError = log ? (error: unknown, write: { mspId: string; id: string }) => log(`PSA outbox: write ${write.id} (MSP ${write.mspId}) could not be sent or recorded`, error) : undefined;
      // Drain what is due now, batch after batch, before sleeping again.
      for (;;) {
        const sent = await runPsaOutboxPass(deps, BATCH_SIZE, { signal: stopping, onWriteError });
        total += sent;
        if (sent < BATCH_SIZE || stopping.aborted) return total;
      }
    },
    onError: (error) => options.log?.('PSA outbox pass failed', error),
  });
}
