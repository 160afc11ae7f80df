import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema/index';

export type TSchema = typeof schema;
/** One type for both drivers: services never know which database they run on. */
export type TDatabase = PgDatabase<PgQueryResultHKT, TSchema>;

export interface TDatabaseHandle {
  db: TDatabase;
  kind: 'pglite' | 'postgres';
  /** Runs a raw SQL statement (readiness probe, test resets). */
  ping(): Promise<void>;
  close(): Promise<void>;
  /** The PGlite instance, for pg-boss's PGlite backend; undefined on PostgreSQL. */
  pglite?: PGlite;
}

export const MIGRATIONS_FOLDER = join(dirname(fileURLToPath(import.meta.url)), '..', 'drizzle');

export type TDatabaseOptions =
  | { kind: 'postgres'; url: string; maxConnections?: number; onIdleConnectionError?: (error: Error) => void }
  | { kind: 'pglite'; dataDir?: string };

function reportIdleConnectionError(error: Error): void {
  process.stderr.write(`database: an idle connection was closed by the server (${error.message}); it will be replaced\n`);
}

/** Opens the database and applies the committed migrations (the same SQL on PGlite and PostgreSQL). */
export async function openDatabase(options: TDatabaseOptions): Promise<TDatabaseHandle> {
  if (options.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: options.url, max: options.maxConnections ?? 10 });
    // An idle pooled connection the server ends (restart, failover, admin termination) emits 'error';
    // unhandled, that would crash the process. The pool replaces the connection on next use.
    pool.on('error', (error) => (options.onIdleConnectionError ?? reportIdleConnectionError)(error));
    const db = drizzlePg({ client: pool, schema }) as unknown as TDatabase;
    await migratePg(drizzlePg({ client: pool, schema }), { migrationsFolder: MIGRATIONS_FOLDER });
    return {
      db,
      kind: 'postgres',
      ping: async () => void (await pool.query('select 1')),
      close: () => pool.end(),
    };
  }
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const client = new PGlite({ ...(options.dataDir ? { dataDir: options.dataDir } : {}), extensions: { pg_trgm } });
  const pgliteDb = drizzlePglite({ client, schema });
  await migratePglite(pgliteDb, { migrationsFolder: MIGRATIONS_FOLDER });
  return {
    db: pgliteDb as unknown as TDatabase,
    kind: 'pglite',
    pglite: client,
    ping: async () => void (await client.query('select 1')),
    close: () => client.close(),
  };
}
