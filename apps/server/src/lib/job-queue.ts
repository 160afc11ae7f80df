import PgBoss from 'pg-boss';
import type { TDatabaseHandle } from '@switchboard/db';

/** Handlers get the job's data and a signal that aborts when this process stops the queue. */
export type TJobHandler<TData> = (data: TData, signal: AbortSignal) => Promise<void>;

export interface TJobQueueOptions {
  /** How often an idle worker looks for work (pg-boss's minimum is 0.5 s). */
  pollingIntervalSeconds: number;
  /** Delay before a failed job runs again; doubled each time (pg-boss retryBackoff). */
  retryDelaySeconds: number;
  retryLimit: number;
  /** A job not finished in this time is failed by pg-boss's supervisor and retried (a worker that died). */
  expireInSeconds: number;
}

export const DEFAULT_JOB_QUEUE_OPTIONS: TJobQueueOptions = { pollingIntervalSeconds: 2, retryDelaySeconds: 15, retryLimit: 8, expireInSeconds: 30 * 60 };

/** Durable background jobs on the app's own database (docs/decisions/014-durable-jobs-with-pg-boss.md). */
export interface TJobQueue {
  /** Registers a queue and its handler; the worker starts with the queue (started on first use). */
  work<TData extends object>(name: string, handler: TJobHandler<TData>): Promise<void>;
  /** Enqueues a job; one with the same singletonKey already waiting or running makes this a no-op (null). */
  send(name: string, data: object, options?: { singletonKey?: string }): Promise<string | null>;
  /** Stops the workers: running handlers see their signal abort, and their jobs are retried by whoever runs next. */
  stop(): Promise<void>;
  isStarted(): boolean;
}

/**
 * pg-boss over the app's database handle: on PostgreSQL through its pool, on PGlite through the same in-process
 * instance (pg-boss's `db` option), so the embedded default runs the worker in-process on the same data.
 */
export function createJobQueue(database: TDatabaseHandle, options: TJobQueueOptions = DEFAULT_JOB_QUEUE_OPTIONS): TJobQueue {
  const boss = new PgBoss({
    db: { executeSql: (text: string, values: unknown[]) => database.executeSql(text, values) },
    schema: 'pgboss',
    // One process of an embedded install, or every replica: each may supervise; pg-boss takes an advisory lock.
    supervise: true,
    schedule: false,
    maintenanceIntervalSeconds: 120,
  });
  const handlers = new Map<string, TJobHandler<object>>();
  const running = new Set<AbortController>();
  let starting: Promise<void> | null = null;
  let started = false;
  let stopped = false;

  const attach = async (name: string, handler: TJobHandler<object>): Promise<void> => {
    await boss.createQueue(name, {
      name,
      retryLimit: options.retryLimit,
      retryDelay: options.retryDelaySeconds,
      retryBackoff: true,
      expireInSeconds: options.expireInSeconds,
    });
    await boss.work<object>(name, { pollingIntervalSeconds: options.pollingIntervalSeconds, batchSize: 1 }, async (jobs) => {
      for (const job of jobs) {
        const controller = new AbortController();
        running.add(controller);
        try {
          await handler(job.data, controller.signal);
        } finally {
          running.delete(controller);
        }
      }
    });
  };

  const ensureStarted = (): Promise<void> => {
    if (stopped) return Promise.reject(new Error('The job queue has stopped.'));
    starting ??= (async () => {
      boss.on('error', (error: Error) => process.stderr.write(`jobs: ${error.message}\n`));
      await boss.start();
      started = true;
      for (const [name, handler] of handlers) await attach(name, handler);
    })();
    return starting;
  };

  return {
    async work(name, handler) {
      handlers.set(name, handler as TJobHandler<object>);
      if (started) await attach(name, handler as TJobHandler<object>);
    },
    async send(name, data, sendOptions = {}) {
      await ensureStarted();
      return boss.send(name, data, { ...(sendOptions.singletonKey ? { singletonKey: sendOptions.singletonKey } : {}) });
    },
    async stop() {
      stopped = true;
      if (!starting) return;
      await starting.catch(() => undefined);
      for (const controller of running) controller.abort();
      await boss.stop({ graceful: true, wait: true, timeout: 10_000, close: false });
    },
    isStarted: () => started,
  };
}
