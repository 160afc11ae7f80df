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
  /**
   * How long `stop` waits for running handlers before it fails their jobs for a retry elsewhere. A graceful shutdown
   * must fit it inside its own budget, or the process is killed while it waits.
   */
  stopTimeoutMs: number;
}

export const DEFAULT_JOB_QUEUE_OPTIONS: TJobQueueOptions = { pollingIntervalSeconds: 2, retryDelaySeconds: 15, retryLimit: 8, expireInSeconds: 30 * 60, stopTimeoutMs: 10_000 };

/**
 * A queue's pg-boss policy: 'standard', or 'short' — at most one job per singletonKey waiting to start, so a send while
 * one waits is merged into it (null); once it has started, the next send queues a new one (decision 022).
 */
export type TQueuePolicy = 'standard' | 'short';

/** Durable background jobs on the app's own database (docs/decisions/015-durable-jobs-with-pg-boss.md). */
export interface TJobQueue {
  /**
   * Registers a queue and its handler; the worker starts with the queue (started on first use). With `startsOnSend`, a
   * job sent from this process is fetched by its worker at once (or as soon as it finishes the job in hand) instead of
   * at its next poll; workers of other processes still poll. For jobs a person waits for (a batch sync), not for
   * bursts that the polling interval is meant to gather.
   */
  work<TData extends object>(name: string, handler: TJobHandler<TData>, options?: { policy?: TQueuePolicy; startsOnSend?: boolean }): Promise<void>;
  /**
   * Enqueues a job (its id, or null when the queue's policy merged it into a waiting one). `startAfterSeconds` delays it:
   * on a 'short' queue, every send with the same key within that time becomes the one job.
   */
  send(name: string, data: object, options?: { singletonKey?: string; startAfterSeconds?: number }): Promise<string | null>;
  /** Stops the workers: running handlers see their signal abort, and their jobs are retried by whoever runs next. */
  stop(): Promise<void>;
  isStarted(): boolean;
}

/**
 * pg-boss over the app's database handle: on PostgreSQL through its pool, on PGlite through the same in-process
 * instance (pg-boss's `db` option), so the embedded default runs the worker in-process on the same data.
 */
export function createJobQueue(database: TDatabaseHandle, options: TJobQueueOptions = DEFAULT_JOB_QUEUE_OPTIONS): TJobQueue {
  // Set once stop has failed the running jobs for a retry: a handler that outlives it (work that cannot be interrupted)
  // must not write its late outcome to a database that may be closed by then; the retry is already scheduled. With the
  // workers stopped, that late complete or fail is the only statement pg-boss still sends (unawaited, so a rejection
  // would go unhandled): it is answered as pg-boss's own answer to them when no job was affected.
  let released = false;
  const boss = new PgBoss({
    db: { executeSql: (text: string, values: unknown[]) => (released ? Promise.resolve({ rows: [{ count: '0' }] }) : database.executeSql(text, values)) },
    schema: 'pgboss',
    // One process of an embedded install, or every replica: each may supervise; pg-boss takes an advisory lock.
    supervise: true,
    schedule: false,
    maintenanceIntervalSeconds: 120,
  });
  const handlers = new Map<string, { handler: TJobHandler<object>; policy: TQueuePolicy; startsOnSend: boolean }>();
  /** This process's worker of each `startsOnSend` queue, told at once about a job sent from here. */
  const promptWorkers = new Map<string, string>();
  const running = new Set<AbortController>();
  let starting: Promise<void> | null = null;
  let started = false;
  let stopped = false;

  const attach = async (name: string, handler: TJobHandler<object>, policy: TQueuePolicy, startsOnSend: boolean): Promise<void> => {
    const queueOptions = { name, policy, retryLimit: options.retryLimit, retryDelay: options.retryDelaySeconds, retryBackoff: true, expireInSeconds: options.expireInSeconds };
    await boss.createQueue(name, queueOptions);
    // A queue created by an older version keeps its first policy otherwise (createQueue leaves an existing one alone).
    if (policy !== 'standard') await boss.updateQueue(name, queueOptions);
    const workerId = await boss.work<object>(name, { pollingIntervalSeconds: options.pollingIntervalSeconds, batchSize: 1 }, async (jobs) => {
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
    if (startsOnSend) promptWorkers.set(name, workerId);
  };

  const ensureStarted = (): Promise<void> => {
    if (stopped) return Promise.reject(new Error('The job queue has stopped.'));
    starting ??= (async () => {
      boss.on('error', (error: Error) => process.stderr.write(`jobs: ${error.message}\n`));
      await boss.start();
      started = true;
      for (const [name, { handler, policy, startsOnSend }] of handlers) await attach(name, handler, policy, startsOnSend);
    })();
    return starting;
  };

  return {
    async work(name, handler, workOptions = {}) {
      const policy = workOptions.policy ?? 'standard';
      const startsOnSend = workOptions.startsOnSend === true;
      handlers.set(name, { handler: handler as TJobHandler<object>, policy, startsOnSend });
      if (started) await attach(name, handler as TJobHandler<object>, policy, startsOnSend);
    },
    async send(name, data, sendOptions = {}) {
      await ensureStarted();
      const id = await boss.send(name, data, {
        ...(sendOptions.singletonKey ? { singletonKey: sendOptions.singletonKey } : {}),
        ...(sendOptions.startAfterSeconds ? { startAfter: sendOptions.startAfterSeconds } : {}),
      });
      // A job due now on a `startsOnSend` queue need not wait for the worker's next poll (2 s in production).
      const workerId = promptWorkers.get(name);
      if (id !== null && !sendOptions.startAfterSeconds && workerId !== undefined) boss.notifyWorker(workerId);
      return id;
    },
    async stop() {
      stopped = true;
      if (!starting) return;
      await starting.catch(() => undefined);
      for (const controller of running) controller.abort();
      await boss.stop({ graceful: true, wait: true, timeout: options.stopTimeoutMs, close: false });
      released = true;
    },
    isStarted: () => started,
  };
}
