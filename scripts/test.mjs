// `npm test`: installs what it needs (dependencies; Debian's chromium; PostgreSQL when it can) and
// runs every check: typecheck, lint, unit + web tests, API tests on PGlite AND on a real PostgreSQL
// server started here on a free local port, the Playwright journeys in Debian's Chromium, and a fresh
// clone of HEAD running `npm start` alone. Independent steps run side by side in four phases, each
// step's output printed as one block when it ends (docs/decisions/020-parallel-npm-test.md).
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, chownSync, readdirSync, writeSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { aptInstall, ensureDependencies, isRoot, log, run, root, commandOutput } from './lib.mjs';

const started = Date.now();
const results = [];
/** Each step's output file and reports, removed at the end. */
const outputDir = mkdtempSync(join(tmpdir(), 'sb-test-'));
let passed = 0;
let failed = 0;
let skipped = 0;
/** The tests that failed, and the journeys that passed only on their retry, by name: printed after the summary, the part of a CI log that is always shown. */
const named = { failed: [], flaky: [] };

/**
 * Runs a command as a child process with its output going to a file (never a pipe: a full pipe would
 * stall a child while this process waits on another), so independent steps run side by side and each
 * step's output is printed as one block when it ends. Resolves to { status, output }.
 */
function runBuffered(command, args, env = {}) {
  const file = join(outputDir, `${Math.random().toString(36).slice(2)}.log`);
  const fd = openSync(file, 'w');
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', fd, fd], env: { ...process.env, ...env } });
    let finished = false;
    const finish = (status) => {
      if (finished) return;
      finished = true;
      closeSync(fd);
      const output = readFileSync(file, 'utf8');
      rmSync(file, { force: true });
      resolve({ status, output });
    };
    child.on('error', (error) => {
      writeSync(fd, `${error.stack ?? error}\n`);
      finish(1);
    });
    child.on('exit', (code) => finish(code ?? 1));
  });
}

/**
 * One step of the run: `fn` receives an `exec(command, args, env)` that runs a child with buffered
 * output and resolves to its { status, output }; `fn` resolves to the step's outcome ('passed', 'FAILED…', 'skipped…').
 */
async function step(name, fn) {
  const t0 = Date.now();
  // Listed in the summary in the order the steps start, whatever order they end in.
  const result = { name, outcome: 'FAILED (did not finish)', seconds: '0' };
  results.push(result);
  log(`${name}: started`);
  let output = '';
  const exec = async (command, args, env) => {
    const ran = await runBuffered(command, args, env);
    output += ran.output;
    return ran;
  };
  let outcome;
  try {
    outcome = await fn(exec);
  } catch (error) {
    output += `${error.stack ?? error}\n`;
    outcome = `FAILED: ${error.message ?? error}`;
  }
  const seconds = ((Date.now() - t0) / 1000).toFixed(1);
  Object.assign(result, { outcome, seconds });
  process.stdout.write(`\n\x1b[36m──── ${name} ────\x1b[0m\n${output}${output.endsWith('\n') || !output ? '' : '\n'}`);
  log(`${name}: ${outcome} (${seconds}s)`);
  return outcome;
}

/** The error-context.md files Playwright wrote under `dir` (one per failed journey). */
function errorContexts(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true })
    .map(String)
    .filter((path) => path.endsWith('error-context.md'))
    .map((path) => join(dir, path));
}

/** Every test of a Playwright JSON report, with its spec (suites nest by file and describe). */
function* playwrightTests(suites) {
  for (const suite of suites) {
    for (const spec of suite.specs ?? []) for (const test of spec.tests ?? []) yield { spec, test };
    yield* playwrightTests(suite.suites ?? []);
  }
}

/** Runs vitest with a JSON report so the closing summary can count tests across runs. */
async function vitest(exec, label, args, env = {}) {
  const report = join(outputDir, `vitest-${label.replace(/\W+/g, '-')}.json`);
  const { status } = await exec(join(root, 'node_modules/.bin/vitest'), ['run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`], env);
  if (existsSync(report)) {
    const json = JSON.parse(readFileSync(report, 'utf8'));
    for (const file of json.testResults ?? []) {
      for (const test of file.assertionResults ?? []) {
        if (test.status === 'failed') named.failed.push(`${label}: ${relative(root, file.name)} › ${test.fullName}`);
      }
    }
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

function portIsFree(port) {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** The first of `count` consecutive free local ports. */
async function freePortRun(count) {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const first = 20_000 + Math.floor(Math.random() * 40_000);
    let free = true;
    for (let i = 0; i < count && free; i += 1) free = await portIsFree(first + i);
    if (free) return first;
  }
  throw new Error(`no ${count} consecutive free local ports`);
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

// Independent steps run side by side where the machine has room for them (decision 020): steps that
// wait a lot or use one core share a phase. Every step still runs, and a failing one still fails the run.
// Phase 1: typecheck and lint (one core each), the SPA build (the replicas and the journeys serve it),
// and a clone of HEAD with nothing beside it installing (from the npm cache), building and serving the demo alone.
const phase1 = Promise.all([
  step('typecheck', async (exec) => ((await exec('node', ['scripts/typecheck.mjs'])).status === 0 ? 'passed' : 'FAILED')),
  step('lint', async (exec) => ((await exec(join(root, 'node_modules/.bin/eslint'), ['--max-warnings=0', '.'])).status === 0 ? 'passed' : 'FAILED')),
  // Through the workspace script: vite lives in apps/web/node_modules (vitest hoists its own copy).
  // The build, then what each sign-in route loads (bench/web-weight.ts, issue #6: at most 150 KB gzip), so a change
  // that drags a screen's code into the first load fails here instead of going unnoticed.
  step('web build and sign-in weight', async (exec) => {
    if ((await exec('npm', ['run', '--silent', '-w', '@switchboard/web', 'build', '--', '--logLevel', 'warn'])).status !== 0) return 'FAILED';
    return (await exec('node', ['--import', 'tsx', 'bench/web-weight.ts'])).status === 0 ? 'passed' : 'FAILED';
  }),
  step('fresh clone: npm start alone', (exec) => vitest(exec, 'clone', ['--project', 'clone'])),
]);
// Started while phase 1 runs (initdb and pg_ctl are quick; the children above write to files meanwhile).
const postgres = await startPostgres();
if (postgres) {
  // An interrupted run leaves no cluster behind.
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => {
      postgres.stop();
      process.exit(130);
    });
  }
}
await phase1;

// Phase 2, alone: the unit and web component tests (some time real intervals and UI waits; run beside lint's tail, a
// dialog once took over its 5 s to open). Two workers: vitest's default on two cores is one.
await step('unit and web tests', (exec) => vitest(exec, 'unit', ['--project', 'unit', '--project', 'web', '--maxWorkers=2']));

// Phase 3: the API suite on PGlite beside the same suite on PostgreSQL (each its own databases). The PGlite pass
// alone left the cores idle about a third of its time (tests waiting on the simulator, retries and timers), and the
// PostgreSQL pass alone about half of its; side by side they fill each other's waits (decision 020, revision 4).
// The PSA adapter tests (packages/psa/test) use no database: the PGlite pass runs them, the PostgreSQL pass leaves them out,
// and so the two files that start the embedded demo (always PGlite, whatever TEST_DATABASE_URL says): the same work twice.
const EMBEDDED_DEMO_TESTS = ['apps/server/src/embedded-restart.api.test.ts', 'apps/server/src/modules/psa-reads/demo-boards.api.test.ts'];
const apiPasses = Promise.all([
  step('API tests on PGlite', (exec) => vitest(exec, 'api-pglite', ['--project', 'api'], { TEST_DATABASE_URL: '', SB_API_WORKERS: '3' })),
  ...(postgres
    ? [step(`API tests on ${postgres.version || 'PostgreSQL'}`, (exec) => vitest(exec, 'api-postgres', ['--project', 'api', '--exclude', 'packages/psa/test/**', ...EMBEDDED_DEMO_TESTS.flatMap((file) => ['--exclude', file])], { TEST_DATABASE_URL: postgres.url }))]
    : []),
]);
if (!postgres) results.push({ name: 'API tests on PostgreSQL', outcome: 'skipped (PostgreSQL could not be installed here)', seconds: '0' });
await apiPasses;

// Each shard uses four ports: the app, the simulator (+1), the fake model (+2) and the local IMAP server (+3).
const journeyPorts = await freePortRun(8);
// Phase 4: the replicas on the PostgreSQL cluster (in their own database; mostly building, installing and waiting)
// beside the journeys in two shards (each one browser and one server, mostly waiting on each other).
const onPostgres = postgres
  ? [
      // Built production server ×2 behind Debian's nginx on this cluster (scripts/replica-test.mjs), in its own process.
      step('two replicas behind nginx (production build)', async (exec) => {
        const { status, output } = await exec('node', ['scripts/replica-test.mjs', postgres.url]);
        // Its last line is `replica test: passed | FAILED: … | skipped (…)`.
        const reported = [...output.matchAll(/^replica test: (.+)$/gm)].at(-1)?.[1];
        const outcome = status !== 0 ? (reported?.startsWith('FAILED') ? reported : `FAILED (exit ${status})`) : (reported ?? 'FAILED (no outcome reported)');
        if (outcome === 'passed') passed += 1;
        else if (outcome.startsWith('FAILED')) failed += 1;
        else skipped += 1;
        return outcome;
      }),
    ]
  : [];
if (!postgres) results.push({ name: 'two replicas behind nginx (production build)', outcome: 'skipped (needs PostgreSQL)', seconds: '0' });
await Promise.all([
  Promise.all(onPostgres).then(() => postgres?.stop()),
  // Two shards side by side, each with its own server, simulator, fake model and IMAP server on its own ports and data (the
  // journeys mostly wait on the browser and the server, so two of them share the cores well).
  ...[1, 2].map((shard) =>
    step(`browser journeys ${shard}/2 (Playwright, Debian Chromium)`, async (exec) => {
      const report = join(outputDir, `playwright-${shard}.json`);
      // Free ports (the app's, the simulator's at +1 and the fake model's at +2), so a run beside another on one machine does not collide.
      const port = journeyPorts + (shard - 1) * 4;
      const shardOutput = join(root, `test-results/shard-${shard}`);
      // One retry: a journey that fails once on the loaded machine and then passes is named as flaky after the summary,
      // with its failed attempt's page printed, so it is seen and chased; one that fails twice fails the run.
      const { status } = await exec(join(root, 'node_modules/.bin/playwright'), ['test', '-c', 'e2e/playwright.config.ts', `--shard=${shard}/2`, '--retries=1'], {
        PLAYWRIGHT_JSON_OUTPUT_NAME: report,
        E2E_PORT: String(port),
        E2E_OUTPUT_DIR: shardOutput,
      });
      // What the page showed when a journey failed (Playwright's error context: the page's accessibility snapshot), in
      // the log itself: a CI run's log is often all there is of it.
      // A failed attempt's only (a journey that passed on its retry leaves its first attempt's too).
      for (const context of errorContexts(shardOutput)) await exec('head', ['-v', '-c', '16000', context]);
      if (existsSync(report)) {
        const json = JSON.parse(readFileSync(report, 'utf8'));
        for (const { spec, test } of playwrightTests(json.suites ?? [])) {
          const name = `journeys ${shard}/2: ${spec.file}:${spec.line} › ${spec.title}`;
          if (test.status === 'unexpected') named.failed.push(name);
          else if (test.status === 'flaky') named.flaky.push(name);
        }
        const stats = json.stats ?? {};
        passed += (stats.expected ?? 0) + (stats.flaky ?? 0);
        failed += stats.unexpected ?? 0;
        skipped += stats.skipped ?? 0;
        rmSync(report, { force: true });
      } else if (status !== 0) {
        failed += 1;
      }
      return status === 0 ? 'passed' : 'FAILED';
    }),
  ),
]);
rmSync(outputDir, { recursive: true, force: true });

const minutes = ((Date.now() - started) / 60000).toFixed(1);
console.log('\nSummary');
for (const r of results) console.log(`  ${r.outcome.startsWith('FAILED') ? '✗' : '✓'} ${r.name}: ${r.outcome} (${r.seconds}s)`);
console.log(`  total time ${minutes} min`);
const anyFailed = results.some((r) => r.outcome.startsWith('FAILED'));
console.log(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
for (const name of named.failed) console.log(`  failed: ${name}`);
for (const name of named.flaky) console.log(`  flaky (failed, then passed on its retry): ${name}`);
process.exit(anyFailed || failed > 0 ? 1 : 0);
