import { openDatabase } from '@switchboard/db';
import { loadConfig } from './config/env';
import { buildApp } from './app';
import { createRuntimeDeps } from './runtime';

/** `npm run -s openapi`: prints the generated OpenAPI document without listening. */
const config = loadConfig({ ...process.env, NODE_ENV: 'development', DATABASE_URL: undefined, DATA_DIR: process.env.DATA_DIR ?? '.data' });
const database = await openDatabase({ kind: 'pglite' });
const app = await buildApp(await createRuntimeDeps(config, database));
await app.ready();
process.stdout.write(JSON.stringify(app.swagger(), null, 2) + '\n');
await app.close();
await database.close();
