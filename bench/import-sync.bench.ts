import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import pg from 'pg';
import { CSRF_HEADER } from '@switchboard/contracts';
import { createPsaClient } from '@switchboard/psa';
import { DEMO_CREDENTIALS } from '@switchboard/psa-sim';
import { copyServerAssets, serverBuildOptions } from '../scripts/server-bundle.mjs';
import { startThrowawayPostgres, type TPostgresServer } from './postgres-cluster';
import { createBenchDatabase, nextMessage } from './bench-server';
import type { TReady } from './import-sync-server';
import { startSimulatorProcess } from './simulator-process';

// Issue #7 figures: contacts import (SSE stream + batched saves) and batch ticket sync through the real server against
// the simulator with 2,000 companies, 50,000 contacts, 100,000 tickets; and the adapter's raw paging of the same
// tickets, for the ratio. Three processes: the simulator, the server (import-sync-server.ts, on PostgreSQL: a
// throwaway cluster or the server named by DATABASE_URL) and this one, the browser. The peak RSS is the server
// process's own, sampled from /proc every 25 ms (the database runs in its own processes, as in production).
// The server runs as production runs it: bundled by esbuild with scripts/build-server.mjs's options and plugin
// (scripts/server-bundle.mjs) into apps/server/dist-bench/ (gitignored; inside the repo so its npm imports resolve
// from node_modules as dist/main.js's do) and started with plain `node`. BENCH_SERVER=tsx runs the TypeScript
// source under `node --import tsx` instead (the tsx loader alone adds ~150 MB of RSS).
const COMPANIES = 2_000;
const CONTACTS = 50_000;
const TICKETS = 100_000;
const TARGET_IMPORT_MS = 60_000;
const TARGET_RSS_MB = 300;
const TARGET_RATIO = 0.9;

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const seconds2 = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

// ---------------------------------------------------------------- browser (parent)

const serverSource = fileURLToPath(new URL('./import-sync-server.ts', import.meta.url));

/** The server role bundled as production bundles the server (scripts/server-bundle.mjs); returns the bundle's path. */
async function bundleServer(): Promise<string> {
  const outdir = fileURLToPath(new URL('../apps/server/dist-bench/', import.meta.url));
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  await build({ ...serverBuildOptions, entryPoints: { 'import-sync-server': serverSource }, outdir });
  copyServerAssets(outdir);
  return join(outdir, 'import-sync-server.js');
}

/** The child's resident set now (VmRSS), in bytes; 0 once it has gone. */
function rssOf(pid: number): number {
  try {
    const kb = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** `/proc/{pid}/stat` after the command name: [state, ppid, …]; null once the process has gone. */
function statOf(pid: number): string[] | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** CPU time (user + system) a process has used, in ms (clock ticks of 10 ms). */
function cpuMsOf(pid: number): number {
  const fields = statOf(pid);
  return fields ? (Number(fields[11]) + Number(fields[12])) * 10 : 0;
}

/**
 * CPU time of PostgreSQL: the postmaster and every process it started (backends, background workers), counting those
 * that have ended through the postmaster's reaped children's times (cutime, cstime).
 */
function postgresCpuMs(postmaster: number): number {
  const own = statOf(postmaster);
  let total = own ? (Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14])) * 10 : 0;
  for (const entry of readdirSync('/proc')) {
    if (/^\d+$/.test(entry) && statOf(Number(entry))?.[1] === String(postmaster)) total += cpuMsOf(Number(entry));
  }
  return total;
}

async function simRequests(url: string): Promise<number> {
  return ((await (await fetch(`${url}/__sim/stats`)).json()) as { requests: number }).requests;
}

async function runBench(): Promise<void> {
  let postgres: TPostgresServer | null = null;
  let server: ChildProcess | null = null;
  let simulator: ChildProcess | null = null;
  let drop: (() => Promise<void>) | null = null;
  let sampler: NodeJS.Timeout | undefined;
  try {
    const sim = await startSimulatorProcess(['--seed', 'empty', '--scale-companies', String(COMPANIES), '--scale-contacts', String(CONTACTS), '--scale-tickets', String(TICKETS)]);
    simulator = sim.child;
    const simUrl = sim.url;
    const serverUrl = process.env.DATABASE_URL ?? (postgres = await startThrowawayPostgres()).url;
    const database = await createBenchDatabase(serverUrl, 'sb_bench_import');
    drop = database.drop;
    // BENCH_SERVER_NODE_FLAGS adds node flags to the server process (e.g. --max-old-space-size=160 to see how much of its peak is garbage).
    const serverFlags = (process.env.BENCH_SERVER_NODE_FLAGS ?? '').split(' ').filter(Boolean);
    const underTsx = process.env.BENCH_SERVER === 'tsx';
    const entry = underTsx ? serverSource : await bundleServer();
    server = fork(entry, [database.url, simUrl], { execArgv: [...(underTsx ? ['--import', 'tsx'] : []), ...serverFlags], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const ready = await nextMessage<TReady>(server, 'ready');
    const pid = server.pid ?? 0;
    console.log(`import-sync bench on ${postgres?.version ?? 'PostgreSQL (DATABASE_URL)'}; the server in its own process (${underTsx ? 'TypeScript under tsx' : 'esbuild bundle under plain node'}, pid ${pid}${serverFlags.length ? `, ${serverFlags.join(' ')}` : ''}), RSS at rest ${mb(rssOf(pid))}`);
    let peak = 0;
    sampler = setInterval(() => {
      peak = Math.max(peak, rssOf(pid));
    }, 25);
    const headers = { cookie: ready.cookie, [CSRF_HEADER]: '1', 'content-type': 'application/json' };
    const call = async (path: string, init: RequestInit = {}) => {
      const response = await fetch(`${ready.appUrl}${path}`, { ...init, headers });
      if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
      return response.json();
    };
    const cw = DEMO_CREDENTIALS.connectWise;
    await call(`/db/${ready.customDomain}/integrations/update`, {
      method: 'POST',
      body: JSON.stringify({ connectWiseManageIntegration: { companyId: cw.companyId, publicKey: cw.publicKey, privateKey: cw.privateKey, psaUrl: simUrl, clientId: cw.clientId } }),
    });
    // Companies (and contacts) present, as after step 4 of the wizard.
    const directoryStarted = performance.now();
    peak = rssOf(pid);
    // A-043 copies the companies (and contacts) of the client type the finish step records (A-042), and refuses to run
    // without one while the PSA has types: one copy per type brings the whole directory, as before that refusal.
    const clientTypes = (await call(`/psa/getCompanyTypes?mspCustomDomain=${ready.customDomain}`)) as Array<{ id: number; name: string }>;
    const directory = { companies: 0, contacts: 0 };
    for (const clientType of clientTypes) {
      await call(`/db/${ready.customDomain}/updateClientSync?clientTypeId=${clientType.id}&clientTypeName=${encodeURIComponent(clientType.name)}`);
      const copied = (await call(`/psa/syncClientsContacts?mspCustomDomain=${ready.customDomain}`)) as { companies: number; contacts: number };
      directory.companies += copied.companies;
      directory.contacts += copied.contacts;
    }
    console.log(`A-043 copy of the directory (${directory.companies.toLocaleString('en')} companies, ${directory.contacts.toLocaleString('en')} contacts): ${seconds(performance.now() - directoryStarted)}, server peak RSS ${mb(peak)}`);

    // BENCH_ONLY=sync skips the contacts import (the directory copy stays: the ticket sync names companies and contacts from it).
    if (process.env.BENCH_ONLY !== 'sync') {
      // Contacts: the stream over a real socket, saved a thousand at a time while it runs, as the panel does.
      peak = rssOf(pid);
      const importStarted = performance.now();
      const response = await fetch(`${ready.appUrl}/psa/psa/progressive/contacts/fetchStream?mspCustomDomain=${ready.customDomain}`, { headers });
      const decoder = new TextDecoder();
      let buffered = '';
      let jobId = '';
      let pending: unknown[] = [];
      let streamed = 0;
      let saved = 0;
      const save = async () => {
        if (pending.length === 0) return;
        const rows = pending;
        pending = [];
        saved += ((await call(`/psa/psa/progressive/contacts/save-selected?mspCustomDomain=${ready.customDomain}&jobId=${jobId}`, { method: 'POST', body: JSON.stringify(rows) })) as { saved: number }).saved;
      };
      let completion = '';
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffered += decoder.decode(chunk, { stream: true });
        let end = buffered.indexOf('\n\n');
        while (end >= 0) {
          const block = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          end = buffered.indexOf('\n\n');
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? 'null') as unknown;
          if (event === 'started') jobId = (data as { importJobId: string }).importJobId;
          if (event === 'complete') completion = (data as { status: string }).status;
          if (event === 'data') {
            const rows = data as unknown[];
            streamed += rows.length;
            pending.push(...rows);
            if (pending.length >= 1_000) await save();
          }
        }
      }
      await save();
      const importMs = performance.now() - importStarted;
      const importPeak = peak;
      const direct = new pg.Client({ connectionString: database.url });
      direct.on('error', () => undefined);
      await direct.connect();
      const stored = Number((await direct.query<{ n: string }>(`select count(*) as n from psa_contacts`)).rows[0]?.n ?? 0);
      await direct.end();
      const importMet = importMs <= TARGET_IMPORT_MS && importPeak < TARGET_RSS_MB * 1024 * 1024 && streamed === CONTACTS;
      console.log(
        `contacts import: ${streamed.toLocaleString('en')} streamed (${completion}), ${saved.toLocaleString('en')} saved, ${stored.toLocaleString('en')} stored, in ${seconds(importMs)} (target <= 60 s); server peak RSS ${mb(importPeak)} (target < ${TARGET_RSS_MB} MB): ${importMet ? 'met' : 'NOT MET'}`,
      );
    }

    // Tickets: every board, the 90 days with the most tickets (the scale data spans two years).
    const client = createPsaClient({ psaType: 'connectwise', siteUrl: simUrl, ...cw }, { tenantKey: 'bench-raw', timeoutMs: 60_000 });
    const boards = (await client.listBoards()).map((board) => board.id);
    const startDate = '2025-10-02';
    const endDate = '2025-12-31';
    const filter = { boardIds: boards, createdFrom: new Date(`${startDate}T00:00:00Z`), createdBefore: new Date('2026-01-01T00:00:00Z') };
    // CPU time each process spends (the simulator, the server, PostgreSQL, this process paging raw): on a shared machine a
    // run's wall time follows the CPU it needs as much as its waits.
    const probe = new pg.Client({ connectionString: database.url });
    probe.on('error', () => undefined);
    await probe.connect();
    const backend = (await probe.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]?.pid ?? 0;
    const postmaster = Number(statOf(backend)?.[1] ?? 0);
    await probe.end();
    const cpuNow = () => ({ simulator: cpuMsOf(simulator?.pid ?? 0), server: cpuMsOf(pid), postgres: postmaster ? postgresCpuMs(postmaster) : 0, bench: process.cpuUsage().user / 1000 + process.cpuUsage().system / 1000 });
    type TCpu = ReturnType<typeof cpuNow>;
    const cpuSince = (before: TCpu): TCpu => {
      const now = cpuNow();
      return { simulator: now.simulator - before.simulator, server: now.server - before.server, postgres: now.postgres - before.postgres, bench: now.bench - before.bench };
    };
    const cpuText = (cpu: TCpu) => `CPU: simulator ${seconds(cpu.simulator)}, server ${seconds(cpu.server)}, PostgreSQL ${seconds(cpu.postgres)}, bench ${seconds(cpu.bench)}`;
    const raw = async () => {
      const cpuBefore = cpuNow();
      const started = performance.now();
      let count = 0;
      for await (const _ticket of client.streamTickets(filter)) count += 1;
      return { count, ms: performance.now() - started, cpu: cpuSince(cpuBefore) };
    };
    const sync = async () => {
      peak = rssOf(pid);
      const requestsBefore = await simRequests(simUrl);
      const cpuBefore = cpuNow();
      const started = performance.now();
      const startedAtMs = Date.now();
      const run = (await call('/psa/api/batch/sync-boards', { method: 'POST', body: JSON.stringify({ mspCustomDomain: ready.customDomain, boardIds: boards, startDate, endDate }) })) as { parentRunId: string };
      let status: { phase1: { status: string }; phase2?: { status: string; processed: number } } = { phase1: { status: 'QUEUED' } };
      while (!(status.phase2?.status === 'COMPLETED' || status.phase2?.status === 'FAILED' || status.phase1.status === 'FAILED')) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        status = (await call(`/psa/api/batch/status?parentRunId=${run.parentRunId}`)) as typeof status;
      }
      const polledMs = performance.now() - started;
      const cpu = cpuSince(cpuBefore);
      // Where the run's time went, from its own row: waiting for the queue, phase 1 (reference data), phase 2 (tickets).
      const timing = new pg.Client({ connectionString: database.url });
      timing.on('error', () => undefined);
      await timing.connect();
      const row = (
        await timing.query<{ queued: number; phase1: number; between: number; phase2: number; finished: number | null }>(
          `select extract(epoch from phase1_started_at - created_at) * 1000 as queued, extract(epoch from phase1_finished_at - phase1_started_at) * 1000 as phase1,
                  extract(epoch from phase2_started_at - phase1_finished_at) * 1000 as between, extract(epoch from phase2_finished_at - phase2_started_at) * 1000 as phase2,
                  extract(epoch from phase2_finished_at) * 1000 as finished
             from sync_runs where id = $1`,
          [run.parentRunId],
        )
      ).rows[0];
      await timing.end();
      // The sync's wall time: from the request to the moment the run finished (its own row; the server, the bench and
      // PostgreSQL share this machine's clock), not to the status poll that saw it, which comes up to 100 ms later.
      const finishedAtMs = row?.finished === null || row?.finished === undefined ? null : Number(row.finished);
      const ms = finishedAtMs === null ? polledMs : finishedAtMs - startedAtMs;
      const breakdown = row ? `queue wait ${Number(row.queued).toFixed(0)} ms, phase 1 ${Number(row.phase1).toFixed(0)} ms, then ${Number(row.between).toFixed(0)} ms, phase 2 ${Number(row.phase2).toFixed(0)} ms` : 'no run row';
      return { ms, polledMs, processed: status.phase2?.processed ?? 0, status: status.phase2?.status ?? status.phase1.status, requests: (await simRequests(simUrl)) - requestsBefore, peak, breakdown, cpu };
    };
    // Raw paging before and after each sync: the machine is shared, so the ratio compares neighbours in time.
    const rawBefore = await raw();
    const first = await sync();
    const rawBetween = await raw();
    const again = await sync();
    const rawAfter = await raw();
    const report = (label: string, run: Awaited<ReturnType<typeof sync>>, rawMs: number, rawCpu: TCpu) => {
      const ratio = rawMs / run.ms;
      console.log(
        `${label}: ${run.processed.toLocaleString('en')} of ${rawBefore.count.toLocaleString('en')} tickets in range (of ${TICKETS.toLocaleString('en')}) ${run.status} in ${seconds2(run.ms)} (seen by the 100-ms status poll after ${seconds2(run.polledMs)}), ${run.requests} PSA requests (status polls not included), server peak RSS ${mb(run.peak)}; raw paging ${seconds2(rawMs)}, sync speed / raw paging speed = ${(ratio * 100).toFixed(1)}% (target >= ${TARGET_RATIO * 100}%): ${ratio >= TARGET_RATIO ? 'met' : 'NOT MET'}\n  (${run.breakdown}; sync ${cpuText(run.cpu)}; raw paging ${cpuText(rawCpu)})`,
      );
    };
    report('ticket sync (new copies)', first, (rawBefore.ms + rawBetween.ms) / 2, rawBetween.cpu);
    report('ticket sync again (unchanged copies)', again, (rawBetween.ms + rawAfter.ms) / 2, rawAfter.cpu);
  } finally {
    if (sampler) clearInterval(sampler);
    if (server?.connected) {
      const exited = new Promise((resolve) => server?.once('exit', resolve));
      server.send('stop');
      await exited;
    }
    simulator?.kill();
    await drop?.().catch(() => undefined);
    postgres?.stop();
  }
}

await runBench();
