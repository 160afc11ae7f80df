import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { SQL } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { MIGRATIONS_FOLDER } from '../src/client';
import { createScratchDatabase } from '../src/scratch-database';

/**
 * An empty database for one test, not yet migrated: PGlite in memory, or a fresh database on the
 * PostgreSQL server named by TEST_DATABASE_URL (scripts/test.mjs runs the api project both ways).
 */
export interface TBareDatabase {
  kind: 'pglite' | 'postgres';
  /** Runs one statement and answers its rows. */
  query<TRow>(statement: SQL): Promise<TRow[]>;
  /** Applies the committed migrations, all of them or only the first `count`. */
  migrate(count?: number): Promise<void>;
  close(): Promise<void>;
}

/** A copy of the migrations folder whose journal lists only the first `count` migrations. */
function migrationsUpTo(count: number): { folder: string; remove: () => void } {
  const folder = mkdtempSync(join(tmpdir(), 'sb-migrations-'));
  cpSync(MIGRATIONS_FOLDER, folder, { recursive: true });
  const journalPath = join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: unknown[] };
  writeFileSync(journalPath, JSON.stringify({ ...journal, entries: journal.entries.slice(0, count) }));
  return { folder, remove: () => rmSync(folder, { recursive: true, force: true }) };
}

async function withMigrations(count: number | undefined, apply: (folder: string) => Promise<void>): Promise<void> {
  if (count === undefined) return apply(MIGRATIONS_FOLDER);
  const partial = migrationsUpTo(count);
  try {
    await apply(partial.folder);
  } finally {
    partial.remove();
  }
}

export async function openBareDatabase(): Promise<TBareDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const client = new PGlite({ extensions: { pg_trgm, btree_gin } });
    const db = drizzlePglite({ client });
    return {
      kind: 'pglite',
      query: async <TRow>(statement: SQL) => (await db.execute(statement)).rows as TRow[],
      migrate: (count) => withMigrations(count, (migrationsFolder) => migratePglite(db, { migrationsFolder })),
      close: () => client.close(),
    };
  }
  const scratch = await createScratchDatabase(serverUrl, 'sb_dbtest');
  const pool = new pg.Pool({ connectionString: scratch.url, max: 2 });
  // `pool.end()` resolves once it has asked its connections to close, not once they have: the drop below (WITH FORCE)
  // can still terminate one, and an idle connection's error with no listener is an uncaught exception (it failed a CI run).
  pool.on('error', () => undefined);
  const db = drizzlePg({ client: pool });
  return {
    kind: 'postgres',
    query: async <TRow>(statement: SQL) => (await db.execute(statement)).rows as TRow[],
    migrate: (count) => withMigrations(count, (migrationsFolder) => migratePg(db, { migrationsFolder })),
    close: async () => {
      await pool.end();
      await scratch.drop();
    },
  };
}
