// `npm test`: installs what it needs (dependencies; Debian's chromium; PostgreSQL when it can) and
// runs every check: typecheck, lint, unit + web tests, API tests on PGlite AND on a real PostgreSQL
// server started here on a free local port, the Playwright journeys in Debian's Chromium, and a fresh
// clone of HEAD running `npm start` alone.
import { existsSync, mkdtempSync, readFileSync, rmSync, chownSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aptInstall, ensureDependencies, ensureWebBuild, isRoot, log, run, root, commandOutput } from './lib.mjs';
import { runReplicaTest } from './replica-test.mjs';

const started = Date.now();
const results = [];
let passed = 0;
let failed = 0;
let skipped = 0;

function step(name, fn) {
  const t0 = Date.now();
  log(name);
  const outcome = fn();
  const seconds = ((Date.now() - t0) / 1000).toFixed(1);
  results.push({ name, outcome, seconds });
  log(`${name}: ${outcome} (${seconds}s)`);
  return outcome;
}

/** Runs vitest with a JSON report so the closing summary can count tests across runs. */
function vitest(label, args, env = {}) {
  const report = join(tmpdir(), `sb-vitest-${label.replace(/\W+/g, '-')}-${process.pid}.json`);
  const status = run(join(root, 'node_modules/.bin/vitest'), ['run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`], { env });
  if (existsSync(report)) {
    const json = JSON.parse(readFileSync(report, 'utf8'));
    passed += json.numPassedTests ?? 0;
    failed += json.numFailedTests ?? 0;
    skipped += (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0);
    rmSync(report, { force: true });
  } else if (status !== 0) {
    failed += 1;
  }
  return status === 0 ? 'passed' : 'FAILED';
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
    server.on('error', reject);
  });
}

function postgresBinDir() {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return null;
  const versions = readdirSync(base).filter((v) => existsSync(join(base, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(base, versions[0], 'bin') : null;
}

/**
 * pgvector for the cluster when the distribution packages it (decision 026): Debian bookworm does not,
 * so there the API tests run the words-only fallback; trixie and later have postgresql-NN-pgvector.
 */
function ensurePgvector(bin) {
  const version = bin.split('/').at(-2);
  if (existsSync(`/usr/share/postgresql/${version}/extension/vector.control`)) return;
  const pkg = `postgresql-${version}-pgvector`;
  if (!commandOutput('apt-cache', ['show', pkg]).includes(`Package: ${pkg}`)) {
    log(`${pkg} is not packaged here; the PostgreSQL API tests check search by words without pgvector.`);
    return;
  }
  if (!aptInstall([pkg])) log(`Could not install ${pkg}; the PostgreSQL API tests check search by words without pgvector.`);
}

/** Starts a throwaway PostgreSQL cluster; returns { url, stop } or null when none can be had. */
async function startPostgres() {
  let bin = postgresBinDir();
  if (!bin) {
    log('PostgreSQL is not installed; installing it with apt…');
    if (aptInstall(['postgresql'])) bin = postgresBinDir();
  }
  if (!bin) return null;
  ensurePgvector(bin);
  const dir = mkdtempSync(join(tmpdir(), 'sb-pg-'));
  const asPostgres = isRoot() ? ['runuser', '-u', 'postgres', '--'] : [];
  if (isRoot()) chownSync(dir, Number(commandOutput('id', ['-u', 'postgres'])), Number(commandOutput('id', ['-g', 'postgres'])));
  const exec = (args) => {
    const [cmd, ...rest] = [...asPostgres, ...args];
    return run(cmd, rest, { stdio: ['ignore', 'ignore', 'inherit'] });
  };
  if (exec([join(bin, 'initdb'), '-D', join(dir, 'data'), '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8']) !== 0) return null;
  const port = await freePort();
  // Durability settings off: this cluster lives for one test run.
  const options = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
  if (exec([join(bin, 'pg_ctl'), '-D', join(dir, 'data'), '-l', join(dir, 'pg.log'), '-o', options, '-w', 'start']) !== 0) return null;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    version: commandOutput(join(bin, 'postgres'), ['--version']),
    stop: () => {
      exec([join(bin, 'pg_ctl'), '-D', join(dir, 'data'), '-m', 'immediate', '-w', 'stop']);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

ensureDependencies();
if (!existsSync('/usr/bin/chromium')) {
  log("Installing Debian's chromium for the browser journeys…");
  if (!aptInstall(['chromium'])) log('Could not install chromium (no root/sudo); the browser journeys will fail.');
}

step('typecheck', () => (run('node', ['scripts/typecheck.mjs']) === 0 ? 'passed' : 'FAILED'));
step('lint', () => (run(join(root, 'node_modules/.bin/eslint'), ['--max-warnings=0', '.']) === 0 ? 'passed' : 'FAILED'));
step('unit and web tests', () => vitest('unit', ['--project', 'unit', '--project', 'web']));
step('API tests on PGlite', () => vitest('api-pglite', ['--project', 'api'], { TEST_DATABASE_URL: '' }));

const postgres = await startPostgres();
if (postgres) {
  step(`API tests on ${postgres.version || 'PostgreSQL'}`, () => vitest('api-postgres', ['--project', 'api'], { TEST_DATABASE_URL: postgres.url }));
  // Built production server ×2 behind Debian's nginx on this cluster (scripts/replica-test.mjs).
  const t0 = Date.now();
  log('two replicas behind nginx');
  const outcome = await runReplicaTest(postgres.url);
  results.push({ name: 'two replicas behind nginx (production build)', outcome, seconds: ((Date.now() - t0) / 1000).toFixed(1) });
  if (outcome === 'passed') passed += 1;
  else if (outcome.startsWith('FAILED')) failed += 1;
  else skipped += 1;
  postgres.stop();
} else {
  results.push({ name: 'API tests on PostgreSQL', outcome: 'skipped (PostgreSQL could not be installed here)', seconds: '0' });
  results.push({ name: 'two replicas behind nginx (production build)', outcome: 'skipped (needs PostgreSQL)', seconds: '0' });
}

step('web build', () => {
  ensureWebBuild({ force: true });
  return 'passed';
});
step('browser journeys (Playwright, Debian Chromium)', () => {
  const report = join(tmpdir(), `sb-playwright-${process.pid}.json`);
  const status = run(join(root, 'node_modules/.bin/playwright'), ['test', '-c', 'e2e/playwright.config.ts'], {
    env: { PLAYWRIGHT_JSON_OUTPUT_NAME: report },
  });
  if (existsSync(report)) {
    const stats = JSON.parse(readFileSync(report, 'utf8')).stats ?? {};
    passed += (stats.expected ?? 0) + (stats.flaky ?? 0);
    failed += stats.unexpected ?? 0;
    skipped += stats.skipped ?? 0;
    rmSync(report, { force: true });
  } else if (status !== 0) {
    failed += 1;
  }
  return status === 0 ? 'passed' : 'FAILED';
});

// Last: a clone of HEAD with nothing beside it installs (from the npm cache), builds and serves the demo alone.
step('fresh clone: npm start alone', () => vitest('clone', ['--project', 'clone']));

const minutes = ((Date.now() - started) / 60000).toFixed(1);
console.log('\nSummary');
for (const r of results) console.log(`  ${r.outcome.startsWith('FAILED') ? '✗' : '✓'} ${r.name}: ${r.outcome} (${r.seconds}s)`);
console.log(`  total time ${minutes} min`);
const anyFailed = results.some((r) => r.outcome.startsWith('FAILED'));
console.log(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(anyFailed || failed > 0 ? 1 : 0);
