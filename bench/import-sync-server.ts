import { randomUUID } from 'node:crypto';
import { SESSION_COOKIE } from '@switchboard/contracts';
import { msps, users } from '@switchboard/db';
import { ensureBuiltInRoles } from '../apps/server/src/modules/roles/built-in-roles';
import { createSession } from '../apps/server/src/modules/sessions/session.service';
import { openBenchRuntime } from './bench-server';

// The server role of import-sync.bench.ts, in its own process: the app on PostgreSQL with a seeded MSP, admin and
// session, answering the bench (the browser) over HTTP. The bench bundles this file with esbuild exactly as
// scripts/build-server.mjs bundles the production server and runs it with plain `node` (BENCH_SERVER=tsx runs
// this source under tsx instead). Arguments: the database URL and the simulator's URL.

export interface TReady {
  kind: 'ready';
  appUrl: string;
  customDomain: string;
  cookie: string;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

async function runServer(databaseUrl: string, simUrl: string): Promise<void> {
  // The queue polls every 0.5 s (production: 2 s), as the API tests run it: the sync's wall time is its own work.
  const { database, listen } = await openBenchRuntime(databaseUrl, 'sb-bench-import-', { OUTBOUND_ALLOW_LIST: new URL(simUrl).host }, { queue: { pollingIntervalSeconds: 0.5 } });
  const db = database.db;
  const [msp] = await db.insert(msps).values({ customDomain: 'bench-import', name: 'Bench MSP', phone: '3035550100', websiteUrl: 'https://example.com' }).returning();
  if (!msp) throw new Error('msp not created');
  const roleIds = await ensureBuiltInRoles(db, msp.id);
  const [admin] = await db
    .insert(users)
    .values({ mspId: msp.id, id: randomUUID(), kind: 'technician', roleId: roleIds.Admin, firstName: 'Bench', lastName: 'Admin', email: 'admin@bench.example', phone: '3035550111', passwordHash: null, tierLevel: 'Tier1' })
    .returning();
  if (!admin) throw new Error('admin not created');
  const { token } = await createSession(db, { principalKind: 'user', mspId: msp.id, userId: admin.id }, new Date());
  const server = await listen();
  // BENCH_MEMORY=1 prints the server's heap beside its RSS every 2 s (where the resident memory goes).
  if (process.env.BENCH_MEMORY === '1') {
    setInterval(() => {
      const usage = process.memoryUsage();
      process.stderr.write(`server memory: rss ${mb(usage.rss)}, heap used ${mb(usage.heapUsed)} of ${mb(usage.heapTotal)}, external ${mb(usage.external)}, array buffers ${mb(usage.arrayBuffers)}\n`);
    }, 2_000).unref();
  }
  process.send?.({ kind: 'ready', appUrl: server.appUrl, customDomain: msp.customDomain, cookie: `${SESSION_COOKIE}=${token}` } satisfies TReady);
  process.on('message', (message: unknown) => {
    if (message === 'stop') {
      void (async () => {
        await server.close();
        process.exit(0);
      })();
    }
  });
}

await runServer(process.argv[2] ?? '', process.argv[3] ?? '');
