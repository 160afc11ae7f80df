// The two-replica test (issue #11), run by `npm test` after the PostgreSQL API tests, or alone:
//   node scripts/replica-test.mjs postgres://postgres@127.0.0.1:5432/postgres
// Debian's nginx in front of two production servers (the built bundle, run with plain `node` from a
// copy where only production dependencies are installed) on one PostgreSQL, mail to a local SMTP
// sink. The replicas start together on an empty database; a user signs up an MSP and its first
// technician through the proxy, starts a sign-in, and the replica that took the password step is
// killed (SIGKILL) before the mailed code is entered: the code, the session and every later request
// carry on through the other replica, with nothing lost or duplicated. Then the killed replica comes
// back and the signed-in user's requests spread over both. With the MSP connected to the PSA simulator
// (its larger dataset), a replica is SIGKILLed in the middle of work three times, each time coming back
// afterwards: (b) while it streams the clients import (the browser resumes the same import by jobId
// through the survivor; the saved copies equal the simulator's companies), (a) while it holds a batch
// ticket sync of ~12,000 tickets (the survivor takes the run over by heartbeat, decision 021; the copies
// equal the simulator's tickets, each counted once), (c) while a technician's timer runs (the survivor
// completes and closes the ticket: one time entry and one close in the PSA). Then one replica is
// stopped gracefully under load, and the production logs are searched for e-mail addresses, tokens,
// hashes, passwords and codes.
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, createWriteStream } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aptInstall, ensureWebBuild, log, root, run } from './lib.mjs';

const NGINX = '/usr/sbin/nginx';
/** nginx connects to the replicas from this address; the replicas trust X-Forwarded-* from it only. */
const PROXY_ADDRESS = '127.0.0.2';
const PASSWORD = 'Replica!Test9';
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(256)]);

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** The simulator's larger dataset (its README: 2,000 companies + 50,000 contacts + 100,000 tickets start in about a second). */
const SIM_SCALE = { companies: 2_000, contacts: 5_000, tickets: 100_000 };
/** The simulator's fixed ConnectWise credentials (packages/psa-sim/README.md). */
const SIM_CW = { companyId: 'northwind', publicKey: 'SimPublicKey1', privateKey: 'SimPrivateKey1', clientId: '00000000-0000-4000-8000-000000000001' };
/** A batch sync takes at most 90 days; the simulator's scale tickets are dated in 2024–2025. */
const SYNC_RANGE = { startDate: '2025-10-03', endDate: '2025-12-31' };
const SYNC_TAKEOVER_AFTER_MS = 3_000;

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(address.port));
    });
    server.on('error', reject);
  });
}

class Failure extends Error {}
function check(condition, message) {
  if (!condition) throw new Failure(message);
  log(`  ✓ ${message}`);
}

/** nginx from Debian, installed like chromium and postgresql are; null when it cannot be had. */
export function ensureNginx() {
  if (existsSync(NGINX)) return NGINX;
  log("nginx is not installed; installing Debian's nginx with apt…");
  if (aptInstall(['nginx'])) spawnSync('sh', ['-c', 'systemctl stop nginx 2>/dev/null; systemctl disable nginx 2>/dev/null; true']);
  return existsSync(NGINX) ? NGINX : null;
}

/** A copy of the repository's manifests with `npm ci --omit=dev` run in it, plus the built server. */
function productionCopy(dir) {
  const manifests = ['package.json', 'package-lock.json'];
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  for (const path of Object.keys(lock.packages)) {
    if (path !== '' && !path.includes('node_modules') && existsSync(join(root, path, 'package.json'))) manifests.push(join(path, 'package.json'));
  }
  for (const file of manifests) {
    mkdirSync(join(dir, file, '..'), { recursive: true });
    cpSync(join(root, file), join(dir, file));
  }
  const npmArgs = ['ci', '--omit=dev', '--no-audit', '--no-fund', '--loglevel=error'];
  // The npm cache already holds every package after the first `npm ci`; fall back to the registry.
  if (run('npm', [...npmArgs, '--offline'], { cwd: dir }) !== 0 && run('npm', npmArgs, { cwd: dir }) !== 0) throw new Failure('npm ci --omit=dev failed');
  cpSync(join(root, 'apps/server/dist'), join(dir, 'apps/server/dist'), { recursive: true });
  cpSync(join(root, 'apps/web/dist'), join(dir, 'apps/web/dist'), { recursive: true });
  const tsx = spawnSync('node', ['--input-type=module', '-e', "await import('tsx')"], { cwd: join(dir, 'apps/server'), encoding: 'utf8' });
  check(tsx.status !== 0, 'the production copy has no dev tooling (tsx cannot be imported there)');
}

/** A tiny SMTP server that keeps every message, so the test can read the mailed 2FA code. */
export async function startSmtpSink() {
  const { SMTPServer } = await import('smtp-server');
  const messages = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks = [];
      stream.on('data', (chunk) => chunks.push(chunk));
      stream.on('end', () => {
        messages.push({ to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()), raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  const port = await freePort();
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { port, messages, close: () => new Promise((resolve) => server.close(resolve)) };
}

function nginxConfig({ dir, port, upstreams }) {
  return `# Generated by scripts/replica-test.mjs; the proxy settings are deploy/nginx/switchboard-proxy.conf.
worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/nginx-error.log warn;
events { worker_connections 256; }
http {
  access_log ${dir}/nginx-access.log;
  client_body_temp_path ${dir}/tmp/body;
  proxy_temp_path ${dir}/tmp/proxy;
  fastcgi_temp_path ${dir}/tmp/fastcgi;
  uwsgi_temp_path ${dir}/tmp/uwsgi;
  scgi_temp_path ${dir}/tmp/scgi;
  upstream switchboard {
${upstreams.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=3s;`).join('\n')}
    keepalive 16;
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://switchboard;
      proxy_bind ${PROXY_ADDRESS};
      include ${join(root, 'deploy/nginx/switchboard-proxy.conf')};
      # Which replica answered, for the test to see the spread.
      add_header X-Served-By $upstream_addr always;
    }
  }
}
`;
}

/** A browser-like client through the proxy: keeps the session cookie, sends the CSRF header and Origin. */
export function browser(base) {
  let cookie;
  return {
    get cookie() {
      return cookie;
    },
    async request(method, path, { json, form, headers = {} } = {}) {
      const init = { method, headers: { 'x-switchboard-csrf': '1', origin: base, ...(cookie ? { cookie: `sb_session=${cookie}` } : {}), ...headers } };
      if (json !== undefined) {
        init.body = JSON.stringify(json);
        init.headers['content-type'] = 'application/json';
      } else if (form) {
        init.body = form;
      }
      const response = await fetch(`${base}${path}`, init);
      for (const line of response.headers.getSetCookie()) {
        const match = /^sb_session=([^;]*)/.exec(line);
        if (match) cookie = match[1] === '' ? undefined : match[1];
      }
      const text = await response.text();
      let body;
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
      return { status: response.status, body, servedBy: response.headers.get('x-served-by') ?? '', bytes: Buffer.from(text, 'latin1') };
    },
  };
}

/** The PSA simulator with a large dataset, run from the repository (a test boundary, like the SMTP sink). */
async function startSimulator(logFile) {
  const port = await freePort();
  const out = createWriteStream(logFile, { flags: 'a' });
  const child = spawn(process.execPath, ['--import', 'tsx', 'packages/psa-sim/src/cli.ts', '--port', String(port), ...Object.entries(SIM_SCALE).flatMap(([key, value]) => [`--scale-${key}`, String(value)])], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.pipe(out);
  child.stderr.pipe(out);
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const url = `http://127.0.0.1:${port}`;
  const auth = { authorization: `Basic ${Buffer.from(`${SIM_CW.companyId}+${SIM_CW.publicKey}:${SIM_CW.privateKey}`).toString('base64')}`, clientid: SIM_CW.clientId };
  const cw = async (path) => {
    const response = await fetch(`${url}/v4_6_release/apis/3.0/${path}`, { headers: auth });
    if (response.status !== 200) throw new Failure(`simulator ${path} answered ${response.status}`);
    return response.json();
  };
  return {
    entry: { child, exited },
    url,
    host: `127.0.0.1:${port}`,
    setLatency: async (latencyMs) => {
      const response = await fetch(`${url}/__sim/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ latencyMs }) });
      if (response.status !== 200) throw new Failure(`simulator faults answered ${response.status}`);
    },
    get: (path) => cw(path),
    count: async (list, conditions) => (await cw(`${list}/count${conditions ? `?conditions=${encodeURIComponent(conditions)}` : ''}`)).count,
    /** Every id of a list under conditions, from the simulator itself (what the copies must equal). */
    ids: async (list, conditions) => {
      const ids = [];
      for (let page = 1; ; page++) {
        const rows = await cw(`${list}?fields=id&pageSize=1000&page=${page}&orderBy=id%20asc${conditions ? `&conditions=${encodeURIComponent(conditions)}` : ''}`);
        ids.push(...rows.map((row) => row.id));
        if (rows.length < 1000) return ids;
      }
    },
  };
}

/** Reads a server-sent event stream through the proxy, as a browser's EventSource does; `onEvent` sees each event. */
async function readEvents(base, path, cookie, onEvent) {
  const response = await fetch(`${base}${path}`, { headers: { accept: 'text/event-stream', cookie: `sb_session=${cookie}` } });
  const servedBy = response.headers.get('x-served-by') ?? '';
  if (response.status !== 200 || !response.body) throw new Failure(`${path} answered ${response.status}`);
  const decoder = new TextDecoder();
  let buffer = '';
  const events = [];
  let broken = false;
  try {
    for await (const bytes of response.body) {
      buffer += decoder.decode(bytes, { stream: true });
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message';
        const data = JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? 'null');
        events.push({ event, data });
        await onEvent({ event, data }, servedBy);
      }
    }
  } catch {
    broken = true; // the replica died under the stream: the connection is cut, as a browser would see it
  }
  return { servedBy, events, broken };
}

async function waitFor(description, probe, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (await probe()) return;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) throw new Failure(`timed out waiting for ${description}`);
    await sleep(200);
  }
}

/** Runs the test against a PostgreSQL server URL; returns 'passed', 'FAILED: …' or 'skipped (…)'. */
export async function runReplicaTest(serverUrl) {
  const nginx = ensureNginx();
  if (!nginx) return 'skipped (nginx could not be installed here)';
  const dir = mkdtempSync(join(tmpdir(), 'sb-replicas-'));
  mkdirSync(join(dir, 'tmp'));
  chmodSync(dir, 0o755);
  chmodSync(join(dir, 'tmp'), 0o777);
  const processes = new Set();
  let smtp;
  let sim;
  let admin;
  const databaseName = `sb_replicas_${process.pid}_${Date.now()}`;
  let passed = false;
  try {
    log('building the production server (node scripts/build-server.mjs)…');
    if (run('node', ['scripts/build-server.mjs']) !== 0) throw new Failure('the server build failed');
    ensureWebBuild();
    const copy = join(dir, 'app');
    log('installing production dependencies only (npm ci --omit=dev) in a throwaway copy…');
    productionCopy(copy);

    const pg = (await import('pg')).default;
    admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${databaseName}`);
    const databaseUrl = new URL(serverUrl);
    databaseUrl.pathname = `/${databaseName}`;

    smtp = await startSmtpSink();
    log(`starting the PSA simulator with its larger dataset (${Object.entries(SIM_SCALE).map(([k, v]) => `${v} ${k}`).join(', ')})…`);
    sim = await startSimulator(join(dir, 'psa-sim.log'));
    processes.add(sim.entry);
    await waitFor('the PSA simulator', async () => (await fetch(`${sim.url}/__sim/stats`)).status === 200, 60_000);
    const secrets = { SESSION_SECRET: randomBytes(32).toString('base64url'), ENCRYPTION_KEY: randomBytes(32).toString('hex') };
    const ports = [await freePort(), await freePort()];
    const logs = [join(dir, 'replica-a.log'), join(dir, 'replica-b.log')];
    const replicas = [null, null];
    const startReplica = (index) => {
      const out = createWriteStream(logs[index], { flags: 'a' });
      const child = spawn('node', ['apps/server/dist/main.js'], {
        cwd: copy,
        env: {
          PATH: process.env.PATH,
          NODE_ENV: 'production',
          HOST: '127.0.0.1',
          PORT: String(ports[index]),
          DATABASE_URL: databaseUrl.toString(),
          SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
          MAIL_FROM: 'Switchboard <no-reply@replicas.test>',
          PUBLIC_URL: 'https://switchboard.replicas.test',
          TRUST_PROXY: PROXY_ADDRESS,
          SHUTDOWN_TIMEOUT_MS: '8000',
          // Every request of this test comes from 127.0.0.1; leave room over the 4 sign-in calls it makes.
          AUTH_RATE_LIMIT_PER_IP: '20',
          // The simulator is on this machine; the SSRF guard lets only it through.
          OUTBOUND_ALLOW_LIST: sim.host,
          // Short, so the survivor takes a killed replica's sync over within seconds (decision 021).
          SYNC_TAKEOVER_AFTER_MS: String(SYNC_TAKEOVER_AFTER_MS),
          PSA_OUTBOX_INTERVAL_MS: '1000',
          ...secrets,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout.pipe(out);
      child.stderr.pipe(out);
      const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
      const entry = { child, exited, port: ports[index] };
      processes.add(entry);
      exited.then(() => processes.delete(entry));
      replicas[index] = entry;
      return entry;
    };
    const isReady = async (port) => (await fetch(`http://127.0.0.1:${port}/ready`)).status === 200;

    log('starting two replicas together on an empty database…');
    const t0 = Date.now();
    startReplica(0);
    startReplica(1);
    await waitFor('both replicas ready', async () => (await isReady(ports[0])) && (await isReady(ports[1])));
    check(true, `both replicas migrated the empty database and became ready (${Date.now() - t0} ms)`);

    const proxyPort = await freePort();
    writeFileSync(join(dir, 'nginx.conf'), nginxConfig({ dir, port: proxyPort, upstreams: ports }));
    const proxy = spawn(nginx, ['-c', join(dir, 'nginx.conf'), '-p', dir], { stdio: ['ignore', 'inherit', 'inherit'] });
    const proxyEntry = { child: proxy, exited: new Promise((resolve) => proxy.on('exit', resolve)) };
    processes.add(proxyEntry);
    const base = `http://127.0.0.1:${proxyPort}`;
    await waitFor('nginx', async () => (await fetch(`${base}/health`)).status === 200, 15_000);

    const page = await fetch(`${base}/auth/login`, { headers: { accept: 'text/html', 'sec-fetch-mode': 'navigate' } });
    check(page.status === 200 && (await page.text()).includes('<div id="root">'), 'the production server serves the built SPA through nginx');

    const user = browser(base);
    const upstreamOf = (index) => `127.0.0.1:${ports[index]}`;
    const indexOf = (servedBy) => [0, 1].find((i) => servedBy.split(', ').at(-1) === upstreamOf(i));

    // MSP sign-up and first technician, through the proxy.
    const domain = `replica-${Date.now().toString(36)}`;
    const form = new FormData();
    form.set('mspName', 'Replica IT');
    form.set('customDomain', domain);
    form.set('companyPhoneNumber', '3035550100');
    form.set('webSiteUrl', 'https://replica.example');
    form.set('file', new Blob([PNG], { type: 'image/png' }), 'logo.png');
    const created = await user.request('POST', '/db/msp', { form });
    check(created.status === 201, `MSP sign-up answered 201 (got ${created.status} from ${created.servedBy})`);
    const logoServers = new Set();
    for (let i = 0; i < 4; i++) {
      const response = await fetch(`${base}/db/msp/${domain}/logo`);
      const bytes = Buffer.from(await response.arrayBuffer());
      if (response.status !== 200 || !bytes.equals(PNG)) throw new Failure(`logo request ${i} answered ${response.status} with ${bytes.length} bytes`);
      logoServers.add(indexOf(response.headers.get('x-served-by') ?? ''));
    }
    check(logoServers.size === 2, 'the uploaded logo is served identically by both replicas (stored in PostgreSQL)');
    const email = `dana.${domain}@replica.example`;
    const technician = await user.request('POST', `/db/${domain}/technicianUsers/add`, {
      json: { firstName: 'Dana', lastName: 'Ruiz', phoneNumber: '3035550123', email, password: PASSWORD },
      headers: { 'x-bootstrap-token': created.body.bootstrapToken },
    });
    check(technician.status === 201, `first technician created with the bootstrap token (${technician.status})`);

    // Sign-in with 2FA; the replica that took the password step dies before the code is entered.
    const passwordStep = await user.request('POST', `/db/${domain}/technicianUsers/signin`, { json: { emailId: email, password: PASSWORD } });
    check(passwordStep.status === 200 && typeof passwordStep.body.challengeId === 'string', `password step accepted by ${passwordStep.servedBy}`);
    const killed = indexOf(passwordStep.servedBy);
    if (killed === undefined) throw new Failure(`cannot tell which replica answered (${passwordStep.servedBy})`);
    replicas[killed].child.kill('SIGKILL');
    await replicas[killed].exited;
    log(`  replica ${upstreamOf(killed)} killed (SIGKILL) between the password and the code`);
    const codeMails = smtp.messages.filter((m) => m.to.includes(email) && /verification code/i.test(m.raw));
    check(codeMails.length === 1, 'exactly one code mail reached the SMTP server');
    const code = /^(\d{6})\r?$/m.exec(codeMails[0].raw)?.[1];
    if (!code) throw new Failure('no 6-digit code in the mail');
    const verified = await user.request('POST', `/db/${domain}/technicianUsers/verifyCode`, { json: { challengeId: passwordStep.body.challengeId, code } });
    check(verified.status === 200 && user.cookie !== undefined, `the code was accepted by the surviving replica ${verified.servedBy}`);
    for (let i = 0; i < 6; i++) {
      const roles = await user.request('GET', `/db/${domain}/roles/all`);
      if (roles.status !== 200) throw new Failure(`roles request ${i} answered ${roles.status} from ${roles.servedBy}`);
    }
    check(true, 'the session works through the survivor (6 authenticated requests, all 200)');

    // The killed replica returns; the signed-in user's requests spread across both.
    startReplica(killed);
    await waitFor('the restarted replica', () => isReady(ports[killed]));
    await sleep(3_500); // nginx's fail_timeout for the replica it saw fail
    const spread = new Set();
    for (let i = 0; i < 10; i++) {
      const session = await user.request('GET', '/auth/api/auth/microsoft-user');
      if (session.status !== 200 || session.body.authenticated !== true) throw new Failure(`session check ${i}: ${session.status} ${JSON.stringify(session.body)}`);
      spread.add(indexOf(session.servedBy));
    }
    check(spread.size === 2, 'after the restart, one session is served by both replicas (10 session checks)');

    // Kills in the middle of work (issue #11): an import stream, a batch ticket sync, a technician's timer.
    const workDb = new pg.Client({ connectionString: databaseUrl.toString() });
    await workDb.connect();
    const rowsOf = async (sql, params) => (await workDb.query(sql, params)).rows;
    const [{ id: mspId }] = await rowsOf('SELECT id FROM msps WHERE custom_domain = $1', [domain]);
    const killReplica = async (index, why) => {
      replicas[index].child.kill('SIGKILL');
      await replicas[index].exited;
      log(`  replica ${upstreamOf(index)} killed (SIGKILL) ${why}`);
    };
    const restartReplica = async (index) => {
      startReplica(index);
      await waitFor('the restarted replica', () => isReady(ports[index]));
      await sleep(3_500); // nginx's fail_timeout for the replica it saw fail
    };
    const connected = await user.request('POST', `/db/${domain}/integrations/update`, {
      json: { connectWiseManageIntegration: { companyId: SIM_CW.companyId, publicKey: SIM_CW.publicKey, privateKey: SIM_CW.privateKey, psaUrl: sim.url, clientId: SIM_CW.clientId } },
    });
    check(connected.status === 200, `the MSP's ConnectWise connection to the simulator was saved (${connected.status} ${connected.status === 200 ? '' : JSON.stringify(connected.body)})`);

    // (b) The clients import (A-059): the replica streaming it dies after the first chunk; the browser resumes the
    // same import (jobId, after the last row it holds) through the survivor, saves what it got, and the copies equal
    // the simulator's companies.
    const simCompanies = await sim.ids('company/companies');
    await sim.setLatency(400);
    let importJobId;
    let streamReplica;
    const firstStream = await readEvents(base, `/psa/psa/progressive/clients/fetchStream?mspCustomDomain=${domain}`, user.cookie, async ({ event, data }, servedBy) => {
      if (event === 'started') importJobId = data.importJobId;
      if (event === 'data' && streamReplica === undefined) {
        streamReplica = indexOf(servedBy);
        if (streamReplica === undefined) throw new Failure(`cannot tell which replica streams (${servedBy})`);
        await killReplica(streamReplica, 'in the middle of the clients import stream');
      }
    });
    const firstRows = firstStream.events.filter((e) => e.event === 'data').flatMap((e) => e.data);
    check(
      typeof importJobId === 'string' && firstRows.length > 0 && firstRows.length < simCompanies.length && !firstStream.events.some((e) => e.event === 'complete'),
      `the import stream was cut after ${firstRows.length} of ${simCompanies.length} companies, with no complete event`,
    );
    await sim.setLatency(0);
    const lastHeld = firstRows.at(-1)?.id ?? 0;
    const resumed = await readEvents(base, `/psa/psa/progressive/clients/fetchStream?mspCustomDomain=${domain}&jobId=${importJobId}&afterId=${lastHeld}&received=${firstRows.length}`, user.cookie, async () => undefined);
    const resumedRows = resumed.events.filter((e) => e.event === 'data').flatMap((e) => e.data);
    const complete = resumed.events.find((e) => e.event === 'complete')?.data;
    check(
      resumed.events[0]?.data?.importJobId === importJobId && complete?.status === 'COMPLETE' && complete?.fetched === simCompanies.length,
      `the same import resumed through the survivor ${resumed.servedBy} and completed (${complete?.fetched} of ${simCompanies.length})`,
    );
    const heldRows = [...firstRows, ...resumedRows];
    const streamedIds = heldRows.map((row) => row.id);
    check(
      (resumedRows[0]?.id ?? 0) > lastHeld && new Set(streamedIds).size === streamedIds.length && streamedIds.join() === simCompanies.join(),
      `the resumed stream carried on after company ${lastHeld}: the two streams delivered every company of the simulator exactly once`,
    );
    for (let start = 0; start < heldRows.length; start += 1_000) {
      const saved = await user.request('POST', '/psa/psa/progressive/clients/save-selected', { json: { mspCustomDomain: domain, importJobId, selectedClients: heldRows.slice(start, start + 1_000) } });
      if (saved.status !== 200) throw new Failure(`save-selected answered ${saved.status} ${JSON.stringify(saved.body)}`);
    }
    const [companyCopies] = await rowsOf('SELECT count(*)::int AS n, count(DISTINCT external_id)::int AS d FROM psa_companies WHERE msp_id = $1', [mspId]);
    const importJobs = await rowsOf("SELECT status, fetched, total, saved FROM import_jobs WHERE msp_id = $1 AND kind = 'clients'", [mspId]);
    check(companyCopies.n === simCompanies.length && companyCopies.d === simCompanies.length, `company copies equal the simulator's: ${companyCopies.n} rows, ${companyCopies.d} distinct, ${simCompanies.length} in the PSA`);
    check(importJobs.length === 1 && importJobs[0].status === 'COMPLETE' && importJobs[0].fetched === simCompanies.length, `one import job, COMPLETE, ${importJobs[0]?.fetched} fetched (no second job for the resumed stream)`);
    await restartReplica(streamReplica);

    // (a) The batch ticket sync (A-058) of ~12,000 simulator tickets: one replica holds it; the other starts, the
    // holder is killed mid-run; the survivor takes the run over once its heartbeat is stale (decision 021).
    const ticketConditions = `board/id=1 and dateEntered>=[${SYNC_RANGE.startDate}T00:00:00Z] and dateEntered<[${new Date(Date.parse(`${SYNC_RANGE.endDate}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 19)}Z]`;
    const simTickets = await sim.ids('service/tickets', ticketConditions);
    check(simTickets.length > 5_000, `the simulator holds ${simTickets.length} tickets of board 1 in ${SYNC_RANGE.startDate} – ${SYNC_RANGE.endDate}`);
    const holder = 0;
    const other = 1;
    replicas[other].child.kill('SIGTERM');
    await replicas[other].exited;
    await sleep(3_500);
    await sim.setLatency(1_200);
    const syncStarted = await user.request('POST', '/psa/api/batch/sync-boards', { json: { mspCustomDomain: domain, boardIds: [1], ...SYNC_RANGE } });
    check(syncStarted.status === 200 && indexOf(syncStarted.servedBy) === holder, `the sync was started on ${syncStarted.servedBy} (${syncStarted.status})`);
    const runId = syncStarted.body.parentRunId;
    const runRow = async () => (await rowsOf('SELECT phase2_status, phase2_processed, attempts, heartbeat_at, last_ticket_id FROM sync_runs WHERE msp_id = $1 AND id = $2', [mspId, runId]))[0];
    await waitFor('phase 2 to write its first batch', async () => (await runRow()).phase2_processed > 0, 90_000);
    startReplica(other);
    await waitFor('the second replica', () => isReady(ports[other]));
    const atKill = await runRow();
    if (atKill.phase2_status !== 'RUNNING' || atKill.phase2_processed >= simTickets.length) throw new Failure(`the sync finished before the kill (${atKill.phase2_processed}); raise the simulator's latency`);
    await killReplica(holder, `while it held the sync (${atKill.phase2_processed} of ${simTickets.length} tickets written)`);
    await sim.setLatency(0);
    const killedAt = Date.now();
    let syncStatus;
    await waitFor(
      'the survivor to finish the sync',
      async () => {
        syncStatus = (await user.request('GET', `/psa/api/batch/status?mspCustomDomain=${domain}&parentRunId=${runId}`)).body;
        return syncStatus?.phase2?.status === 'COMPLETED' || syncStatus?.phase2?.status === 'FAILED';
      },
      120_000,
    );
    const finishedRun = await runRow();
    check(syncStatus.phase2.status === 'COMPLETED' && finishedRun.attempts === 2, `the survivor took the run over (claims: ${finishedRun.attempts}) and completed it ${((Date.now() - killedAt) / 1000).toFixed(1)} s after the kill`);
    const copies = (await rowsOf('SELECT external_id FROM psa_tickets WHERE msp_id = $1 ORDER BY external_id::int', [mspId])).map((row) => Number(row.external_id));
    check(copies.length === simTickets.length && copies.join() === simTickets.join(), `the ticket copies equal the simulator's: ${copies.length} copies, ${new Set(copies).size} distinct, ${simTickets.length} in the PSA`);
    check(syncStatus.phase2.processed === simTickets.length, `the run counted each ticket once (${syncStatus.phase2.processed}): the killed batch rolled back, the takeover resumed from the checkpoint`);
    await restartReplica(holder);

    // (c) A technician's timer: the replica that started it dies; the timer runs on, and completing and closing the
    // ticket through the survivor gives the PSA exactly one time entry and one close.
    // The board's queue configuration, as the board setup screens store it (the queue API tests' fixture does the same).
    const boardStatuses = await sim.get('service/boards/1/statuses');
    const boardTypes = await sim.get('service/boards/1/types');
    const boardSubtypes = await sim.get('service/boards/1/subtypes');
    const priorities = await sim.get('service/priorities');
    const [member] = await sim.get('system/members');
    const newStatus = boardStatuses.find((status) => status.name === 'New') ?? boardStatuses[0];
    const closing = boardStatuses.find((status) => status.closedStatus);
    await rowsOf("INSERT INTO psa_ticketing_configs (msp_id, psa_type) VALUES ($1, 'CONNECTWISE')", [mspId]);
    await rowsOf(
      "INSERT INTO board_configs (msp_id, psa_type, board_id, board_name, new_status_id, new_status_name, closing_status_id, closing_status_name) VALUES ($1, 'CONNECTWISE', 1, 'Help Desk', $2, $3, $4, $5)",
      [mspId, newStatus.id, newStatus.name, closing.id, closing.name],
    );
    for (const priority of priorities) await rowsOf("INSERT INTO board_priorities (msp_id, psa_type, board_id, priority_id, priority_name, priority_score) VALUES ($1, 'CONNECTWISE', 1, $2, $3, 50)", [mspId, priority.id, priority.name]);
    for (const [position, type] of boardTypes.entries()) {
      await rowsOf("INSERT INTO board_types (msp_id, psa_type, board_id, type_id, type_name, position) VALUES ($1, 'CONNECTWISE', 1, $2, $3, $4)", [mspId, type.id, type.name, position]);
      for (const [index, subtype] of boardSubtypes.filter((each) => (each.typeAssociationIds ?? []).includes(type.id)).entries()) {
        await rowsOf("INSERT INTO board_subtypes (msp_id, psa_type, board_id, type_id, subtype_id, subtype_name, subtype_score, tier, sla_hours, position) VALUES ($1, 'CONNECTWISE', 1, $2, $3, $4, 10, 'Tier1', 8, $5)", [mspId, type.id, subtype.id, subtype.name, index]);
      }
    }
    const [dana] = await rowsOf('SELECT id FROM users WHERE msp_id = $1', [mspId]);
    await rowsOf("UPDATE users SET psa_member_id = $2, tier_level = 'Tier1' WHERE msp_id = $1 AND id = $3", [mspId, String(member.id), dana.id]);
    await sleep(2_500); // AUTH_CACHE_TTL_MS: the sessions cached by both replicas see the new tier
    const next = await user.request('GET', `/db/api/ticketQueue/nextTickets?mspCustomDomain=${domain}&techId=${dana.id}&limit=1`);
    const ticketId = next.body?.tickets?.[0]?.ticketId;
    check(next.status === 200 && typeof ticketId === 'number', `the technician took ticket ${ticketId} from the queue of synchronized tickets (${next.status})`);
    const timerPath = (action) => `/db/api/ticketActivities/${domain}/${action}`;
    const timerStarted = await user.request('POST', timerPath('start'), { json: { ticketId, techId: dana.id } });
    check(timerStarted.status === 200 && timerStarted.body.state === 'running', `the timer started on ${timerStarted.servedBy}`);
    const timerReplica = indexOf(timerStarted.servedBy);
    await sleep(1_500);
    await killReplica(timerReplica, 'while the timer was running');
    const timerSessions = await user.request('GET', `/db/api/ticketActivities/${domain}/${ticketId}/${dana.id}`);
    const openSession = timerSessions.body?.sessions?.find((session) => session.endTime === null);
    check(
      timerSessions.status === 200 && timerSessions.body.isActive === true && timerSessions.body.sessions.length === 1 && openSession?.startTime === timerStarted.body.sessionStarted,
      `the survivor ${timerSessions.servedBy} shows the same session still running (${JSON.stringify(timerSessions.body)})`,
    );
    await sleep(1_000);
    const completed = await user.request('POST', `/db/api/ticketQueue/completeticket?mspCustomDomain=${domain}&ticketId=${ticketId}&techId=${dana.id}`);
    const closed = await user.request('POST', `/psa/closeTicket?mspCustomDomain=${domain}&ticketId=${ticketId}&boardId=1`);
    check(completed.status === 200 && closed.status === 200 && closed.body.closed === true, `the survivor completed (${completed.status}, ${completed.body.totalWorkHours} h) and closed (${closed.status}) the ticket`);
    const timeEntries = () => sim.count('time/entries', `chargeToId=${ticketId}`);
    await waitFor('the time entry and the close in the PSA', async () => (await timeEntries()) >= 1 && (await sim.get(`service/tickets/${ticketId}`)).closedFlag === true, 60_000);
    await sleep(3_000); // three more rounds of the outbox loop: nothing may be sent again
    const entries = await timeEntries();
    // The MSP's only PSA writes are this ticket's (the imports and the sync only read the PSA).
    const writes = await rowsOf('SELECT kind, status, count(*)::int AS n FROM psa_outbox WHERE msp_id = $1 GROUP BY kind, status ORDER BY kind', [mspId]);
    const writesOf = (kind) => writes.filter((row) => row.kind === kind).reduce((sum, row) => sum + row.n, 0);
    const psaTicket = await sim.get(`service/tickets/${ticketId}`);
    check(entries === 1, `exactly one time entry in the PSA for ticket ${ticketId} (${entries})`);
    check(psaTicket.closedFlag === true && psaTicket.status?.id === closing.id, `the ticket is closed in the PSA with the board's closing status (${psaTicket.status?.name})`);
    check(writes.every((row) => row.status === 'done') && writesOf('queue.close') === 1 && writesOf('queue.timeEntry') === 1, `one close and one time entry in the outbox, every PSA write done: ${writes.map((row) => `${row.kind} ${row.status} ×${row.n}`).join(', ')}`);
    await restartReplica(timerReplica);
    await workDb.end();

    // A graceful stop under load: every request still succeeds.
    const stopping = replicas[0];
    const load = (async () => {
      const statuses = [];
      for (let i = 0; i < 40; i++) {
        statuses.push((await user.request('GET', `/db/${domain}/roles/all`)).status);
        await sleep(50);
      }
      return statuses;
    })();
    await sleep(300);
    stopping.child.kill('SIGTERM');
    // The signal takes a moment to arrive; the listener stays open for the 2 s grace period.
    let readyDuringShutdown = 0;
    for (let i = 0; i < 15 && readyDuringShutdown !== 503; i++) {
      readyDuringShutdown = await fetch(`http://127.0.0.1:${ports[0]}/ready`).then((r) => r.status).catch(() => 0);
      if (readyDuringShutdown !== 503) await sleep(100);
    }
    const exit = await stopping.exited;
    const statuses = await load;
    check(readyDuringShutdown === 503, '/ready answered 503 right after SIGTERM, before the listener closed');
    if (exit.code !== 0) {
      // The logs directory is gone with a CI machine: say here why it stopped as it did.
      const tail = readFileSync(logs[0], 'utf8').trim().split('\n').slice(-12).join('\n');
      log(`  the stopped replica's last log lines:\n${tail}`);
    }
    check(exit.code === 0, `the stopped replica exited cleanly (code ${exit.code})`);
    check(statuses.every((s) => s === 200), `40 requests during the graceful stop all answered 200 (${statuses.filter((s) => s !== 200).length} did not)`);

    // Forwarded headers count only from the proxy's address.
    const forgedThroughProxy = await user.request('POST', `/db/${domain}/technicianUsers/signin`, { json: { emailId: email, password: 'Wrong!pass9' }, headers: { 'x-forwarded-for': '198.51.100.7' } });
    const direct = `http://127.0.0.1:${ports[1]}`;
    const forgedDirect = await fetch(`${direct}/db/${domain}/technicianUsers/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-switchboard-csrf': '1', 'x-forwarded-for': '198.51.100.8' },
      body: JSON.stringify({ emailId: email, password: 'Wrong!pass9' }),
    });
    check(forgedThroughProxy.status === 401 && forgedDirect.status === 401, 'wrong-password attempts answered 401');
    const forgedHost = await fetch(`${direct}/auth/api/auth/logout`, { method: 'POST', headers: { 'x-switchboard-csrf': '1', origin: 'https://evil.example', 'x-forwarded-host': 'evil.example' } });
    check(forgedHost.status === 403, 'X-Forwarded-Host sent straight to a replica does not pass the origin check (403)');

    // Nothing lost or duplicated.
    const db = new pg.Client({ connectionString: databaseUrl.toString() });
    await db.connect();
    const one = async (sql, params) => (await db.query(sql, params)).rows;
    const [msp] = await one('SELECT id FROM msps WHERE custom_domain = $1', [domain]);
    const users = await one('SELECT id FROM users WHERE msp_id = $1', [msp.id]);
    const sessions = await one('SELECT token_hash FROM sessions WHERE user_id = $1 AND revoked_at IS NULL', [users[0]?.id]);
    const uploads = await one('SELECT name FROM uploads WHERE msp_id = $1', [msp.id]);
    const signIns = await one("SELECT ip, outcome FROM audit_events WHERE msp_id = $1 AND action = 'auth.sign_in' ORDER BY created_at", [msp.id]);
    await db.end();
    check(users.length === 1 && uploads.length === 1, 'one MSP, one technician, one stored logo');
    check(sessions.length === 1 && sessions[0].token_hash === createHash('sha256').update(user.cookie).digest('hex'), 'exactly one live session, the one the browser holds');
    check(signIns.filter((e) => e.outcome === 'success').length === 1, 'one successful sign-in audited');
    const failures = signIns.filter((e) => e.outcome === 'failure').map((e) => e.ip);
    check(failures.length === 2 && failures.every((ip) => ip === '127.0.0.1'), `forged X-Forwarded-For ignored: both failures audited from 127.0.0.1 (${failures.join(', ')})`);

    // Stop the rest and search the production logs.
    proxy.kill('SIGQUIT');
    for (const entry of [...processes]) if (entry !== proxyEntry) entry.child.kill('SIGTERM');
    await Promise.all([...processes].map((entry) => entry.exited));
    const text = logs.map((file) => readFileSync(file, 'utf8')).join('\n');
    const secretsInLogs = {
      'an e-mail address': /[\w.+-]+@[\w-]+(\.[\w-]+)+/,
      'the password': PASSWORD,
      'the wrong password': 'Wrong!pass9',
      'the 2FA code': new RegExp(`\\b${code}\\b`),
      'the session token': user.cookie,
      'the session token hash': sessions[0].token_hash,
      'the bootstrap token': created.body.bootstrapToken,
      'the session secret': secrets.SESSION_SECRET,
      'the encryption key': secrets.ENCRYPTION_KEY,
      'the challenge id': passwordStep.body.challengeId,
    };
    const found = Object.entries(secretsInLogs).filter(([, needle]) => (typeof needle === 'string' ? text.includes(needle) : needle.test(text)));
    const lines = text.split('\n').filter(Boolean).length;
    check(lines > 50, `the replicas logged (${lines} lines)`);
    check(found.length === 0, `the production logs hold none of: ${Object.keys(secretsInLogs).join(', ')}${found.length ? ` — found ${found.map(([name]) => name).join(', ')}` : ''}`);
    check(!/"path":"\/(health|ready)"/.test(text), 'health and readiness probes are not logged at info');
    passed = true;
    return 'passed';
  } catch (error) {
    log(`replica test: ${error instanceof Failure ? error.message : error.stack}`);
    log(`logs kept in ${dir}`);
    return `FAILED: ${error.message}`;
  } finally {
    for (const entry of [...processes]) entry.child.kill('SIGKILL');
    await Promise.all([...processes].map((entry) => entry.exited));
    if (smtp) await smtp.close();
    if (admin) {
      await admin.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`).catch(() => undefined);
      await admin.end();
    }
    if (passed) rmSync(dir, { recursive: true, force: true });
  }
}

const isEntryPoint = process.argv[1] && new URL(import.meta.url).pathname === process.argv[1];
if (isEntryPoint) {
  const url = process.argv[2] ?? process.env.TEST_DATABASE_URL;
  if (!url) {
    console.error('usage: node scripts/replica-test.mjs postgres://user@host:port/postgres');
    process.exit(2);
  }
  const outcome = await runReplicaTest(url);
  console.log(`replica test: ${outcome}`);
  process.exit(outcome.startsWith('FAILED') ? 1 : 0);
}
