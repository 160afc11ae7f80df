import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { openDatabase, type TDatabaseHandle } from '@switchboard/db';
import { createScratchDatabase } from '@switchboard/db/scratch-database';
import { buildApp } from '../apps/server/src/app';
import type { TAppDeps } from '../apps/server/src/app-deps';
import { loadConfig } from '../apps/server/src/config/env';
import { createRuntimeDeps } from '../apps/server/src/runtime';

// The server side every bench shares: a database of its own on a PostgreSQL server, the app on the
// bench configuration beside a bare Fastify route doing SELECT 1 on the same pool (the yardstick),
// and the IPC between the load generator (parent) and the server (forked child).

/** A fresh database on the server at `serverUrl`, and how to drop it. */
export const createBenchDatabase = createScratchDatabase;

/** The next IPC message of this kind from the bench server; rejects when it exits first. */
export function nextMessage<T extends { kind: string }>(child: ChildProcess, kind: T['kind']): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: unknown) => {
      if (typeof message === 'object' && message !== null && (message as { kind?: unknown }).kind === kind) {
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(message as T);
      }
    };
    const onExit = (code: number | null) => reject(new Error(`the bench server exited (code ${String(code)}) before answering`));
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

export interface TBenchRuntime {
  database: TDatabaseHandle;
  /** Starts the app and the bare SELECT 1 route on free ports; `close` stops both, the database and the data folder. */
  listen: () => Promise<{ appUrl: string; bareUrl: string; close: () => Promise<void> }>;
}

/**
 * The app's runtime dependencies on the bench configuration (`env` adds to it), on the database at `databaseUrl`;
 * `jobs` tunes the job queue as the test app can (e.g. a shorter polling interval).
 */
export async function openBenchRuntime(databaseUrl: string, dataPrefix: string, env: Record<string, string | undefined> = {}, jobs?: TAppDeps['jobs']): Promise<TBenchRuntime> {
  const dataDir = mkdtempSync(join(tmpdir(), dataPrefix));
  const config = loadConfig({
    NODE_ENV: 'development',
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    SESSION_SECRET: 'bench-7Hq2xZ9pLk4mW8rT3vN6yB1cF5gJ0sD',
    ENCRYPTION_KEY: '5a'.repeat(16) + '3c'.repeat(16),
    LOG_LEVEL: 'silent',
    // The flood guard still runs on every request (its cost is measured) but does not reject: one
    // session sending thousands of requests a second is the load itself, not an attack.
    RATE_LIMIT_PER_MINUTE: '100000000',
    ...env,
  });
  const database = await openDatabase({ kind: 'postgres', url: databaseUrl, maxConnections: 10 });
  const deps = await createRuntimeDeps(config, { database, jobs });
  return {
    database,
    listen: async () => {
      const app = await buildApp(deps);
      await app.listen({ port: 0, host: '127.0.0.1' });
      // The yardstick: a bare Fastify route doing SELECT 1 on the same pool.
      const bare = Fastify();
      bare.get('/select1', async () => {
        await database.ping();
        return { ok: true };
      });
      await bare.listen({ port: 0, host: '127.0.0.1' });
      const urlOf = (address: ReturnType<typeof app.server.address>) => (typeof address === 'object' && address ? `http://127.0.0.1:${address.port}` : '');
      return {
        appUrl: urlOf(app.server.address()),
        bareUrl: urlOf(bare.server.address()),
        close: async () => {
          await app.close();
          await bare.close();
          await database.close();
          rmSync(dataDir, { recursive: true, force: true });
        },
      };
    },
  };
}
