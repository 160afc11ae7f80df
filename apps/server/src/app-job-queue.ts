import type { TDatabaseHandle } from '@switchboard/db';
import type { TConfig } from './config/env';
import type { TAppDeps } from './app-deps';
import { createJobQueue, DEFAULT_JOB_QUEUE_OPTIONS, type TJobQueue } from './lib/job-queue';

/**
 * The app's durable job queue (decision 015). One per app, like its caches: a second app on the same database (another
 * replica) builds its own, with workers of its own. It starts on first use and stops when the app closes. Stopping waits
 * for running jobs at most half the graceful shutdown's budget, leaving the rest to the readiness grace and the
 * database; a job still running then is retried. `jobs.queue` (tests, benches) overrides the timings.
 */
export function createAppJobQueue(deps: { database: TDatabaseHandle; config: Pick<TConfig, 'shutdownTimeoutMs'>; jobs?: TAppDeps['jobs'] }): TJobQueue {
  return createJobQueue(deps.database, {
    ...DEFAULT_JOB_QUEUE_OPTIONS,
    stopTimeoutMs: Math.max(1_000, Math.floor(deps.config.shutdownTimeoutMs / 2)),
    ...deps.jobs?.queue,
  });
}
