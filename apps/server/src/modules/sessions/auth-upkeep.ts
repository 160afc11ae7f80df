import { and, isNotNull, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { authThrottle, outboxMail, sessions, verificationCodes, type TDatabase } from '@switchboard/db';
import type { TModule } from '../../app-deps';
import { createIntervalLoop } from '../../lib/interval-loop';
import { ACCOUNT_WINDOW_MS } from './throttle.service';

/** How often each process runs the pass (the first one this long after start). */
export const AUTH_UPKEEP_INTERVAL_MS = 60 * 60 * 1000;
/** A session is deleted this long after it expired (a day of rows to look at when someone asks why they were signed out). */
export const EXPIRED_SESSION_GRACE_MS = 24 * 60 * 60 * 1000;
/** A one-time code (sign-in, reset, invitation) is deleted this long after it was used or expired. */
export const SPENT_CODE_GRACE_MS = 24 * 60 * 60 * 1000;
/** Outbox mail (the dev outbox, and the copies of sent mail kept outside production) is deleted at this age. */
export const OUTBOX_MAIL_KEEP_MS = 30 * 24 * 60 * 60 * 1000;
/** Rows deleted per statement, so a large backlog never holds long locks. */
const PURGE_BATCH = 1_000;

export interface TAuthUpkeepResult {
  sessions: number;
  verificationCodes: number;
  authThrottle: number;
  outboxMail: number;
}

/**
 * Deletes, in batches, the rows of `table` that `isPurgeable` picks. Rows another replica's pass holds are skipped
 * (SKIP LOCKED), and a row deleted twice is gone once, so replicas may run passes side by side.
 */
async function deleteInBatches(db: TDatabase, table: PgTable, isPurgeable: SQL, signal: AbortSignal | undefined): Promise<number> {
  let deleted = 0;
  while (!signal?.aborted) {
    const batch = db.select({ ctid: sql`ctid` }).from(table).where(isPurgeable).limit(PURGE_BATCH).for('update', { skipLocked: true });
    const rows = await db
      .delete(table)
      .where(sql`ctid = any(array(${batch}))`)
      .returning({ one: sql<number>`1` });
    deleted += rows.length;
    if (rows.length < PURGE_BATCH) break;
  }
  return deleted;
}

/**
 * One upkeep pass over the auth tables: sessions expired more than a day ago, one-time codes used or expired more
 * than a day ago, throttle rows whose window and lock have both passed (the throttle treats a missing row and such a
 * row alike), and outbox mail older than 30 days. Audit events are a record and are never deleted here.
 */
export async function purgeExpiredAuthRows(db: TDatabase, now: Date, signal?: AbortSignal): Promise<TAuthUpkeepResult> {
  const before = (ms: number) => new Date(now.getTime() - ms);
  return {
    sessions: await deleteInBatches(db, sessions, lt(sessions.expiresAt, before(EXPIRED_SESSION_GRACE_MS)), signal),
    verificationCodes: await deleteInBatches(
      db,
      verificationCodes,
      or(lt(verificationCodes.expiresAt, before(SPENT_CODE_GRACE_MS)), and(isNotNull(verificationCodes.consumedAt), lt(verificationCodes.consumedAt, before(SPENT_CODE_GRACE_MS)))) ?? sql`false`,
      signal,
    ),
    authThrottle: await deleteInBatches(db, authThrottle, and(lt(authThrottle.windowStartedAt, before(ACCOUNT_WINDOW_MS)), or(isNull(authThrottle.lockedUntil), lt(authThrottle.lockedUntil, now))) ?? sql`false`, signal),
    outboxMail: await deleteInBatches(db, outboxMail, lt(outboxMail.createdAt, before(OUTBOX_MAIL_KEEP_MS)), signal),
  };
}

/** Every process runs the pass hourly from start; with several replicas the passes overlap harmlessly (see deleteInBatches). */
export const registerAuthUpkeep: TModule = (app, deps) => {
  const loop = createIntervalLoop({
    intervalMs: AUTH_UPKEEP_INTERVAL_MS,
    run: (signal) => purgeExpiredAuthRows(deps.database.db, deps.now(), signal),
    onError: (error) => app.log.warn({ err: error }, 'auth upkeep: purging expired sessions, codes and throttle rows failed'),
  });
  app.addHook('onReady', async () => loop.start());
  app.addHook('onClose', async () => loop.stop());
};
