import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { startThrowawayPostgres, type TPostgresServer } from './postgres-cluster';
import { createBenchDatabase, nextMessage } from './bench-server';
import type { TBenchServerCpu, TBenchServerReady } from './request-path.server';

// The request path on PostgreSQL, in one run: req/s, p50/p99 and CPU per request of the session
// check and an authenticated list (A-013 roles) beside a bare Fastify route doing SELECT 1
// on the same database and pool, and the ratio of each to the bare route (target >= 0.5x).
// DATABASE_URL names a server to use (a database is created on it and dropped); otherwise a
// throwaway cluster is started on a free port. BENCH_SECONDS (per route per round, default 4),
// BENCH_ROUNDS (default 3) and BENCH_CONNECTIONS (default 50) tune the load; BENCH_ONLY=session|roles
// measures one route (with the bare route) for profiling.

const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const WARMUP_SECONDS = 2;
const TARGET_RATIO = 0.5;

interface TTarget {
  name: string;
  url: string;
  headers: Record<string, string>;
}

interface TRoundResult {
  requestsPerSecond: number;
  requests: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  cpuMicroseconds: number;
}

async function serverCpuMicroseconds(child: ChildProcess): Promise<number> {
  const answer = nextMessage<TBenchServerCpu>(child, 'cpu');
  child.send('cpu');
  return (await answer).microseconds;
}

async function load(target: TTarget, seconds: number): Promise<autocannon.Result> {
  return autocannon({ url: target.url, headers: target.headers, connections: CONNECTIONS, duration: seconds });
}

async function measureOnce(child: ChildProcess, target: TTarget): Promise<TRoundResult> {
  const cpuBefore = await serverCpuMicroseconds(child);
  const result = await load(target, SECONDS);
  const cpuAfter = await serverCpuMicroseconds(child);
  return {
    requestsPerSecond: result.requests.average,
    requests: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    cpuMicroseconds: cpuAfter - cpuBefore,
  };
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

/**
 * Interleaved rounds (SELECT 1, then each route, repeated): on a shared machine the load from other
 * processes changes by the second, so each route is compared with the SELECT 1 run of its own round
 * and the median over rounds is reported.
 */
async function runRounds(child: ChildProcess, baseline: TTarget, targets: TTarget[]): Promise<Map<TTarget, TRoundResult[]>> {
  const results = new Map<TTarget, TRoundResult[]>([baseline, ...targets].map((target) => [target, []]));
  for (const target of [baseline, ...targets]) await load(target, WARMUP_SECONDS);
  for (let round = 0; round < ROUNDS; round++) {
    for (const target of [baseline, ...targets]) results.get(target)?.push(await measureOnce(child, target));
  }
  return results;
}

function report(baseline: TTarget, targets: TTarget[], results: Map<TTarget, TRoundResult[]>): void {
  const baselineRounds = results.get(baseline) ?? [];
  const cpuPerRequest = (rounds: TRoundResult[]) => rounds.reduce((sum, r) => sum + r.cpuMicroseconds, 0) / 1000 / (rounds.reduce((sum, r) => sum + r.requests, 0) || 1);
  const baselineCpu = cpuPerRequest(baselineRounds);
  const rows = [baseline, ...targets].map((target) => {
    const rounds = results.get(target) ?? [];
    const cpu = cpuPerRequest(rounds);
    const ratios = rounds.map((r, i) => r.requestsPerSecond / (baselineRounds[i]?.requestsPerSecond || 1));
    return {
      route: target.name,
      'req/s': median(rounds.map((r) => r.requestsPerSecond)).toFixed(0),
      'p50 ms': median(rounds.map((r) => r.p50)).toFixed(1),
      'p99 ms': median(rounds.map((r) => r.p99)).toFixed(1),
      'CPU ms/req': cpu.toFixed(3),
      // What the ratio would be if the server's own CPU were the only limit (steadier than req/s on a busy machine).
      'CPU vs SELECT 1': `${(baselineCpu / (cpu || 1)).toFixed(3)}x`,
      'non-2xx': rounds.reduce((sum, r) => sum + r.non2xx, 0),
      errors: rounds.reduce((sum, r) => sum + r.errors, 0),
      'vs SELECT 1': `${median(ratios).toFixed(3)}x`,
      'per round': ratios.map((ratio) => ratio.toFixed(2)).join(' '),
    };
  });
  console.table(rows);
  for (const [index, row] of rows.entries()) {
    if (index === 0) continue;
    if (row['non-2xx'] > 0 || row.errors > 0) console.log(`! ${row.route}: ${row['non-2xx']} non-2xx answers and ${row.errors} errors — its figures do not measure the route`);
    const ratio = Number.parseFloat(row['vs SELECT 1']);
    console.log(`${ratio >= TARGET_RATIO ? 'meets' : 'BELOW'} the ${TARGET_RATIO}x target: ${row.route} at ${row['vs SELECT 1']} of SELECT 1 (median of ${ROUNDS} rounds)`);
  }
}

let postgres: TPostgresServer | null = null;
let child: ChildProcess | null = null;
let drop: (() => Promise<void>) | null = null;
try {
  const serverUrl = process.env.DATABASE_URL ?? (postgres = await startThrowawayPostgres()).url;
  const database = await createBenchDatabase(serverUrl, 'sb_bench');
  drop = database.drop;
  const serverScript = fileURLToPath(new URL('./request-path.server.ts', import.meta.url));
  // BENCH_CPU_PROFILE_DIR=folder writes the server's V8 CPU profile there (open it in Chrome DevTools).
  const profileDir = process.env.BENCH_CPU_PROFILE_DIR;
  const execArgv = ['--import', 'tsx', ...(profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [])];
  child = fork(serverScript, [database.url], { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ready = await nextMessage<TBenchServerReady>(child, 'ready');

  console.log(
    `request path on ${postgres?.version ?? 'PostgreSQL (DATABASE_URL)'}: ${CONNECTIONS} connections, ${ROUNDS} interleaved rounds of ${SECONDS} s per route after a ${WARMUP_SECONDS} s warm-up`,
  );
  const cookie = { cookie: ready.sessionCookie, accept: 'application/json' };
  const baseline: TTarget = { name: 'bare Fastify: SELECT 1', url: `${ready.bareUrl}/select1`, headers: {} };
  const only = process.env.BENCH_ONLY;
  const targets: TTarget[] = [];
  if (only !== 'roles') targets.push({ name: 'session check (A-072)', url: `${ready.appUrl}/auth/api/auth/microsoft-user`, headers: cookie });
  if (only !== 'session') targets.push({ name: 'roles list (A-013)', url: `${ready.appUrl}/db/${ready.mspCustomDomain}/roles/all`, headers: cookie });
  report(baseline, targets, await runRounds(child, baseline, targets));
} finally {
  if (child?.connected) {
    const exited = once(child, 'exit');
    child.send('stop');
    await exited;
  }
  await drop?.();
  postgres?.stop();
}
