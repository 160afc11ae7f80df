import type { TAppDeps } from '../../app-deps';
import { createJobQueue, DEFAULT_JOB_QUEUE_OPTIONS, type TJobQueue } from '../../lib/job-queue';

const queues = new WeakMap<TAppDeps, TJobQueue>();

/** One job queue per app (its workers stop with the app). */
export function jobQueueFor(deps: TAppDeps): TJobQueue {
  let queue = queues.get(deps);
  if (!queue) {
    queue = createJobQueue(deps.database, { ...DEFAULT_JOB_QUEUE_OPTIONS, ...deps.jobs?.queue });
    queues.set(deps, queue);
  }
  return queue;
}
