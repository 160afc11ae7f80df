// Sizing figures for docs/operations.md: one production replica (the built bundle, NODE_ENV=production)
// on PostgreSQL, a signed-in technician, closed-loop load for a few seconds per route. Prints
// req/s, p50/p99 latency, the replica's CPU milliseconds per request and its memory.
//   npm run build:server && node scripts/measure-load.mjs postgres://postgres@127.0.0.1:5432/postgres [seconds] [concurrency]
// Requests come from 200 loopback addresses so the per-IP limits do not cap the figures.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, request as httpRequest } from 'node:http';
import pg from 'pg';
import { browser, freePort, startSmtpSink } from './replica-test.mjs';

const root = new URL('..', import.meta.url).pathname.replace(/\/$/, '');
const serverUrl = process.argv[2];
const seconds = Number(process.argv[3] ?? 8);
const concurrency = Number(process.argv[4] ?? 16);
if (!serverUrl) {
  console.error('usage: node scripts/measure-load.mjs postgres://… [seconds] [concurrency]');
  process.exit(2);
}
/** One GET on a keep-alive agent bound to its own loopback address; resolves to the status. */
function get(agent, url, cookie) {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { agent, headers: { cookie } }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode));
    });
    req.on('error', reject);
    req.end();
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** utime + stime of a process in milliseconds, and its resident memory in MB (Linux /proc). */
function processUsage(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  const ticks = Number(stat[11]) + Number(stat[12]);
  const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  return { cpuMs: ticks * 10, rssMb: rss };
}

const admin = new pg.Client({ connectionString: serverUrl });
await admin.connect();
const name = `sb_load_${process.pid}`;
await admin.query(`CREATE DATABASE ${name}`);
const databaseUrl = new URL(serverUrl);
databaseUrl.pathname = `/${name}`;
const smtp = await startSmtpSink();
const port = await freePort();
const server = spawn('node', [join(root, 'apps/server/dist/main.js')], {
  env: {
    PATH: process.env.PATH,
    NODE_ENV: 'production',
    PORT: String(port),
    DATABASE_URL: databaseUrl.toString(),
    SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
    PUBLIC_URL: 'https://load.test',
    SESSION_SECRET: randomBytes(32).toString('base64url'),
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'warn',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const base = `http://127.0.0.1:${port}`;
try {
  for (let i = 0; ; i++) {
    if ((await fetch(`${base}/ready`).catch(() => ({ status: 0 }))).status === 200) break;
    if (i > 300) throw new Error('server did not become ready');
    await sleep(100);
  }
  const user = browser(base);
  const domain = `load-${Date.now().toString(36)}`;
  const form = new FormData();
  for (const [key, value] of Object.entries({ mspName: 'Load IT', customDomain: domain, companyPhoneNumber: '3035550100', webSiteUrl: 'https://load.example' })) form.set(key, value);
  const msp = await user.request('POST', '/db/msp', { form });
  const email = `tech@${domain}.example`;
  await user.request('POST', `/db/${domain}/technicianUsers/add`, { json: { firstName: 'Lo', lastName: 'Ad', phoneNumber: '3035550123', email, password: 'Load!Test99' }, headers: { 'x-bootstrap-token': msp.body.bootstrapToken } });
  const challenge = await user.request('POST', `/db/${domain}/technicianUsers/signin`, { json: { emailId: email, password: 'Load!Test99' } });
  const code = /^(\d{6})\r?$/m.exec(smtp.messages.at(-1)?.raw ?? '')?.[1];
  await user.request('POST', `/db/${domain}/technicianUsers/verifyCode`, { json: { challengeId: challenge.body.challengeId, code } });
  if (!user.cookie) throw new Error('sign-in failed');

  const agents = Array.from({ length: 200 }, (_, i) => new Agent({ keepAlive: true, maxSockets: 4, localAddress: `127.0.1.${i + 1}` }));
  const routes = [
    ['GET /health (no database)', '/health'],
    ['GET /ready (SELECT 1)', '/ready'],
    ['session check', '/auth/api/auth/microsoft-user'],
    ['roles list (authenticated)', `/db/${domain}/roles/all`],
  ];
  console.log(`one replica, PostgreSQL on the same host, ${concurrency} concurrent clients, ${seconds} s per route\n`);
  console.log('route                         req/s    p50 ms  p99 ms  CPU ms/req  RSS MB  non-200');
  for (const [label, path] of routes) {
    const latencies = [];
    let errors = 0;
    const statuses = new Map();
    let next = 0;
    const before = processUsage(server.pid);
    const end = Date.now() + seconds * 1000;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (Date.now() < end) {
          const t0 = performance.now();
          const status = await get(agents[next++ % agents.length], `${base}${path}`, `sb_session=${user.cookie}`);
          latencies.push(performance.now() - t0);
          if (status !== 200) {
            errors += 1;
            statuses.set(status, (statuses.get(status) ?? 0) + 1);
          }
        }
      }),
    );
    const after = processUsage(server.pid);
    latencies.sort((a, b) => a - b);
    const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))].toFixed(1);
    const rps = latencies.length / seconds;
    console.log(
      `${label.padEnd(28)} ${rps.toFixed(0).padStart(6)}  ${pct(0.5).padStart(7)} ${pct(0.99).padStart(7)}  ${((after.cpuMs - before.cpuMs) / latencies.length).toFixed(2).padStart(10)}  ${after.rssMb.toFixed(0).padStart(6)}  ${String(errors).padStart(7)}${errors ? ` ${JSON.stringify(Object.fromEntries(statuses))}` : ''}`,
    );
  }
  for (const agent of agents) agent.destroy();
} finally {
  server.kill('SIGTERM');
  await new Promise((resolve) => server.on('exit', resolve));
  await smtp.close();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
}
