import { eq } from 'drizzle-orm';
import { MESSAGES } from '@switchboard/contracts';
import { authThrottle, type TDatabase } from '@switchboard/db';
import { AppError } from '../../lib/app-error';

/**
 * Per-account (per-key) throttling stored in the database so it holds across replicas.
 * Per-IP limits are @fastify/rate-limit's, set per route.
 *  - at most 20 attempts per 5 minutes per key (issue #2);
 *  - 10 consecutive failures lock the key for 15 minutes.
 */
export const ACCOUNT_WINDOW_MS = 5 * 60 * 1000;
export const ACCOUNT_MAX_ATTEMPTS = 20;
export const LOCK_AFTER_FAILURES = 10;
export const LOCK_MS = 15 * 60 * 1000;

export function throttleKey(kind: 'sign_in' | 'two_factor' | 'reset', ...parts: string[]): string {
  return [kind, ...parts.map((p) => p.toLowerCase())].join(':');
}

/** Throws 429 (too many attempts in the window) or 423 (locked) before an attempt is checked. */
export async function assertNotThrottled(db: TDatabase, key: string, now: Date): Promise<void> {
  const [row] = await db.select().from(authThrottle).where(eq(authThrottle.key, key)).limit(1);
  if (!row) return;
  if (row.lockedUntil && row.lockedUntil > now) {
    throw new AppError('locked', MESSAGES.accountLocked, { retryAfterSeconds: Math.ceil((row.lockedUntil.getTime() - now.getTime()) / 1000) });
  }
  const windowOpen = now.getTime() - row.windowStartedAt.getTime() < ACCOUNT_WINDOW_MS;
  if (windowOpen && row.count >= ACCOUNT_MAX_ATTEMPTS) {
    throw new AppError('rate_limited', MESSAGES.tooManyRequests, {
      retryAfterSeconds: Math.ceil((row.windowStartedAt.getTime() + ACCOUNT_WINDOW_MS - now.getTime()) / 1000),
    });
  }
}

/** Adds one to a key's count in the current window; a key reaching `lockAfter` is locked for 15 minutes. */
async function countInWindow(db: TDatabase, key: string, now: Date, lockAfter: number | null): Promise<boolean> {
  const [row] = await db.select().from(authThrottle).where(eq(authThrottle.key, key)).limit(1);
  const windowOpen = row !== undefined && now.getTime() - row.windowStartedAt.getTime() < ACCOUNT_WINDOW_MS;
  const count = windowOpen ? row.count + 1 : 1;
  const windowStartedAt = windowOpen ? row.windowStartedAt : now;
  const lockedUntil = lockAfter !== null && count >= lockAfter ? new Date(now.getTime() + LOCK_MS) : null;
  await db
    .insert(authThrottle)
    .values({ key, count, windowStartedAt, lockedUntil })
    .onConflictDoUpdate({ target: authThrottle.key, set: { count, windowStartedAt, lockedUntil } });
  return lockedUntil !== null;
}

/** Records a failed attempt; returns true when this failure locked the key. */
export async function recordFailure(db: TDatabase, key: string, now: Date): Promise<boolean> {
  return countInWindow(db, key, now, LOCK_AFTER_FAILURES);
}

/**
 * Counts any attempt, successful or not, against the key's 20-per-5-minutes budget without ever
 * locking; use a key of its own (`attemptKey`) so successes do not clear it.
 */
async function recordAttempt(db: TDatabase, key: string, now: Date): Promise<void> {
  await countInWindow(db, key, now, null);
}

/** The key that budgets all attempts on an account, beside the failure key that locks it. */
const attemptKey = (failureKey: string): string => `${failureKey}:attempts`;

/** A success clears the key's failures. */
export async function recordSuccess(db: TDatabase, key: string): Promise<void> {
  await db.delete(authThrottle).where(eq(authThrottle.key, key));
}

/** Enforces and spends one of the account's 20 attempts per 5 minutes (issue #2 §3), successes included. */
export async function spendAttempt(db: TDatabase, failureKey: string, now: Date): Promise<void> {
  const key = attemptKey(failureKey);
  await assertNotThrottled(db, key, now);
  await recordAttempt(db, key, now);
}
