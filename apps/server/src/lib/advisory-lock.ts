import { sql } from 'drizzle-orm';
import type { TDatabase } from '@switchboard/db';

/**
 * Takes a transaction-level advisory lock named by `purpose` and the MSP, held until the caller's transaction ends: two
 * transactions of one MSP taking the same lock run one after the other (PostgreSQL; PGlite serialises them anyway).
 */
export async function lockForMsp(tx: TDatabase, purpose: string, mspId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`${purpose}:${mspId}`}))`);
}
