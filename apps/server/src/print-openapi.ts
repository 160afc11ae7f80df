import { randomBytes } from 'node:crypto';
import { openDatabase } from '@switchboard/db';
import { loadConfig } from './config/env';
import { buildApp } from './app';
import { createRuntimeDeps } from './runtime';

/** `npm run -s openapi`: prints the generated OpenAPI document without listening. */
// Throwaway secrets and an in-memory database: printing the document must not touch .data/.
const config = loadConfig({ NODE_ENV: 'development', SESSION_SECRET: randomBytes(32).toString('hex'), ENCRYPTION_KEY: randomBytes(32).toString('hex') });
const database = await openDatabase({ kind: 'pglite' });
const app = await buildApp(await createRuntimeDeps(config, { database }));
await app.ready();
process.stdout.write(JSON.stringify(app.swagger(), null, 2) + '\n');
await app.close();
await database.close();
