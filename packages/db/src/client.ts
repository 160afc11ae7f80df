import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
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
  /**
   * Raw SQL for a library that keeps its own schema (pg-boss, docs/decisions/014): parameterised when `values` are
   * given, else one or more statements run as a script. Product data never goes through here (Drizzle only).
   */
  executeSql(text: string, values?: readonly unknown[]): Promise<{ rows: unknown[] }>;
  /**
   * Whether pgvector is there (decision 026): always on PGlite, on PostgreSQL when the `vector`
   * extension is installed on the server. Without it Jarvis searches by words alone.
   */
  vectorSearch: { isAvailable: true } | { isAvailable: false; reason: string };
}

/**
 * Turns pgvector on when the server has it. Not a migration: the extension is a server package
 * that may be missing (Debian bookworm has none), and the same migrations must run everywhere.
 */
async function enableVectorSearch(query: (text: string) => Promise<unknown>): Promise<TDatabaseHandle['vectorSearch']> {
  try {
    await query('create extension if not exists vector');
  } catch (error) {
    // A replica that raced another one to create it finds it there; anything else means no pgvector.
    try {
      await query(`select '[1]'::vector`);
    } catch {
      return { isAvailable: false, reason: describeError(error) };
    }
  }
  return { isAvailable: true };
}

const here = dirname(fileURLToPath(import.meta.url));
/**
 * The committed SQL: beside the module in the production bundle (the build copies it to
 * apps/server/dist/drizzle), else packages/db/drizzle when running from source.
 */
export const MIGRATIONS_FOLDER = existsSync(join(here, 'drizzle', 'meta', '_journal.json')) ? join(here, 'drizzle') : join(here, '..', 'drizzle');

export type TDatabaseOptions =
  | {
      kind: 'postgres';
      url: string;
      maxConnections?: number;
      onIdleConnectionError?: (error: Error) => void;
      /** How long to keep retrying an unreachable server at start-up (default 60 s; 0 = one try). */
      connectTimeoutMs?: number;
      /** Told about each failed attempt before the next one (start-up logs). */
      onConnectRetry?: (attempt: number, error: Error, delayMs: number) => void;
    }
  | {
      kind: 'pglite';
      dataDir?: string;
      /**
       * A data directory to start from (PGlite's dumpDataDir of a migrated database): the API tests open one
       * database per test file, and starting from a migrated copy skips initdb and the migrations' SQL.
       */
      loadDataDir?: Blob;
    };

/**
 * The database could not be reached or migrated at start-up. `message` is one readable line
 * without the connection's password, for the entry points to print before exiting.
 */
export class DatabaseStartupError extends Error {}

/**
 * Advisory-lock key every Switchboard process takes while migrating, so replicas starting together
 * on an empty database migrate one after the other (the second finds nothing left to do).
 * Arbitrary but fixed: the first 8 bytes of sha256('switchboard:migrations') as a signed bigint.
 */
export const MIGRATION_LOCK_KEY = 318_885_904_073_448_106n;

/** Errors that mean "not reachable yet" (starting, restarting, failing over), worth retrying. */
const TRANSIENT_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', '57P03', '53300']);

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}

function describeError(error: unknown): string {
  const code = errorCode(error);
  const message = error instanceof Error ? error.message.split('\n')[0] ?? '' : String(error);
  return code && !message.includes(code) ? `${message} (${code})` : message;
}

/** host:port/database of a connection URL, never its user or password. */
export function describeDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname}`;
  } catch {
    return 'the configured DATABASE_URL';
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Connects with exponential backoff (0.25 s doubling to 5 s) until the deadline; then one readable error. */
async function connectWithRetry(pool: pg.Pool, url: string, timeoutMs: number, onRetry?: (attempt: number, error: Error, delayMs: number) => void): Promise<pg.PoolClient> {
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await pool.connect();
    } catch (error) {
      const isTransient = TRANSIENT_CODES.has(errorCode(error) ?? '');
      const delayMs = Math.min(250 * 2 ** (attempt - 1), 5_000);
      if (!isTransient || Date.now() + delayMs > deadline) {
        const waited = isTransient ? ` after ${attempt} attempt${attempt === 1 ? '' : 's'} over ${Math.round(timeoutMs / 1000)} s` : '';
        throw new DatabaseStartupError(`database: cannot connect to ${describeDatabaseUrl(url)}${waited}: ${describeError(error)}`);
      }
      onRetry?.(attempt, error instanceof Error ? error : new Error(String(error)), delayMs);
      await sleep(delayMs);
    }
  }
}

/**
 * Applies the committed migrations on PostgreSQL under a session-level advisory lock, on one
 * dedicated connection (the lock belongs to the connection that took it).
 */
async function migrateUnderLock(client: pg.PoolClient, url: string): Promise<void> {
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY.toString()]);
    try {
      await migratePg(drizzlePg({ client }), { migrationsFolder: MIGRATIONS_FOLDER });
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY.toString()]);
    }
  } catch (error) {
    const cause = error instanceof Error && error.cause !== undefined ? error.cause : error;
    throw new DatabaseStartupError(`database: migrating ${describeDatabaseUrl(url)} failed: ${describeError(cause)}`);
  }
}

function reportIdleConnectionError(error: Error): void {
  process.stderr.write(`database: an idle connection was closed by the server (${error.message}); it will be replaced\n`);
}

/**
 * Opens the database and applies the committed migrations (the same SQL on PGlite and PostgreSQL).
 * On PostgreSQL it waits for an unreachable server (bounded) and migrates under an advisory lock;
 * failures are DatabaseStartupError with a one-line message.
 */
export async function openDatabase(options: TDatabaseOptions): Promise<TDatabaseHandle> {
  if (options.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: options.url, max: options.maxConnections ?? 10 });
    // An idle pooled connection the server ends (restart, failover, admin termination) emits 'error';
    // unhandled, that would crash the process. The pool replaces the connection on next use.
    pool.on('error', (error) => (options.onIdleConnectionError ?? reportIdleConnectionError)(error));
    const db = drizzlePg({ client: pool, schema }) as unknown as TDatabase;
    let vectorSearch: TDatabaseHandle['vectorSearch'] = { isAvailable: false, reason: 'not checked' };
    try {
      const client = await connectWithRetry(pool, options.url, options.connectTimeoutMs ?? 60_000, options.onConnectRetry);
      try {
        await migrateUnderLock(client, options.url);
        vectorSearch = await enableVectorSearch((text) => client.query(text));
      } finally {
        client.release();
      }
    } catch (error) {
      await pool.end();
      throw error;
    }
    return {
      db,
      kind: 'postgres',
      vectorSearch,
      ping: async () => void (await pool.query('select 1')),
      executeSql: async (text, values) => ({ rows: (await pool.query(text, values ? [...values] : undefined)).rows as unknown[] }),
      close: () => pool.end(),
    };
  }
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const client = new PGlite({ ...(options.dataDir ? { dataDir: options.dataDir } : {}), ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}), extensions: { pg_trgm, btree_gin, vector } });
  const pgliteDb = drizzlePglite({ client, schema });
  await migratePglite(pgliteDb, { migrationsFolder: MIGRATIONS_FOLDER });
  const vectorSearch = await enableVectorSearch((text) => client.exec(text));
  return {
    db: pgliteDb as unknown as TDatabase,
    kind: 'pglite',
    vectorSearch,
    pglite: client,
    ping: async () => void (await client.query('select 1')),
    // PGlite prepares parameterised statements, which hold one command; a script of several goes through exec.
    executeSql: async (text, values) =>
      values && values.length > 0 ? { rows: (await client.query(text, [...values])).rows } : { rows: (await client.exec(text)).at(-1)?.rows ?? [] },
    close: () => client.close(),
  };
}
