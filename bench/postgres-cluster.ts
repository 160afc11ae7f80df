import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TPostgresServer {
  /** A server URL (database `postgres`); the bench creates its own database on it. */
  url: string;
  version: string;
  stop(): void;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
    server.on('error', reject);
  });
}

function postgresBinDir(): string | null {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return null;
  const versions = readdirSync(base)
    .filter((version) => existsSync(join(base, version, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(base, versions[0], 'bin') : null;
}

const isRoot = () => process.getuid?.() === 0;

/**
 * A throwaway PostgreSQL cluster on a free loopback port, as scripts/test.mjs starts one for the
 * API tests (durability off: it lives for one run). Throws when PostgreSQL is not installed.
 */
export async function startThrowawayPostgres(): Promise<TPostgresServer> {
  const bin = postgresBinDir();
  if (!bin) throw new Error('PostgreSQL is not installed (apt-get install postgresql), and DATABASE_URL is not set.');
  const dir = mkdtempSync(join(tmpdir(), 'sb-bench-pg-'));
  const asPostgres = isRoot() ? ['runuser', '-u', 'postgres', '--'] : [];
  if (isRoot()) {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, id('-u'), id('-g'));
  }
  const exec = (args: string[]) => {
    const [command = '', ...rest] = [...asPostgres, ...args];
    const result = spawnSync(command, rest, { stdio: ['ignore', 'ignore', 'inherit'] });
    if (result.status !== 0) throw new Error(`${args[0] ?? command} failed (exit ${String(result.status)})`);
  };
  exec([join(bin, 'initdb'), '-D', join(dir, 'data'), '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8']);
  const port = await freePort();
  const options = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
  exec([join(bin, 'pg_ctl'), '-D', join(dir, 'data'), '-l', join(dir, 'pg.log'), '-o', options, '-w', 'start']);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    version: execFileSync(join(bin, 'postgres'), ['--version'], { encoding: 'utf8' }).trim(),
    stop: () => {
      exec([join(bin, 'pg_ctl'), '-D', join(dir, 'data'), '-m', 'immediate', '-w', 'stop']);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
