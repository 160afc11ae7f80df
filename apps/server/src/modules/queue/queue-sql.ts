import type { SQL } from 'drizzle-orm';
import type { TDatabase } from '@switchboard/db';

/**
 * Queue SQL (issue #10). Raw SQL where the claim must be one statement (FOR UPDATE SKIP LOCKED in a
 * data-modifying CTE) and where set-based work (refresh, release) is cheaper than row-by-row.
 * Every statement is scoped by msp_id first. The statements live in the queue-*.repository.ts files by what they do
 * (claims, upkeep, listings, tickets, events, settings) and dispatch.repository.ts; this module holds what they share.
 */

export type TRow = Record<string, unknown>;
export async function rowsOf(db: TDatabase, query: SQL): Promise<TRow[]> {
  // node-postgres and PGlite both answer { rows }.
  const result: unknown = await db.execute<TRow>(query);
  return (result as { rows: TRow[] }).rows;
}
export const iso = (date: Date) => date.toISOString();
/** A PostgreSQL array literal of uuids or integers (values validated before: zod uuids, ids read from the database, numbers). */
export const arrayLiteral = (values: (string | number)[]) => `{${values.join(',')}}`;

export const asDate = (value: unknown): Date | null => (value instanceof Date ? value : typeof value === 'string' || typeof value === 'number' ? new Date(value) : null);
export const asText = (value: unknown): string | null => (typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean' ? String(value) : null);
