import { eq, sql } from 'drizzle-orm';
import { MESSAGES } from '@switchboard/contracts';
import { authThrottle, type TDatabase } from '@switchboard/db';
import { AppError } from '../../lib/app-error';

/**
 * Per-account (per-key) throttling stored in the database so it holds across replicas.
 * Per-IP limits are @fastify/rate-limit's, set per route.
 *  - at most 20 attempts per 5 minutes per key (issue #2);
 *  - 10 consecutive failures lock the key for 15 minutes.
 * An attempt is counted before its secret is checked, in one statement (`reserveAttempt`), so attempts
 * sent together cannot all pass a count that was read before any of them was added (security review).
 */
export const ACCOUNT_WINDOW_MS = 5 * 60 * 1000;
export const ACCOUNT_MAX_ATTEMPTS = 20;
export const LOCK_AFTER_FAILURES = 10;
export const LOCK_MS = 15 * 60 * 1000;

export function throttleKey(kind: 'sign_in' | 'two_factor' | 'reset', ...parts: string[]): string {
  return [kind, ...parts.map((p) => p.toLowerCase())].join(':');
}

/** An attempt counted as a failure before its secret is checked; `failures` is the key's count with it. */
export interface TReservedAttempt {
  key: string;
  failures: number;
}

const secondsUntil = (then: Date, now: Date): number => Math.ceil((then.getTime() - now.getTime()) / 1000);

const lockedError = (lockedUntil: Date, now: Date) => new AppError('locked', MESSAGES.accountLocked, { retryAfterSeconds: secondsUntil(lockedUntil, now) });

/**
 * Adds one to a key's count in one statement and answers the row as it now stands: the count within the
 * 5-minute window and any lock. A window that has run out starts again at 1, unless a lock still holds
 * (it outlasts the window, and a reservation it refuses is rolled back).
 */
async function countOneMore(db: TDatabase, key: string, now: Date) {
  const isCurrent = sql`(${authThrottle.windowStartedAt} > ${new Date(now.getTime() - ACCOUNT_WINDOW_MS).toISOString()}::timestamptz or ${authThrottle.lockedUntil} > ${now.toISOString()}::timestamptz)`;
  const [row] = await db
    .insert(authThrottle)
    .values({ key, count: 1, windowStartedAt: now, lockedUntil: null })
    .onConflictDoUpdate({
      target: authThrottle.key,
      set: {
        count: sql`case when ${isCurrent} then ${authThrottle.count} + 1 else 1 end`,
        windowStartedAt: sql`case when ${isCurrent} then ${authThrottle.windowStartedAt} else ${now.toISOString()}::timestamptz end`,
        lockedUntil: sql`case when ${isCurrent} then ${authThrottle.lockedUntil} else null end`,
      },
    })
    .returning({ count: authThrottle.count, windowStartedAt: authThrottle.windowStartedAt, lockedUntil: authThrottle.lockedUntil });
  if (!row) throw new Error('the throttle upsert returned no row');
  return row;
}

/** Spends one of the key's 20 attempts per 5 minutes; throws 429 (and the caller's transaction rolls it back) when none is left. */
async function spendOne(db: TDatabase, key: string, now: Date): Promise<void> {
  const row = await countOneMore(db, key, now);
  if (row.count > ACCOUNT_MAX_ATTEMPTS) {
    throw new AppError('rate_limited', MESSAGES.tooManyRequests, { retryAfterSeconds: secondsUntil(new Date(row.windowStartedAt.getTime() + ACCOUNT_WINDOW_MS), now) });
  }
}

/** The key that budgets all attempts on an account, beside the failure key that locks it. */
const attemptKey = (failureKey: string): string => `${failureKey}:attempts`;

/**
 * Counts an attempt as a failure before its secret is checked and, with `spendsBudget`, spends one of the
 * account's 20 attempts per 5 minutes (issue #2 §3), all in one transaction. Throws 423 when the key is
 * locked or already has 10 failures counted (the tenth locks it when it fails), 429 when the budget is
 * spent; a refused attempt counts nothing. The caller then settles it: `recordFailure`, `recordSuccess`
 * or `releaseAttempt`.
 */
export async function reserveAttempt(db: TDatabase, key: string, now: Date, options: { spendsBudget: boolean }): Promise<TReservedAttempt> {
  return db.transaction(async (tx) => {
    const row = await countOneMore(tx, key, now);
    if (row.lockedUntil && row.lockedUntil > now) throw lockedError(row.lockedUntil, now);
    if (row.count > LOCK_AFTER_FAILURES) throw lockedError(new Date(now.getTime() + LOCK_MS), now);
    if (options.spendsBudget) await spendOne(tx, attemptKey(key), now);
    return { key, failures: row.count };
  });
}

/** Throws 429 (too many attempts in the window) or 423 (locked); for requests that check no secret (resend, reset request). */
export async function assertNotThrottled(db: TDatabase, key: string, now: Date): Promise<void> {
  const [row] = await db.select().from(authThrottle).where(eq(authThrottle.key, key)).limit(1);
  if (!row) return;
  if (row.lockedUntil && row.lockedUntil > now) throw lockedError(row.lockedUntil, now);
  const windowOpen = now.getTime() - row.windowStartedAt.getTime() < ACCOUNT_WINDOW_MS;
  if (windowOpen && row.count >= ACCOUNT_MAX_ATTEMPTS) {
    throw new AppError('rate_limited', MESSAGES.tooManyRequests, { retryAfterSeconds: secondsUntil(new Date(row.windowStartedAt.getTime() + ACCOUNT_WINDOW_MS), now) });
  }
}

/**
 * Settles a reserved attempt that failed: it is already counted, and the tenth failure locks the key for
 * 15 minutes. Returns true when this failure locked the key.
 */
export async function recordFailure(db: TDatabase, reserved: TReservedAttempt, now: Date): Promise<boolean> {
  if (reserved.failures < LOCK_AFTER_FAILURES) return false;
  const locked = await db
    .update(authThrottle)
    .set({ lockedUntil: new Date(now.getTime() + LOCK_MS) })
    .where(eq(authThrottle.key, reserved.key))
    .returning({ key: authThrottle.key });
  return locked.length > 0;
}

/** Takes back a reserved attempt that is not a failure: it checked no secret (a provider account), or a right code that stays usable. */
export async function releaseAttempt(db: TDatabase, reserved: TReservedAttempt): Promise<void> {
  await db
    .update(authThrottle)
    .set({ count: sql`greatest(${authThrottle.count} - 1, 0)` })
    .where(eq(authThrottle.key, reserved.key));
}

/** A success clears the key's failures. */
export async function recordSuccess(db: TDatabase, key: string): Promise<void> {
  await db.delete(authThrottle).where(eq(authThrottle.key, key));
}

/** Spends one of the account's 20 attempts per 5 minutes (issue #2 §3) in one statement; throws 429 when none is left. */
export async function spendAttempt(db: TDatabase, failureKey: string, now: Date): Promise<void> {
  await db.transaction((tx) => spendOne(tx, attemptKey(failureKey), now));
}
