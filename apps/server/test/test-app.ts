import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { CSRF_HEADER, SESSION_COOKIE } from '@switchboard/contracts';
import { openDatabase, type TDatabaseHandle } from '@switchboard/db';
import type { TAppDeps, TApp } from '../src/app-deps';
import { buildApp, type TBuildOptions } from '../src/app';
import { loadConfig, type TConfig } from '../src/config/env';
import { createMailer } from '../src/lib/mailer';
import { createAuditLog } from '../src/lib/audit';
import { createLifecycle } from '../src/lib/lifecycle';
import { createFileStore } from '../src/lib/file-store';
import { createAppCaches } from '../src/app-caches';
import { createAppJobQueue } from '../src/app-job-queue';
import { createPsaClientProvider } from '../src/modules/integrations/psa-client-for-msp';

/**
 * A real app on a real database for one test file: PGlite in memory by default, or a fresh
 * database on the PostgreSQL server named by TEST_DATABASE_URL (scripts/test.mjs runs both).
 */
export interface TTestApp {
  app: TApp;
  deps: TAppDeps;
  /** Advances the app's clock (codes, sessions and locks expire by it). */
  advanceClock(ms: number): void;
  close(): Promise<void>;
}

/**
 * A migrated, empty PGlite database, dumped once per worker process (the API tests share a worker's module
 * cache, vitest.config.ts): each test file's database starts from it, not from initdb and every migration.
 */
let migratedPglite: Promise<Blob> | undefined;
function migratedPgliteSnapshot(): Promise<Blob> {
  migratedPglite ??= (async () => {
    const handle = await openDatabase({ kind: 'pglite' });
    try {
      if (!handle.pglite) throw new Error('a PGlite database has its PGlite instance');
      return await handle.pglite.dumpDataDir('none');
    } finally {
      await handle.close();
    }
  })();
  return migratedPglite;
}

async function openTestDatabase(): Promise<TDatabaseHandle> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) return openDatabase({ kind: 'pglite', loadDataDir: await migratedPgliteSnapshot() });
  // Loaded only here, so a PGlite run never loads pg.
  const { createScratchDatabase } = await import('@switchboard/db/scratch-database');
  // Inside vitest, the API suite's migrated template (api-global-setup.ts); a bench run migrates its own database.
  const template = process.env.VITEST ? (await import('vitest')).inject('postgresTemplate') : null;
  const scratch = await createScratchDatabase(serverUrl, 'sb_test', template ? { template } : {});
  const handle = await openDatabase({ kind: 'postgres', url: scratch.url, maxConnections: 4 });
  return {
    ...handle,
    close: async () => {
      await handle.close();
      await scratch.drop();
    },
  };
}

/** Swapped dependencies; `config` is merged over the test configuration (e.g. `{ oidc, publicUrl }`). */
export type TTestAppOverrides = Partial<Omit<TAppDeps, 'config'>> & { config?: Partial<TConfig> };

/** `buildOptions` serves a web build (`webDist`) for the static-file and SPA-shell tests. */
export async function createTestApp(overrides: TTestAppOverrides = {}, buildOptions: TBuildOptions = {}): Promise<TTestApp> {
  const database = await openTestDatabase();
  let offset = 0;
  const now = () => new Date(Date.now() + offset);
  const { config: configOverrides, ...depOverrides } = overrides;
  const config: TConfig = {
    ...loadConfig({ NODE_ENV: 'test', DATA_DIR: '.data/test', SESSION_SECRET: 'x'.repeat(8) + 'test-session-secret-0123456789abcdef', ENCRYPTION_KEY: '0f'.repeat(32), PSA_OUTBOX_INTERVAL_MS: '0', PSA_RECONCILE_INTERVAL_MS: '0', SLA_SWEEP_INTERVAL_MS: '0', PSA_NOTES_READS_PER_MINUTE: '0', EMAIL_CONNECTOR_INTERVAL_MS: '0' }),
    ...configOverrides,
  };
  const { psaClients, caches, jobQueue, ...otherOverrides } = depOverrides;
  const base = {
    config,
    database,
    mailer: createMailer({ db: database.db, smtpUrl: undefined, from: 'test@switchboard.local', keepCopies: true }),
    audit: createAuditLog(),
    now,
    lifecycle: createLifecycle(),
    files: createFileStore(config.uploads),
    ...otherOverrides,
  };
  // Built from the final clock and database, so an overridden `now` also ages the caches and the client cache, and
  // overridden `jobs` timings reach the job queue.
  const deps: TAppDeps = {
    ...base,
    caches: caches ?? createAppCaches(config, base.now),
    psaClients: psaClients ?? createPsaClientProvider(base),
    jobQueue: jobQueue ?? createAppJobQueue(base),
  };
  const app = await buildApp(deps, buildOptions);
  await app.ready();
  return {
    app,
    deps,
    advanceClock: (ms) => {
      offset += ms;
    },
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}

/**
 * A second app on the same database and clock with caches and a job queue of its own, as another
 * replica of the server would be. The caller closes it before `t.close()`.
 */
export async function createReplicaApp(t: TTestApp): Promise<TApp> {
  const app = await buildApp({ ...t.deps, caches: createAppCaches(t.deps.config, t.deps.now), jobQueue: createAppJobQueue(t.deps) });
  await app.ready();
  return app;
}

/** A browser-like client: keeps the session cookie and sends the CSRF header like the SPA does. */
export class TestClient {
  private cookie: string | undefined;
  constructor(
    private readonly app: TApp,
    readonly ip = '127.0.0.1',
  ) {}

  get sessionCookie(): string | undefined {
    return this.cookie;
  }

  /** Starts from an existing session token, as a browser holding the cookie would. */
  useSession(token: string | undefined): void {
    this.cookie = token;
  }

  async request(options: InjectOptions & { csrf?: boolean }): Promise<LightMyRequestResponse> {
    const { csrf = true, headers = {}, ...rest } = options;
    const response = await this.app.inject({
      remoteAddress: this.ip,
      ...rest,
      headers: {
        ...(csrf ? { [CSRF_HEADER]: '1' } : {}),
        ...(this.cookie ? { cookie: `${SESSION_COOKIE}=${this.cookie}` } : {}),
        ...headers,
      },
    });
    const setCookie = response.cookies.find((c) => c.name === SESSION_COOKIE);
    if (setCookie) this.cookie = setCookie.value === '' || (setCookie.maxAge !== undefined && setCookie.maxAge <= 0) ? undefined : setCookie.value;
    return response;
  }

  get(url: string, options: Omit<InjectOptions & { csrf?: boolean }, 'url' | 'method'> = {}) {
    return this.request({ ...options, method: 'GET', url });
  }
  post(url: string, payload?: unknown, options: Omit<InjectOptions & { csrf?: boolean }, 'url' | 'method' | 'payload'> = {}) {
    return this.request({ ...options, method: 'POST', url, ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }) });
  }
  put(url: string, payload?: unknown, options: Omit<InjectOptions & { csrf?: boolean }, 'url' | 'method' | 'payload'> = {}) {
    return this.request({ ...options, method: 'PUT', url, ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }) });
  }
  delete(url: string, options: Omit<InjectOptions & { csrf?: boolean }, 'url' | 'method'> = {}) {
    return this.request({ ...options, method: 'DELETE', url });
  }
}
