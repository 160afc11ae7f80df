import { randomUUID } from 'node:crypto';
import { msps, users } from '@switchboard/db';
import { ensureBuiltInRoles } from '../apps/server/src/modules/roles/built-in-roles';
import { createSession } from '../apps/server/src/modules/sessions/session.service';
import { openBenchRuntime } from './bench-server';

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

// The session and roles-list caches (decision 011) as configured; AUTH_CACHE_TTL_MS=0 measures without them.
const { database, listen } = await openBenchRuntime(databaseUrl, 'sb-bench-data-', { AUTH_CACHE_TTL_MS: process.env.AUTH_CACHE_TTL_MS });

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

const server = await listen();
send({ kind: 'ready', appUrl: server.appUrl, bareUrl: server.bareUrl, sessionCookie: `sb_session=${token}`, mspCustomDomain: msp.customDomain });

process.on('message', (message: unknown) => {
  if (message === 'cpu') {
    const usage = process.cpuUsage();
    send({ kind: 'cpu', microseconds: usage.user + usage.system });
  }
  if (message === 'stop') {
    void (async () => {
      await server.close();
      process.exit(0);
    })();
  }
});
