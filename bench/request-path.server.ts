import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { msps, openDatabase, users } from '@switchboard/db';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config/env';
import { createRuntimeDeps } from '../apps/server/src/runtime';
import { ensureBuiltInRoles } from '../apps/server/src/modules/roles/built-in-roles';
import { createSession } from '../apps/server/src/modules/sessions/session.service';

// The server side of request-path.bench.ts, in its own process so the load generator does not share
// its event loop or CPU accounting. It answers the parent over IPC: where it listens, and its CPU
// time on demand (so the parent can compute CPU per request of each phase).

export interface TBenchServerReady {
  kind: 'ready';
  appUrl: string;
  bareUrl: string;
  sessionCookie: string;
  mspCustomDomain: string;
}
export interface TBenchServerCpu {
  kind: 'cpu';
  microseconds: number;
}

const databaseUrl = process.argv[2];
if (!databaseUrl || !process.send) throw new Error('usage: forked by request-path.bench.ts with a database URL');
const send = (message: TBenchServerReady | TBenchServerCpu) => process.send?.(message);

const dataDir = mkdtempSync(join(tmpdir(), 'sb-bench-data-'));
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
  // The session and roles-list caches (decision 011) as configured; AUTH_CACHE_TTL_MS=0 measures without them.
  AUTH_CACHE_TTL_MS: process.env.AUTH_CACHE_TTL_MS,
});
const database = await openDatabase({ kind: 'postgres', url: databaseUrl, maxConnections: 10 });
const deps = await createRuntimeDeps(config, database);

const [msp] = await database.db
  .insert(msps)
  .values({ customDomain: 'bench-msp', name: 'Bench MSP', phone: '3035550100', websiteUrl: 'https://example.com' })
  .returning();
if (!msp) throw new Error('msp not created');
const roleIds = await ensureBuiltInRoles(database.db, msp.id);
const userId = randomUUID();
await database.db.insert(users).values({
  mspId: msp.id,
  id: userId,
  kind: 'technician',
  roleId: roleIds.Admin,
  firstName: 'Bench',
  lastName: 'Admin',
  email: 'bench-admin@example.com',
  phone: '3035550111',
  passwordHash: null,
  tierLevel: 'Tier1',
});
const { token } = await createSession(database.db, { principalKind: 'user', mspId: msp.id, userId }, new Date());

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
send({ kind: 'ready', appUrl: urlOf(app.server.address()), bareUrl: urlOf(bare.server.address()), sessionCookie: `sb_session=${token}`, mspCustomDomain: msp.customDomain });

process.on('message', (message: unknown) => {
  if (message === 'cpu') {
    const usage = process.cpuUsage();
    send({ kind: 'cpu', microseconds: usage.user + usage.system });
  }
  if (message === 'stop') {
    void (async () => {
      await app.close();
      await bare.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    })();
  }
});
