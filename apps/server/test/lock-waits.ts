import { sql } from 'drizzle-orm';
import type { TTestApp } from './test-app';

/** Whether the suite runs on PostgreSQL (TEST_DATABASE_URL); concurrency tests need real connections. */
export const isPostgresRun = (process.env.TEST_DATABASE_URL ?? '') !== '';

/**
 * Resolves once some connection of the test database waits on a lock (PostgreSQL only), so a test
 * holding a transaction open knows the request it started has reached the row it holds.
 */
export async function waitForLockWaiter(t: TTestApp): Promise<void> {
  for (let tries = 0; tries < 300; tries += 1) {
    // node-postgres answers { rows }.
    const result: unknown = await t.deps.database.db.execute(sql`select count(*)::int as count from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`);
    if (((result as { rows: Array<{ count: number }> }).rows[0]?.count ?? 0) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('No request came to wait on the held lock within 3 seconds');
}
