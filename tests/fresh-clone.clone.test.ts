// Issue #6 §1: the repository stands alone. HEAD is cloned into an empty temporary folder (nothing
// beside it, so no ../shared), `npm start` runs there exactly as a new user runs it (npm ci from the
// local npm cache, the SPA build, the embedded default on free ports), and a demo technician signs
// in over HTTP. scripts/test.mjs runs this as its own step ("fresh clone: npm start alone").
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSRF_HEADER, SESSION_COOKIE } from '@switchboard/contracts';

const root = fileURLToPath(new URL('..', import.meta.url));
const DEMO_MSP = 'northwind';
const DEMO_TECHNICIAN = 'jordan.avila@northwind-it.example';
const DEMO_PASSWORD = 'Switchboard!1';
const START_TIMEOUT_MS = 15 * 60_000;

let folder = '';
let clone = '';
let server: ChildProcess | undefined;
let output = '';
let baseUrl = '';
let exitCode: number | null | undefined;
let startedAt = 0;
let readyAfterMs = 0;

/** npm settings a person's own npm would use too (where its cache and config files are). */
const KEPT_NPM_SETTINGS = new Set(['npm_config_cache', 'npm_config_userconfig', 'npm_config_globalconfig', 'npm_config_registry']);

/** The environment a person's shell would give `npm start`: none of the test runner's (or the outer npm's) own settings. */
function startEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of Object.keys(env)) {
    if (key.startsWith('VITEST') || key.startsWith('TEST_') || (key.startsWith('npm_') && !KEPT_NPM_SETTINGS.has(key))) delete env[key];
  }
  for (const key of ['NODE_ENV', 'DATABASE_URL', 'DATA_DIR', 'HOST', 'PUBLIC_URL', 'SMTP_URL', 'LOG_LEVEL', 'SESSION_SECRET', 'ENCRYPTION_KEY']) delete env[key];
  return {
    ...env,
    // 0: the system picks free ports for the app and the simulator; the banner prints the app's.
    PORT: '0',
    PSA_SIM_PORT: '0',
    // Dependencies come from the npm cache the checkout's own install filled.
    npm_config_prefer_offline: 'true',
  };
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (exitCode !== undefined) throw new Error(`npm start exited (${String(exitCode)}) before ${what}:\n${output.slice(-4000)}`);
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`timed out waiting for ${what}:\n${output.slice(-4000)}`);
}

function stopServer(): Promise<void> {
  const child = server;
  if (!child?.pid || exitCode !== undefined) return Promise.resolve();
  const group = -child.pid;
  return new Promise((resolve) => {
    const hardStop = setTimeout(() => {
      try {
        process.kill(group, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }, 10_000);
    child.once('exit', () => {
      clearTimeout(hardStop);
      resolve();
    });
    try {
      process.kill(group, 'SIGTERM');
    } catch {
      clearTimeout(hardStop);
      resolve();
    }
  });
}

beforeAll(async () => {
  startedAt = Date.now();
  folder = mkdtempSync(join(tmpdir(), 'sb-fresh-clone-'));
  clone = join(folder, 'switchboard');
  const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
  execFileSync('git', ['clone', '--quiet', '--no-checkout', root, clone], { stdio: 'inherit' });
  execFileSync('git', ['-c', 'advice.detachedHead=false', 'checkout', '--quiet', head], { cwd: clone, stdio: 'inherit' });

  // detached: npm, start.mjs and the server form one process group, stopped together.
  server = spawn('npm', ['start'], { cwd: clone, env: startEnvironment(), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  server.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  server.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  server.once('exit', (code) => (exitCode = code));

  baseUrl = await waitFor('the start banner', async () => output.match(/Switchboard is running at (http:\/\/[\w.:[\]-]+)/)?.[1], START_TIMEOUT_MS);
  await waitFor(
    '/ready',
    async () => {
      const ready = await fetch(`${baseUrl}/ready`).catch(() => null);
      return ready?.status === 200 ? true : undefined;
    },
    60_000,
  );
  readyAfterMs = Date.now() - startedAt;
}, START_TIMEOUT_MS + 120_000);

// Removing the clone's ~30,000 installed files took a minute on a busy two-core machine.
afterAll(async () => {
  const cleanupStartedAt = Date.now();
  await stopServer();
  if (folder) await rm(folder, { recursive: true, force: true });
  // The step's cost, for whoever watches npm test's time.
  console.info(`fresh clone: clone + npm ci + web build + start ready in ${(readyAfterMs / 1000).toFixed(1)} s; stopped and removed in ${((Date.now() - cleanupStartedAt) / 1000).toFixed(1)} s`);
}, 5 * 60_000);

describe('a fresh clone, alone in its folder', () => {
  it('holds nothing that reaches outside the repository', () => {
    expect(readdirSync(folder)).toEqual(['switchboard']);
    // git grep exits 1 when nothing matches.
    const outside = spawnSync('git', ['grep', '-n', '-I', '-E', String.raw`\.\./shared|/work/shared`, '--', '.', ':!tests/fresh-clone.clone.test.ts'], { cwd: clone, encoding: 'utf8' });
    expect(outside.stdout).toBe('');
    expect(outside.status).toBe(1);
  });

  it('serves the demo on free ports: GET / leads to the demo MSP page, which is the app', async () => {
    expect(baseUrl).not.toMatch(/:3000$/);
    const home = await fetch(`${baseUrl}/`, { redirect: 'manual', headers: { accept: 'text/html', 'sec-fetch-mode': 'navigate' } });
    expect(home.status).toBe(302);
    expect(home.headers.get('location')).toBe(`/${DEMO_MSP}`);
    const page = await fetch(`${baseUrl}/${DEMO_MSP}`, { headers: { accept: 'text/html', 'sec-fetch-mode': 'navigate' } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
  });

  it('signs a demo technician in over HTTP with the printed password and the code from the dev outbox', async () => {
    expect(output).toContain(DEMO_TECHNICIAN);
    const headers = { [CSRF_HEADER]: '1', 'content-type': 'application/json' };
    const since = Date.now() - 1000;
    const signIn = await fetch(`${baseUrl}/db/${DEMO_MSP}/technicianUsers/signin`, { method: 'POST', headers, body: JSON.stringify({ emailId: DEMO_TECHNICIAN, password: DEMO_PASSWORD }) });
    expect(signIn.status, await signIn.clone().text()).toBe(200);
    const { challengeId } = (await signIn.json()) as { challengeId: string };

    const code = await waitFor(
      'the mailed code',
      async () => {
        const outbox = await fetch(`${baseUrl}/dev/outbox?to=${encodeURIComponent(DEMO_TECHNICIAN)}`);
        const { items } = (await outbox.json()) as { items: Array<{ text: string; createdAt: string }> };
        const fresh = items.find((item) => Date.parse(item.createdAt) >= since);
        return fresh?.text.match(/^\s*(\d{6})\s*$/m)?.[1];
      },
      10_000,
    );
    const verify = await fetch(`${baseUrl}/db/${DEMO_MSP}/technicianUsers/verifyCode`, { method: 'POST', headers, body: JSON.stringify({ challengeId, code }) });
    expect(verify.status, await verify.clone().text()).toBe(200);
    const sessionCookie = verify.headers.getSetCookie().find((cookie) => cookie.startsWith(`${SESSION_COOKIE}=`))?.split(';')[0];
    expect(sessionCookie).toBeDefined();

    const check = await fetch(`${baseUrl}/auth/api/auth/microsoft-user`, { headers: { cookie: sessionCookie ?? '' } });
    expect(await check.json()).toMatchObject({ authenticated: true, user: { email: DEMO_TECHNICIAN, mspCustomDomain: DEMO_MSP, userKind: 'technician' } });
  });
});
