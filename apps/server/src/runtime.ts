import { openDatabase, type TDatabaseHandle } from '@switchboard/db';
import type { TConfig } from './config/env';
import type { TAppDeps } from './app-deps';
import { createMailer } from './lib/mailer';
import { createAuditLog } from './lib/audit';

/** Production wiring of the app's dependencies from configuration. */
export async function createRuntimeDeps(config: TConfig, database?: TDatabaseHandle): Promise<TAppDeps> {
  const handle = database ?? (await openDatabase(config.database.kind === 'postgres' ? { kind: 'postgres', url: config.database.url } : { kind: 'pglite', dataDir: config.database.dataDir }));
  return {
    config,
    database: handle,
    mailer: createMailer({ db: handle.db, smtpUrl: config.smtpUrl, from: config.mailFrom, keepCopies: !config.isProduction }),
    audit: createAuditLog(),
    now: () => new Date(),
  };
}
