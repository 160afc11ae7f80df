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
    throw new AppError('locked', 423, MESSAGES.accountLocked, { retryAfterSeconds: Math.ceil((row.lockedUntil.getTime() - now.getTime()) / 1000) });
  }
  const windowOpen = now.getTime() - row.windowStartedAt.getTime() < ACCOUNT_WINDOW_MS;
  if (windowOpen && row.count >= ACCOUNT_MAX_ATTEMPTS) {
    throw new AppError('rate_limited', 429, MESSAGES.tooManyRequests, {
      retryAfterSeconds: Math.ceil((row.windowStartedAt.getTime() + ACCOUNT_WINDOW_MS - now.getTime()) / 1000),
    });
  }
}

/** Records a failed attempt; returns true when this failure locked the key. */
export async function recordFailure(db: TDatabase, key: string, now: Date): Promise<boolean> {
  const [row] = await db.select().from(authThrottle).where(eq(authThrottle.key, key)).limit(1);
  const windowOpen = row !== undefined && now.getTime() - row.windowStartedAt.getTime() < ACCOUNT_WINDOW_MS;
  const count = windowOpen ? row.count + 1 : 1;
  const lockedUntil = count >= LOCK_AFTER_FAILURES ? new Date(now.getTime() + LOCK_MS) : null;
  await db
    .insert(authThrottle)
    .values({ key, count, windowStartedAt: windowOpen ? row.windowStartedAt : now, lockedUntil })
    .onConflictDoUpdate({
      target: authThrottle.key,
      set: { count, windowStartedAt: windowOpen ? row.windowStartedAt : now, lockedUntil },
    });
  return lockedUntil !== null;
}

/** A success clears the key's failures. */
export async function recordSuccess(db: TDatabase, key: string): Promise<void> {
  await db.delete(authThrottle).where(eq(authThrottle.key, key));
}
