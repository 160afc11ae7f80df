import { DatabaseStartupError, describeDatabaseUrl, openDatabase } from '@switchboard/db';
import { ConfigError, loadDatabaseConfig } from './config/env';

/**
 * `npm run db:migrate`: applies the committed migrations to DATABASE_URL once and exits, for deploys
 * that migrate before rolling the servers (servers also migrate at start, under the same lock).
 */
async function migrate(): Promise<void> {
  try {
    const config = loadDatabaseConfig();
    const started = Date.now();
    const database = await openDatabase({ kind: 'postgres', url: config.url, connectTimeoutMs: config.connectTimeoutMs, maxConnections: 1 });
    await database.close();
    console.log(`database: ${describeDatabaseUrl(config.url)} is migrated (${Date.now() - started} ms)`);
  } catch (error) {
    if (error instanceof ConfigError || error instanceof DatabaseStartupError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

void migrate();
