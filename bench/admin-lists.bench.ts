/**
 * Admin lists on PostgreSQL (issue #8): with 2,000 companies and 50,000 contacts synchronized (far past the
 * 10,000+ contacts tenant of the target), the companies (A-008), company contacts (A-009) and contacts-view
 * calls must answer with p95 <= 50 ms. The contact counts stop at 10,000 (isTotalCapped), short searches
 * match by prefix, and searches use the pg_trgm + btree_gin index (migration 0014).
 * Calls go through the whole app in-process (session lookup, access hook, zod, the queries).
 *
 *   BENCH_DATABASE_URL=postgres://… npx tsx bench/admin-lists.bench.ts
 * Without BENCH_DATABASE_URL a throwaway cluster is started from /usr/lib/postgresql/<v>/bin and removed after.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { permissionMap } from '@switchboard/contracts';
import { integrations, psaCompanies, psaContacts } from '@switchboard/db';
import { insertCustomRole } from '../apps/server/src/modules/roles/roles.repository';
import { createTestApp, type TestClient } from '../apps/server/test/test-app';
import { buildMsp, buildUser, signedInClient } from '../apps/server/test/factories';

const COMPANIES = 2_000;
const CONTACTS = 50_000;
const ITERATIONS = 200;
const WARMUP = 20;
// Issue #8: the companies and contacts list calls answer p95 <= 50 ms on PostgreSQL.
const P95_BUDGET_MS = 50;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

async function startCluster(): Promise<{ url: string; stop: () => void }> {
  const base = '/usr/lib/postgresql';
  const version = existsSync(base) ? readdirSync(base).filter((v) => existsSync(join(base, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a))[0] : undefined;
  if (!version) throw new Error('PostgreSQL is not installed (apt-get install postgresql), or set BENCH_DATABASE_URL');
  const bin = join(base, version, 'bin');
  const dir = mkdtempSync(join(tmpdir(), 'sb-bench-pg-'));
  const isRoot = process.getuid?.() === 0;
  const prefix = isRoot ? ['runuser', '-u', 'postgres', '--'] : [];
  if (isRoot) chownSync(dir, Number(execFileSync('id', ['-u', 'postgres']).toString().trim()), Number(execFileSync('id', ['-g', 'postgres']).toString().trim()));
  const exec = (args: string[]) => {
    const [command, ...rest] = [...prefix, ...args];
    if (!command || spawnSync(command, rest, { stdio: ['ignore', 'ignore', 'inherit'] }).status !== 0) throw new Error(`failed: ${args.join(' ')}`);
  };
  exec([join(bin, 'initdb'), '-D', join(dir, 'data'), '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8']);
  const port = await freePort();
  exec([join(bin, 'pg_ctl'), '-D', join(dir, 'data'), '-l', join(dir, 'pg.log'), '-o', `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir}`, '-w', 'start']);
  console.log(`PostgreSQL ${version} on port ${port}`);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () => {
      exec([join(bin, 'pg_ctl'), '-D', join(dir, 'data'), '-m', 'immediate', '-w', 'stop']);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// Every statement the app sends through node-postgres while `captured` is set (BENCH_EXPLAIN=1 explains one call of each kind).
let captured: { text: string; values: unknown[] }[] | null = null;
const clientPrototype = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
const originalQuery = clientPrototype.query;
clientPrototype.query = function capturedQuery(this: unknown, ...args: unknown[]) {
  const [first, second] = args;
  if (captured && typeof first === 'object' && first !== null && typeof (first as { text?: unknown }).text === 'string') {
    captured.push({ text: (first as { text: string }).text, values: (first as { values?: unknown[] }).values ?? (Array.isArray(second) ? (second as unknown[]) : []) });
  } else if (captured && typeof first === 'string') captured.push({ text: first, values: Array.isArray(second) ? (second as unknown[]) : [] });
  return originalQuery.apply(this, args);
};

/** The statements one call sends, each with its EXPLAIN (ANALYZE, BUFFERS) plan, run on `serverUrl`'s database. */
async function explainCall(client: TestClient, url: string, databaseUrl: string): Promise<string> {
  captured = [];
  await client.get(url);
  const statements = captured;
  captured = null;
  const direct = new pg.Client({ connectionString: databaseUrl });
  await direct.connect();
  const lines: string[] = [`${statements.length} statements`];
  try {
    for (const statement of statements) {
      if (!/^\s*(select|with)/i.test(statement.text)) {
        lines.push(`  -- ${statement.text.slice(0, 160)}`);
        continue;
      }
      const plan = await direct.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${statement.text}`, statement.values);
      lines.push(`  -- ${statement.text.slice(0, 400)}`, ...plan.rows.map((row) => `     ${row['QUERY PLAN']}`));
    }
  } finally {
    await direct.end();
  }
  return lines.join('\n');
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;

async function measure(client: TestClient, url: string): Promise<{ p50: number; p95: number; max: number; total: string }> {
  let total = '';
  for (let i = 0; i < WARMUP; i += 1) await client.get(url);
  const times: number[] = [];
  for (let i = 0; i < ITERATIONS; i += 1) {
    const started = performance.now();
    const response = await client.get(url);
    times.push(performance.now() - started);
    if (response.statusCode !== 200) throw new Error(`${url} answered ${response.statusCode}: ${response.body.slice(0, 300)}`);
    const answer = response.json<{ total: number; isTotalCapped?: boolean }>();
    total = `${answer.total}${answer.isTotalCapped === true ? '+' : ''}`;
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95), max: times[times.length - 1] ?? Number.NaN, total };
}

const cluster = process.env.BENCH_DATABASE_URL ? null : await startCluster();
process.env.TEST_DATABASE_URL = process.env.BENCH_DATABASE_URL ?? cluster?.url ?? '';
const t = await createTestApp();
let failed = false;
try {
  const db = t.deps.database.db;
  const msp = await buildMsp(t, { name: 'Bench MSP' });
  const adminUser = await buildUser(t, msp, { role: 'Admin' });
  // The Contacts view is the admin option of those without technicianUserManagement (01 §6, decisions 12).
  const keeperRoleId = (await insertCustomRole(t.deps.database.db, msp.id, 'Contacts keeper', permissionMap(['clientUserManagement']))).id;
  const keeperUser = await buildUser(t, msp, { roleId: keeperRoleId });
  await db.insert(integrations).values({ mspId: msp.id, psaType: 'CONNECTWISE', settings: {}, secretCiphertext: '', keyHint: '' });
  // A second tenant of the same size, so every query has to find its MSP's rows among others'.
  const other = await buildMsp(t, { name: 'Other MSP' });

  const seedStarted = performance.now();
  for (const tenant of [msp, other]) {
    const companyRows = Array.from({ length: COMPANIES }, (_, index) => ({
      mspId: tenant.id,
      psaType: 'CONNECTWISE' as const,
      externalId: String(10_000 + index),
      name: `${['Acme', 'Globex', 'Initech', 'Umbrella', 'Hooli', 'Stark'][index % 6] ?? 'Co'} ${index}`,
      identifier: `CO${index}`,
      companyTypes: [index % 4 === 0 ? 'Prospect' : 'Client'],
      city: 'Denver',
    }));
    const companyIds: string[] = [];
    for (let start = 0; start < companyRows.length; start += 1_000) {
      const inserted = await db.insert(psaCompanies).values(companyRows.slice(start, start + 1_000)).returning({ id: psaCompanies.id });
      companyIds.push(...inserted.map((row) => row.id));
    }
    for (let start = 0; start < CONTACTS; start += 2_000) {
      const batch = Array.from({ length: Math.min(2_000, CONTACTS - start) }, (_, offset) => {
        const index = start + offset;
        const company = index % COMPANIES;
        return {
          mspId: tenant.id,
          psaType: 'CONNECTWISE' as const,
          externalId: String(500_000 + index),
          externalCompanyId: String(10_000 + company),
          companyRowId: companyIds[company] ?? null,
          firstName: ['Ada', 'Alan', 'Grace', 'Linus', 'Margaret', 'Ken', 'Barbara'][index % 7] ?? 'Pat',
          lastName: `Person${index}`,
          email: `person${index}@example.com`,
          isActive: index % 10 !== 0,
        };
      });
      await db.insert(psaContacts).values(batch);
    }
  }
  // The steady state autovacuum keeps: statistics and a visibility map (index-only counts).
  await db.execute(sql`vacuum analyze`);
  console.log(`seeded 2 MSPs × ${COMPANIES} companies and ${CONTACTS} contacts in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`);

  // The test app's own database on that server (EXPLAIN runs there, on its own connection).
  const explainUrl = new URL(process.env.TEST_DATABASE_URL ?? '');
  const [current] = (await t.deps.database.executeSql('select current_database() as name')).rows as { name: string }[];
  explainUrl.pathname = `/${current?.name ?? ''}`;
  const base = `/db/${msp.customDomain}`;
  const cases: Array<[string, string]> = [
    ['companies, page 1', `${base}/psaClients`],
    ['companies, page 60 (last)', `${base}/psaClients?page=67`],
    ['companies, search "globex 1"', `${base}/psaClients?search=globex%201`],
    ['companies, client type Prospect', `${base}/psaClients?clientType=Prospect`],
    ['company contacts (A-009), Active', `${base}/psaContactsByClientId?psaCompanyId=10042`],
    ['company contacts (A-009), other, search', `${base}/psaContactsByClientId?psaCompanyId=10042&active=false&search=person`],
    ['contacts view, page 1', `${base}/psaContacts`],
    ['contacts view, page 334 (last under the cap)', `${base}/psaContacts?page=334`],
    ['contacts view, search "person4242"', `${base}/psaContacts?search=person4242`],
    ['contacts view, search "gra" (trigram)', `${base}/psaContacts?search=gra`],
    ['contacts view, search "li" (prefix)', `${base}/psaContacts?search=li`],
    ['contacts view, search "k" (prefix)', `${base}/psaContacts?search=k`],
    ['contacts view, search "ada person1"', `${base}/psaContacts?search=ada%20person1`],
  ];
  const past = await (await signedInClient(t, keeperUser, '10.9.1.1')).get(`${base}/psaContacts?page=335`);
  console.log(`past the page cap (page 335 of 30): ${past.statusCode} ${past.json<{ detail?: string }>().detail ?? ''}`);
  const load = () => loadavg().map((value) => value.toFixed(1)).join(' / ');
  console.log(`load average (1 / 5 / 15 min) before the calls: ${load()}`);
  console.log(`\n${'call'.padEnd(48)} ${'rows'.padStart(6)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)} ${'max ms'.padStart(8)}`);
  for (const [index, [label, url]] of cases.entries()) {
    // One client address per call kind: the global limit of 600 requests a minute per address is not what is measured.
    const admin = await signedInClient(t, url.includes('/psaContacts?') || url.endsWith('/psaContacts') ? keeperUser : adminUser, `10.9.0.${index + 1}`);
    if (process.env.BENCH_EXPLAIN === '1') console.log(`\n${label}\n${await explainCall(admin, url, explainUrl.toString())}`);
    const result = await measure(admin, url);
    const isOver = result.p95 > P95_BUDGET_MS;
    failed ||= isOver;
    console.log(`${label.padEnd(48)} ${String(result.total).padStart(6)} ${result.p50.toFixed(1).padStart(8)} ${result.p95.toFixed(1).padStart(8)} ${result.max.toFixed(1).padStart(8)}${isOver ? `  OVER ${P95_BUDGET_MS} ms` : ''}`);
  }
  console.log(`load average after the calls: ${load()}`);
  console.log(`\n${ITERATIONS} calls each after ${WARMUP} warm-up calls; budget p95 <= ${P95_BUDGET_MS} ms: ${failed ? 'NOT MET' : 'met'}`);
} finally {
  await t.close();
  cluster?.stop();
}
process.exitCode = failed ? 1 : 0;
