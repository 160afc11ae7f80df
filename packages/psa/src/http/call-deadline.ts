import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * One deadline for everything a PSA call does: its requests, its retries and their waits, the
 * budget's queue and the lookups of a create of unknown outcome. The durable outbox sends each
 * write under a deadline that ends well before the row's lease, so a slow or rate-limiting PSA can
 * never keep a send going after another worker may have taken the row over (issue #10).
 */
export interface TPsaCallDeadline {
  /** Wall-clock time (ms since the epoch) at which the call must have finished. */
  readonly expiresAt: number;
  readonly milliseconds: number;
  /** Aborts the request in flight when the deadline passes. */
  readonly signal: AbortSignal;
}

const current = new AsyncLocalStorage<TPsaCallDeadline>();

/** Runs `call` so that every PSA request it makes ends within `milliseconds` (an outer, earlier deadline wins). */
export function runWithPsaDeadline<T>(milliseconds: number, call: () => Promise<T>): Promise<T> {
  const outer = current.getStore();
  const expiresAt = Date.now() + milliseconds;
  if (outer && outer.expiresAt <= expiresAt) return call();
  return current.run({ expiresAt, milliseconds, signal: AbortSignal.timeout(milliseconds) }, call);
}

/** The deadline of the call in progress, if one was set. */
export function currentPsaDeadline(): TPsaCallDeadline | undefined {
  return current.getStore();
}

/** How long the call may still take; Infinity without a deadline. */
export function remainingPsaDeadlineMs(deadline: TPsaCallDeadline | undefined): number {
  if (!deadline) return Number.POSITIVE_INFINITY;
  return deadline.signal.aborted ? 0 : Math.max(0, deadline.expiresAt - Date.now());
}
