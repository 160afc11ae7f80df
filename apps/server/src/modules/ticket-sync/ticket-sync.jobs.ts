import type { TAppDeps } from '../../app-deps';
import { createJobQueue, DEFAULT_JOB_QUEUE_OPTIONS, type TJobQueue } from '../../lib/job-queue';

const queues = new WeakMap<TAppDeps, TJobQueue>();

/**
 * One job queue per app (its workers stop with the app). Stopping waits for running jobs at most half the graceful
 * shutdown's budget, leaving the rest to the readiness grace and the database; a job still running then is retried.
 */
export function jobQueueFor(deps: TAppDeps): TJobQueue {
  let queue = queues.get(deps);
  if (!queue) {
    queue = createJobQueue(deps.database, {
      ...DEFAULT_JOB_QUEUE_OPTIONS,
      stopTimeoutMs: Math.max(1_000, Math.floor(deps.config.shutdownTimeoutMs / 2)),
      ...deps.jobs?.queue,
    });
    queues.set(deps, queue);
  }
  return queue;
}
