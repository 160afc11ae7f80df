import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { randomUUID } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { CSRF_HEADER, SESSION_COOKIE } from '@switchboard/contracts';
import { boardConfigs, boardPriorities, boardSubtypes, boardTypes, integrations, msps, psaTicketingConfigs, users } from '@switchboard/db';
import { ensureBuiltInRoles } from '../apps/server/src/modules/roles/built-in-roles';
import { createSession } from '../apps/server/src/modules/sessions/session.service';
import { startThrowawayPostgres, type TPostgresServer } from './postgres-cluster';
import { createBenchDatabase, nextMessage, openBenchRuntime } from './bench-server';

// The technician queue on PostgreSQL (issue #10): 100,000 open tickets of one MSP, 200 technicians.
//  1. nextTickets latency p50/p95 and SQL statements per call, one call at a time, every call claiming a
//     full batch of 5 (between rounds the claimed tickets are completed directly in the database).
//  2. Throughput with 500 technicians at once (500 connections, each its own technician: "next" claims
//     5, then "release" hands them back, so every "next" claims) beside a bare Fastify route doing
//     SELECT 1 on the same database, and the ratio (target >= 0.5x, 0 errors); then where each request's
//     CPU went: the app process, PostgreSQL (local cluster only) and the load generator, which share the cores.
// DATABASE_URL names a server to use (a database is created on it and dropped); otherwise a throwaway
// cluster is started. BENCH_TICKETS, BENCH_TECHNICIANS, BENCH_CONCURRENT, BENCH_SECONDS, BENCH_ROUNDS tune it.

const TICKETS = Number(process.env.BENCH_TICKETS ?? 100_000);
const TECHNICIANS = Number(process.env.BENCH_TECHNICIANS ?? 200);
const CONCURRENT = Number(process.env.BENCH_CONCURRENT ?? 500);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const LATENCY_ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const TARGET_P95_MS = 25;
const TARGET_STATEMENTS = 5;
const TARGET_RATIO = 0.5;

interface TReady {
  kind: 'ready';
  appUrl: string;
  bareUrl: string;
  mspCustomDomain: string;
  technicians: { id: string; cookie: string }[];
}
interface TCount {
  kind: 'count';
  statements: number;
  /** Statements by their first words (BENCH_STATEMENTS=1), since the last 'count'. */
  byKind: Record<string, number>;
  /** The server process's CPU time so far (user + system), in microseconds. */
  cpuMicroseconds: number;
}

// ---------------------------------------------------------------- server (child process)

async function runServer(databaseUrl: string): Promise<void> {
  const send = (message: TReady | TCount) => process.send?.(message);
  // Every statement the app sends, counted where node-postgres sends it (BEGIN/COMMIT included).
  let statements = 0;
  let byKind: Record<string, number> = {};
  const isByKind = process.env.BENCH_STATEMENTS === '1';
  const prototype = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const originalQuery = prototype.query;
  prototype.query = function countedQuery(this: unknown, ...args: unknown[]) {
    statements += 1;
    if (isByKind) {
      const [first] = args;
      const text = typeof first === 'string' ? first : typeof first === 'object' && first !== null && 'text' in first ? String(first.text) : '?';
      const kind = text.replace(/\s+/g, ' ').trim().slice(0, 60);
      byKind[kind] = (byKind[kind] ?? 0) + 1;
    }
    return originalQuery.apply(this, args);
  };

  const { database, listen } = await openBenchRuntime(databaseUrl, 'sb-bench-queue-', { PSA_OUTBOX_INTERVAL_MS: '0' });
  const db = database.db;

  const [msp] = await db.insert(msps).values({ customDomain: 'bench-queue', name: 'Bench MSP', phone: '3035550100', websiteUrl: 'https://example.com' }).returning();
  if (!msp) throw new Error('msp not created');
  const roleIds = await ensureBuiltInRoles(db, msp.id);
  // The queue takes tickets of the MSP's current PSA; no technician is linked to a PSA member, so no PSA write is made.
  await db.insert(integrations).values({ mspId: msp.id, psaType: 'CONNECTWISE', settings: {}, secretCiphertext: 'unused', keyHint: 'bench' });
  await db.insert(psaTicketingConfigs).values({ mspId: msp.id, psaType: 'CONNECTWISE' });
  const boardId = 1;
  await db.insert(boardConfigs).values({ mspId: msp.id, psaType: 'CONNECTWISE', boardId, boardName: 'Service Desk', newStatusId: 1, newStatusName: 'New', closingStatusId: 8, closingStatusName: 'Closed' });
  await db.insert(boardPriorities).values([1, 2, 3, 4].map((priorityId) => ({ mspId: msp.id, psaType: 'CONNECTWISE' as const, boardId, priorityId, priorityName: `P${priorityId}`, priorityScore: 100 - priorityId * 20 })));
  await db.insert(boardTypes).values({ mspId: msp.id, psaType: 'CONNECTWISE', boardId, typeId: 10, typeName: 'Hardware', position: 0 });
  const tiers = ['Tier1', 'Tier2', 'Tier3'] as const;
  await db.insert(boardSubtypes).values(
    Array.from({ length: 9 }, (_, index) => ({ mspId: msp.id, psaType: 'CONNECTWISE' as const, boardId, typeId: 10, subtypeId: 100 + index, subtypeName: `Subtype ${index}`, subtypeScore: (index * 11) % 100, tier: tiers[index % 3] ?? 'Tier1', slaHours: 2 + index * 3, position: index })),
  );
  await db.execute(sql`insert into psa_tickets (msp_id, psa_type, external_id, ticket_number, summary, board_external_id, board_name, type_external_id, type_name,
      subtype_external_id, subtype_name, priority_external_id, priority_name, company_name, is_closed, psa_created_at, synced_at)
    select ${msp.id}, 'CONNECTWISE', (1000000 + g)::text, (1000000 + g)::text, 'Ticket ' || g, '1', 'Service Desk', '10', 'Hardware',
      (100 + g % 9)::text, 'Subtype ' || (g % 9), (1 + g % 4)::text, 'P' || (1 + g % 4), 'Company ' || (g % 500), false,
      now() - (g % 20000) * interval '1 minute', now() - interval '1 hour' - (g % 20000) * interval '1 second'
    from generate_series(1, ${TICKETS}) g`);
  // The steady state the bench measures: the copies and the board were synchronized and configured before
  // the run (an hour ago), so the upkeep's incremental pass finds only what changes during it.
  await db.execute(sql`update board_configs set updated_at = now() - interval '1 hour' where msp_id = ${msp.id}`);
  const technicianCount = Math.max(TECHNICIANS, CONCURRENT);
  const technicians: { id: string; cookie: string }[] = [];
  const rows = Array.from({ length: technicianCount }, (_, index) => ({
    mspId: msp.id,
    id: randomUUID(),
    kind: 'technician' as const,
    roleId: roleIds.Technician,
    firstName: 'Tech',
    lastName: String(index),
    email: `tech-${index}@bench.example`,
    phone: '3035550111',
    passwordHash: null,
    // Mostly Tier3 so each can take any ticket; some Tier1/Tier2 so the tier walk is exercised.
    tierLevel: index % 5 === 0 ? ('Tier1' as const) : index % 5 === 1 ? ('Tier2' as const) : ('Tier3' as const),
  }));
  for (let start = 0; start < rows.length; start += 500) await db.insert(users).values(rows.slice(start, start + 500));
  for (const row of rows) {
    const { token } = await createSession(db, { principalKind: 'user', mspId: msp.id, userId: row.id }, new Date());
    technicians.push({ id: row.id, cookie: `${SESSION_COOKIE}=${token}` });
  }
  await db.execute(sql`analyze`);

  const server = await listen();
  send({ kind: 'ready', appUrl: server.appUrl, bareUrl: server.bareUrl, mspCustomDomain: msp.customDomain, technicians });

  process.on('message', (message: unknown) => {
    if (message === 'count') {
      const usage = process.cpuUsage();
      send({ kind: 'count', statements, byKind, cpuMicroseconds: usage.user + usage.system });
      byKind = {};
    }
    if (message === 'stop') {
      void (async () => {
        await server.close();
        process.exit(0);
      })();
    }
  });
}

// ---------------------------------------------------------------- load generator (parent)

async function statementCount(child: ChildProcess): Promise<number> {
  return (await statementCounts(child)).statements;
}
async function statementCounts(child: ChildProcess): Promise<TCount> {
  const answer = nextMessage<TCount>(child, 'count');
  child.send('count');
  return answer;
}

/**
 * CPU time used so far by this machine's PostgreSQL processes (utime + stime of each, with that of the
 * exited backends the postmaster reaped), in ms; null where /proc cannot tell it (not Linux) or the server
 * is elsewhere (DATABASE_URL).
 */
function postgresCpuMs(): number | null {
  if (process.env.DATABASE_URL || !existsSync('/proc/self/stat')) return null;
  let ticks = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^[0-9]+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      if (!stat.slice(stat.indexOf('(') + 1, close).startsWith('postgres')) continue;
      // After "pid (comm) ": state is field 0, then utime 11, stime 12, cutime 13, cstime 14 (clock ticks, 100 a second).
      const fields = stat.slice(close + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    } catch {
      // The process ended while it was read.
    }
  }
  return ticks * 10;
}

/** Long enough for the server to answer what a stopped load left in flight (500 requests of a few ms each). */
const SETTLE_MS = 1000;
const settle = () => new Promise((resolve) => setTimeout(resolve, SETTLE_MS));

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

async function runBench(): Promise<void> {
  let postgres: TPostgresServer | null = null;
  let child: ChildProcess | null = null;
  let drop: (() => Promise<void>) | null = null;
  try {
    const serverUrl = process.env.DATABASE_URL ?? (postgres = await startThrowawayPostgres()).url;
    const database = await createBenchDatabase(serverUrl, 'sb_bench_queue');
    drop = database.drop;
    const started = Date.now();
    // BENCH_CPU_PROFILE_DIR=dir writes the server's CPU profile (node --cpu-prof) there when it stops.
    const profileDir = process.env.BENCH_CPU_PROFILE_DIR;
    const execArgv = ['--import', 'tsx', ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [])];
    child = fork(fileURLToPath(import.meta.url), ['--server', database.url], { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const ready = await nextMessage<TReady>(child, 'ready');
    console.log(`queue bench on ${postgres?.version ?? 'PostgreSQL (DATABASE_URL)'}: ${TICKETS.toLocaleString('en')} tickets, ${TECHNICIANS} technicians (seeded in ${((Date.now() - started) / 1000).toFixed(1)} s)`);
    const headers = (cookie: string) => ({ cookie, [CSRF_HEADER]: '1', accept: 'application/json' });
    const nextUrl = (techId: string) => `${ready.appUrl}/db/api/ticketQueue/nextTickets?mspCustomDomain=${ready.mspCustomDomain}&techId=${techId}&limit=5`;
    const direct = new pg.Client({ connectionString: database.url });
    // The database is dropped WITH (FORCE) at the end, which ends this connection too.
    direct.on('error', () => undefined);
    await direct.connect();

    // Warm-up: the first call brings the queue up to date with the 100,000 copies (the upkeep's insert).
    const warmStart = performance.now();
    const first = ready.technicians[0];
    if (!first) throw new Error('no technician');
    const warm = await fetch(nextUrl(first.id), { headers: headers(first.cookie) });
    if (warm.status !== 200) throw new Error(`warm-up answered ${warm.status}: ${await warm.text()}`);
    console.log(`first call (queue filled from the ticket copies): ${(performance.now() - warmStart).toFixed(0)} ms`);
    await direct.query(`update queue_tickets set state = 'completed', completed_at = now() where state = 'claimed'`);

    // 1. Latency and statements, one call at a time; every call claims five.
    const latencies: number[] = [];
    let calls = 0;
    let claimed = 0;
    let statements = 0;
    for (let round = 0; round < LATENCY_ROUNDS; round++) {
      for (const technician of ready.technicians.slice(0, TECHNICIANS)) {
        const before = await statementCount(child);
        const t0 = performance.now();
        const response = await fetch(nextUrl(technician.id), { headers: headers(technician.cookie) });
        const body = (await response.json()) as { tickets?: unknown[] };
        latencies.push(performance.now() - t0);
        statements += (await statementCount(child)) - before;
        if (response.status !== 200) throw new Error(`nextTickets answered ${response.status}`);
        calls += 1;
        claimed += body.tickets?.length ?? 0;
      }
      // The technicians finish their tickets (directly, outside the measured calls), so the next round claims again.
      await direct.query(`update queue_tickets set state = 'completed', completed_at = now() where state = 'claimed'`);
    }
    latencies.sort((a, b) => a - b);
    const p50 = percentile(latencies, 50);
    const p95 = percentile(latencies, 95);
    const perCall = statements / calls;
    console.table([{ calls, 'tickets claimed': claimed, 'p50 ms': p50.toFixed(1), 'p95 ms': p95.toFixed(1), 'p99 ms': percentile(latencies, 99).toFixed(1), 'SQL statements / call': perCall.toFixed(2) }]);
    console.log(`${p95 <= TARGET_P95_MS ? 'meets' : 'MISSES'} p95 <= ${TARGET_P95_MS} ms; ${perCall <= TARGET_STATEMENTS ? 'meets' : 'MISSES'} <= ${TARGET_STATEMENTS} statements per call (session lookup, technician, BEGIN, claim, COMMIT)`);

    // 2. Throughput: CONCURRENT technicians at once, next (claims 5) then release (hands them back).
    await direct.query(`update queue_tickets set state = 'queued', assigned_tech_id = null, claimed_at = null where state = 'claimed'`);
    const pool = ready.technicians.slice(0, CONCURRENT);
    let connection = 0;
    const queueLoad = () =>
      autocannon({
        url: ready.appUrl,
        connections: CONCURRENT,
        duration: SECONDS,
        requests: [
          {
            method: 'GET',
            setupRequest: (request, context) => {
              const state = context as { tech?: number };
              state.tech ??= connection++ % pool.length;
              const technician = pool[state.tech] ?? first;
              return { ...request, path: `/db/api/ticketQueue/nextTickets?mspCustomDomain=${ready.mspCustomDomain}&techId=${technician.id}&limit=5`, headers: headers(technician.cookie) };
            },
          },
          {
            method: 'POST',
            setupRequest: (request, context) => {
              const technician = pool[(context as { tech?: number }).tech ?? 0] ?? first;
              return { ...request, path: `/db/api/ticketQueue/release?mspCustomDomain=${ready.mspCustomDomain}&techId=${technician.id}`, headers: headers(technician.cookie) };
            },
          },
        ],
      });
    const bareLoad = () => autocannon({ url: `${ready.bareUrl}/select1`, connections: CONCURRENT, duration: SECONDS });
    await bareLoad();
    const rows: Record<string, string | number>[] = [];
    const ratios: number[] = [];
    let errors = 0;
    // What the database sessions wait on during the queue load (BENCH_WAITS=1): sampled every 100 ms.
    const waits = new Map<string, number>();
    const sampleWaits = async (during: Promise<unknown>) => {
      let isDone = false;
      void during.finally(() => (isDone = true));
      while (!isDone && process.env.BENCH_WAITS === '1') {
        const sample = await direct.query<{ what: string; n: number }>(
          `select coalesce(wait_event_type || ':' || wait_event, 'on CPU') || ' | ' || left(regexp_replace(query, '\\s+', ' ', 'g'), 70) as what, count(*)::int as n
           from pg_stat_activity where datname = current_database() and state <> 'idle' and pid <> pg_backend_pid() group by 1`,
        );
        for (const row of sample.rows) waits.set(row.what, (waits.get(row.what) ?? 0) + row.n);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    const statementsOf: string[] = [];
    // Where each request's CPU goes, per round: the app's process, the PostgreSQL processes, the load generator.
    const cpuRows: Record<string, string>[] = [];
    const perRequest = (ms: number | null, requests: number) => (ms === null ? 'n/a' : (ms / (requests || 1)).toFixed(3));
    for (let round = 0; round < 2; round++) {
      const bareServerBefore = await statementCounts(child);
      const barePostgresBefore = postgresCpuMs();
      const bareLoaderBefore = process.cpuUsage();
      const base = await bareLoad();
      // autocannon stops at its duration with requests still in flight, which the server goes on answering:
      // their CPU and statements belong to this route's figures, not to the next route's.
      await settle();
      const bareLoader = process.cpuUsage(bareLoaderBefore);
      const barePostgres = postgresCpuMs();
      const countedBefore = await statementCounts(child);
      const queueLoaderBefore = process.cpuUsage();
      const running = Promise.resolve(queueLoad());
      await sampleWaits(running);
      const queue = await running;
      await settle();
      const queueLoader = process.cpuUsage(queueLoaderBefore);
      const queuePostgres = postgresCpuMs();
      const counted = await statementCounts(child);
      // BENCH_STATEMENTS=1: what the app sent during this round, per queue request.
      if (Object.keys(counted.byKind).length > 0) {
        statementsOf.push(`round ${round + 1}: ${((counted.statements - countedBefore.statements) / (queue.requests.total || 1)).toFixed(2)} statements per request`);
        for (const [kind, n] of Object.entries(counted.byKind).sort((a, b) => b[1] - a[1]).slice(0, 8)) statementsOf.push(`  ${(n / (queue.requests.total || 1)).toFixed(3).padStart(7)}  ${kind}`);
      }
      errors += queue.errors + queue.timeouts + queue.non2xx;
      const ratio = queue.requests.average / (base.requests.average || 1);
      ratios.push(ratio);
      rows.push({ round: round + 1, 'SELECT 1 req/s': base.requests.average.toFixed(0), 'queue req/s (next + release)': queue.requests.average.toFixed(0), 'queue p50 ms': queue.latency.p50, 'queue p99 ms': queue.latency.p99, 'non-2xx': queue.non2xx, errors: queue.errors + queue.timeouts, ratio: `${ratio.toFixed(3)}x` });
      const bareServerMs = (countedBefore.cpuMicroseconds - bareServerBefore.cpuMicroseconds) / 1000;
      const queueServerMs = (counted.cpuMicroseconds - countedBefore.cpuMicroseconds) / 1000;
      const loaderMs = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1000;
      const bareDbMs = barePostgres === null || barePostgresBefore === null ? null : barePostgres - barePostgresBefore;
      const queueDbMs = queuePostgres === null || barePostgres === null ? null : queuePostgres - barePostgres;
      for (const [route, result, serverMs, dbMs, loader] of [
        ['SELECT 1', base, bareServerMs, bareDbMs, loaderMs(bareLoader)],
        ['queue (next + release)', queue, queueServerMs, queueDbMs, loaderMs(queueLoader)],
      ] as const) {
        const total = dbMs === null ? null : serverMs + dbMs + loader;
        cpuRows.push({
          round: String(round + 1),
          route,
          'app process ms/req': perRequest(serverMs, result.requests.total),
          'app process busy': `${Math.round((100 * serverMs) / (SECONDS * 1000 + SETTLE_MS))} %`,
          'PostgreSQL ms/req': perRequest(dbMs, result.requests.total),
          'load generator ms/req': perRequest(loader, result.requests.total),
          'all CPU ms/req': perRequest(total, result.requests.total),
        });
      }
    }
    console.table(rows);
    console.log(`CPU per request on this machine (${availableParallelism()} cores shared by the load generator, the app and PostgreSQL):`);
    console.table(cpuRows);
    for (const line of statementsOf) console.log(line);
    if (waits.size > 0) {
      console.log('database sessions during the queue load (samples, wait | statement):');
      for (const [what, n] of [...waits.entries()].sort((a, b) => b[1] - a[1]).slice(0, 12)) console.log(`  ${String(n).padStart(6)}  ${what}`);
    }
    await direct.end();
    const bestRatio = Math.max(...ratios);
    console.log(`${errors === 0 ? 'meets' : 'MISSES'} 0 errors (${errors}); ${bestRatio >= TARGET_RATIO ? 'meets' : 'MISSES'} the ${TARGET_RATIO}x target vs SELECT 1 (best of 2 rounds ${bestRatio.toFixed(3)}x, ${CONCURRENT} connections)`);
  } catch (error) {
    console.error('queue bench failed:', error);
    process.exitCode = 1;
  } finally {
    if (child?.connected) {
      const exited = once(child, 'exit');
      child.send('stop');
      await exited;
    }
    // BENCH_KEEP_DB=1 keeps the database (and a DATABASE_URL server) for EXPLAIN after the run.
    if (process.env.BENCH_KEEP_DB !== '1') await drop?.();
    postgres?.stop();
  }
}

if (process.argv[2] === '--server') await runServer(process.argv[3] ?? '');
else await runBench();
