import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DatabaseStartupError } from '@switchboard/db';
import { ConfigError, loadConfig, type TConfig } from './config/env';
import { buildApp } from './app';
import type { TApp, TAppDeps } from './app-deps';
import { createRuntimeDeps } from './runtime';

const here = dirname(fileURLToPath(import.meta.url));

/** Time for the proxy's readiness probe to see 503 before the listener stops taking connections. */
const READINESS_GRACE_MS = 2_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Graceful shutdown: /ready answers 503 at once; after a short grace the listener closes and the
 * requests in flight finish; past SHUTDOWN_TIMEOUT_MS the process exits anyway, saying which
 * requests it gave up on.
 */
async function shutdown(app: TApp, deps: TAppDeps, config: TConfig, signal: string): Promise<never> {
  deps.lifecycle.beginShutdown();
  const grace = Math.min(READINESS_GRACE_MS, config.shutdownTimeoutMs);
  app.log.info({ signal, inFlight: deps.lifecycle.inFlight().length, graceMs: grace, timeoutMs: config.shutdownTimeoutMs }, 'shutdown: readiness is 503; closing the listener after the grace period');
  const forced = setTimeout(() => {
    const waiting = deps.lifecycle.inFlight().map((r) => ({ id: r.id, method: r.method, route: r.route, ms: Date.now() - r.startedAt }));
    app.log.error({ waitingFor: waiting }, `shutdown: timed out after ${config.shutdownTimeoutMs} ms with ${waiting.length} request(s) unfinished; exiting`);
    process.exit(1);
  }, config.shutdownTimeoutMs);
  forced.unref();
  await sleep(grace);
  const started = Date.now();
  const waitingFor = deps.lifecycle.inFlight().map((r) => `${r.method} ${r.route}`);
  app.log.info({ waitingFor }, `shutdown: listener closing; waiting for ${waitingFor.length} request(s) in flight`);
  await app.close();
  await deps.database.close();
  app.log.info({ ms: Date.now() - started }, 'shutdown: complete');
  process.exit(0);
}

/** A known start-up failure prints one readable line, never a stack. */
function exitWithOneLine(error: unknown): never {
  if (error instanceof ConfigError || error instanceof DatabaseStartupError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

async function main(): Promise<void> {
  let config: TConfig;
  let deps: TAppDeps;
  try {
    config = loadConfig();
    deps = await createRuntimeDeps(config);
  } catch (error) {
    exitWithOneLine(error);
  }
  const app = await buildApp(deps, { webDist: join(here, '..', '..', 'web', 'dist'), logger: true });
  let stopping = false;
  const onSignal = (signal: string) => {
    if (stopping) return;
    stopping = true;
    void shutdown(app, deps, config, signal);
  };
  process.on('SIGINT', () => onSignal('SIGINT'));
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  await app.listen({ port: config.port, host: config.host });
}

void main();
