import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig } from './config/env';
import { buildApp } from './app';
import { createRuntimeDeps } from './runtime';

const here = dirname(fileURLToPath(import.meta.url));

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const deps = await createRuntimeDeps(config);
  const app = await buildApp(deps, { webDist: join(here, '..', '..', 'web', 'dist'), logger: true });
  const shutdown = async () => {
    await app.close();
    await deps.database.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown());
  process.once('SIGTERM', () => void shutdown());
  await app.listen({ port: config.port, host: config.host });
}

void main();
