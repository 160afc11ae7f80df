import { openDatabase, type TDatabaseHandle } from '@switchboard/db';
import type { TConfig } from './config/env';
import type { TAppDeps } from './app-deps';
import { createMailer } from './lib/mailer';
import { createAuditLog } from './lib/audit';
import { createLifecycle } from './lib/lifecycle';
import { createFileStore } from './lib/file-store';
import { createAppCaches } from './app-caches';
import { createAppJobQueue } from './app-job-queue';
import { createPsaClientProvider } from './modules/integrations/psa-client-for-msp';

export interface TRuntimeOptions {
  /** An open database (print-openapi, the benches); otherwise the configured one is opened. */
  database?: TDatabaseHandle;
  /** Job timings (the benches shorten the polling); the defaults suit production. */
  jobs?: TAppDeps['jobs'];
}

/** Production wiring of the app's dependencies from configuration. */
export async function createRuntimeDeps(config: TConfig, options: TRuntimeOptions = {}): Promise<TAppDeps> {
  const handle =
    options.database ??
    (await openDatabase(
      config.database.kind === 'postgres'
        ? {
            kind: 'postgres',
            url: config.database.url,
            connectTimeoutMs: config.databaseConnectTimeoutMs,
            onConnectRetry: (attempt, error, delayMs) =>
              process.stderr.write(`database: not reachable yet (attempt ${attempt}: ${error.message.split('\n')[0] ?? ''}); retrying in ${(delayMs / 1000).toFixed(1)} s\n`),
          }
        : { kind: 'pglite', dataDir: config.database.dataDir },
    ));
  const now = () => new Date();
  return {
    config,
    database: handle,
    mailer: createMailer({ db: handle.db, smtpUrl: config.smtpUrl, from: config.mailFrom, keepCopies: !config.isProduction }),
    audit: createAuditLog(),
    now,
    lifecycle: createLifecycle(),
    caches: createAppCaches(config, now),
    files: createFileStore(config.uploads),
    psaClients: createPsaClientProvider({ config, database: handle, now }),
    jobs: options.jobs,
    jobQueue: createAppJobQueue({ database: handle, config, jobs: options.jobs }),
  };
}
