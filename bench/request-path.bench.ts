import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { startThrowawayPostgres, type TPostgresServer } from './postgres-cluster';
import type { TBenchServerCpu, TBenchServerReady } from './request-path.server';

// The request path on PostgreSQL, in one run: req/s, p50/p99 and CPU per request of the session
// check and an authenticated list (A-013 roles) beside a bare Fastify route doing SELECT 1
// on the same database and pool, and the ratio of each to the bare route (target >= 0.5x).
// DATABASE_URL names a server to use (a database is created on it and dropped); otherwise a
// throwaway cluster is started on a free port. BENCH_SECONDS and BENCH_CONNECTIONS tune the load;
// BENCH_ONLY=session|roles measures one route (with the bare route) for profiling.

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const WARMUP_SECONDS = 2;
const TARGET_RATIO = 0.5;

interface TPhaseResult {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  cpuMsPerRequest: number;
}

async function createBenchDatabase(serverUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `sb_bench_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

function nextMessage<T extends { kind: string }>(child: ChildProcess, kind: T['kind']): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: unknown) => {
      if (typeof message === 'object' && message !== null && (message as { kind?: unknown }).kind === kind) {
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(message as T);
      }
    };
    const onExit = (code: number | null) => reject(new Error(`the bench server exited (code ${String(code)}) before answering`));
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

async function serverCpuMicroseconds(child: ChildProcess): Promise<number> {
  const answer = nextMessage<TBenchServerCpu>(child, 'cpu');
  child.send('cpu');
  return (await answer).microseconds;
}

async function load(url: string, headers: Record<string, string>, seconds: number): Promise<autocannon.Result> {
  return autocannon({ url, headers, connections: CONNECTIONS, duration: seconds });
}

async function measure(child: ChildProcess, name: string, url: string, headers: Record<string, string>): Promise<TPhaseResult> {
  await load(url, headers, WARMUP_SECONDS);
  const cpuBefore = await serverCpuMicroseconds(child);
  const result = await load(url, headers, SECONDS);
  const cpuAfter = await serverCpuMicroseconds(child);
  const total = result.requests.total || 1;
  return {
    name,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    cpuMsPerRequest: (cpuAfter - cpuBefore) / 1000 / total,
  };
}

function printTable(results: TPhaseResult[], baseline: number): void {
  const rows = results.map((r) => ({
    route: r.name,
    'req/s': r.requestsPerSecond.toFixed(0),
    'p50 ms': r.p50.toFixed(1),
    'p99 ms': r.p99.toFixed(1),
    'CPU ms/req': r.cpuMsPerRequest.toFixed(3),
    'non-2xx': r.non2xx,
    errors: r.errors,
    'vs SELECT 1': `${(r.requestsPerSecond / baseline).toFixed(3)}x`,
  }));
  console.table(rows);
}

let postgres: TPostgresServer | null = null;
let child: ChildProcess | null = null;
let drop: (() => Promise<void>) | null = null;
try {
  const serverUrl = process.env.DATABASE_URL ?? (postgres = await startThrowawayPostgres()).url;
  const database = await createBenchDatabase(serverUrl);
  drop = database.drop;
  const serverScript = fileURLToPath(new URL('./request-path.server.ts', import.meta.url));
  // BENCH_CPU_PROFILE_DIR=folder writes the server's V8 CPU profile there (open it in Chrome DevTools).
  const profileDir = process.env.BENCH_CPU_PROFILE_DIR;
  const execArgv = ['--import', 'tsx', ...(profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [])];
  child = fork(serverScript, [database.url], { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ready = await nextMessage<TBenchServerReady>(child, 'ready');

  console.log(`request path on ${postgres?.version ?? 'PostgreSQL (DATABASE_URL)'}: ${CONNECTIONS} connections, ${SECONDS} s per route after ${WARMUP_SECONDS} s warm-up`);
  const cookie = { cookie: ready.sessionCookie, accept: 'application/json' };
  const bare = await measure(child, 'bare Fastify: SELECT 1', `${ready.bareUrl}/select1`, {});
  const only = process.env.BENCH_ONLY;
  const measured: TPhaseResult[] = [];
  if (only !== 'roles') measured.push(await measure(child, 'session check (A-072)', `${ready.appUrl}/auth/api/auth/microsoft-user`, cookie));
  if (only !== 'session') measured.push(await measure(child, 'roles list (A-013)', `${ready.appUrl}/db/${ready.mspCustomDomain}/roles/all`, cookie));
  printTable([bare, ...measured], bare.requestsPerSecond);

  const failures = measured.filter((r) => r.non2xx > 0 || r.errors > 0);
  for (const r of failures) console.log(`! ${r.name}: ${r.non2xx} non-2xx answers and ${r.errors} errors — its figures do not measure the route`);
  for (const r of measured) {
    const ratio = r.requestsPerSecond / bare.requestsPerSecond;
    console.log(`${ratio >= TARGET_RATIO ? 'meets' : 'BELOW'} the ${TARGET_RATIO}x target: ${r.name} at ${ratio.toFixed(3)}x of SELECT 1`);
  }
} finally {
  if (child?.connected) {
    const exited = once(child, 'exit');
    child.send('stop');
    await exited;
  }
  await drop?.();
  postgres?.stop();
}
