// Helpers shared by the two README commands (start.mjs, test.mjs). Plain Node: they must run on
// a fresh machine before any dependency is installed.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const root = new URL('..', import.meta.url).pathname.replace(/\/$/, '');

export function log(message) {
  process.stdout.write(`\x1b[36m▸\x1b[0m ${message}\n`);
}

export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', cwd: root, ...options, env: { ...process.env, ...options.env } });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

export function mustRun(command, args, options = {}) {
  const status = run(command, args, options);
  if (status !== 0) {
    console.error(`\n✗ ${command} ${args.join(' ')} exited with ${status}`);
    process.exit(status);
  }
}

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

/** npm ci when node_modules is missing or older than the lockfile (a fresh clone, or a pull). */
export function ensureDependencies() {
  const marker = join(root, 'node_modules', '.package-lock.json');
  const lock = join(root, 'package-lock.json');
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return;
  log('Installing dependencies (npm ci)…');
  mustRun('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error']);
}

/** Builds the SPA when its sources (or the shared contracts) are newer than the last build. */
export function ensureWebBuild({ force = false } = {}) {
  const built = join(root, 'apps/web/dist/index.html');
  const sources = Math.max(
    newestMtime(join(root, 'apps/web/src')),
    newestMtime(join(root, 'apps/web/index.html')),
    newestMtime(join(root, 'apps/web/vite.config.ts')),
    newestMtime(join(root, 'packages/contracts/src')),
  );
  if (!force && existsSync(built) && statSync(built).mtimeMs >= sources) return;
  log('Building the web app…');
  // Through the workspace script: vite lives in apps/web/node_modules (vitest hoists its own copy).
  mustRun('npm', ['run', '--silent', '-w', '@switchboard/web', 'build', '--', '--logLevel', 'warn']);
}

export function isRoot() {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

/** Installs Debian packages when missing (root, or passwordless sudo). Returns false when it cannot. */
export function aptInstall(packages) {
  const prefix = isRoot() ? [] : ['sudo', '-n'];
  if (!isRoot() && run('sudo', ['-n', 'true'], { stdio: 'ignore' }) !== 0) return false;
  const env = { DEBIAN_FRONTEND: 'noninteractive' };
  const [cmd, ...rest] = [...prefix, 'apt-get'];
  if (run(cmd, [...rest, 'update', '-qq'], { env, stdio: ['ignore', 'ignore', 'inherit'] }) !== 0) return false;
  return run(cmd, [...rest, 'install', '-y', '-qq', '--no-install-recommends', ...packages], { env, stdio: ['ignore', 'ignore', 'inherit'] }) === 0;
}

export function commandOutput(command, args) {
  try {
    return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return '';
  }
}
