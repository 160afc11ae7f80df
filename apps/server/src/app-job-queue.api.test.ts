import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReplicaApp, createTestApp, type TTestApp } from '../test/test-app';
import { createAppJobQueue } from './app-job-queue';

let t: TTestApp;
let isClosed = false;
beforeAll(async () => {
  t = await createTestApp({ jobs: { queue: { pollingIntervalSeconds: 0.5 } } });
});
afterAll(async () => {
  if (!isClosed) await t.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitUntil(check: () => boolean, timeoutMs = 15_000): Promise<void> {
  for (const startedAt = Date.now(); !check(); await sleep(100)) {
    if (Date.now() - startedAt > timeoutMs) throw new Error('timed out');
  }
}

describe("the app's job queue (deps.jobQueue)", () => {
  it('waits for a handler that ignores its signal half the graceful shutdown budget, then leaves its job for a retry', async () => {
    // SHUTDOWN_TIMEOUT_MS 3 s: the queue gives running jobs 1.5 s of it.
    const jobs = createAppJobQueue({ database: t.deps.database, config: { shutdownTimeoutMs: 3_000 }, jobs: { queue: { pollingIntervalSeconds: 0.5 } } });
    let markStarted = () => undefined as void;
    const started = new Promise<void>((resolve) => (markStarted = resolve));
    await jobs.work('app-queue-stuck', async () => {
      markStarted();
      await sleep(6_000);
    });
    const jobId = await jobs.send('app-queue-stuck', {});
    await started;

    const stopAt = Date.now();
    await jobs.stop();
    const stoppedAfterMs = Date.now() - stopAt;

    expect(stoppedAfterMs).toBeGreaterThanOrEqual(1_400);
    expect(stoppedAfterMs).toBeLessThan(4_400);
    const { rows } = await t.deps.database.executeSql('SELECT state FROM pgboss.job WHERE id = $1', [jobId]);
    expect(rows).toEqual([{ state: 'retry' }]);
  });

  it("runs the app's jobs after a replica closed (each app has its own queue) and stops when its own app closes", async () => {
    const seen: number[] = [];
    await t.deps.jobQueue.work<{ n: number }>('app-queue-own', async (job) => {
      seen.push(job.n);
    });
    await t.deps.jobQueue.send('app-queue-own', { n: 1 });
    await waitUntil(() => seen.includes(1));

    // Another replica on the same database starts and stops: its queue stops with it, not this app's.
    const replica = await createReplicaApp(t);
    await replica.close();
    expect(await t.deps.jobQueue.send('app-queue-own', { n: 2 })).toEqual(expect.any(String));
    await waitUntil(() => seen.includes(2));

    await t.close();
    isClosed = true;
    expect(t.deps.jobQueue.isStarted()).toBe(true);
    await expect(t.deps.jobQueue.send('app-queue-own', { n: 3 })).rejects.toThrow('The job queue has stopped.');
    expect(seen).toEqual([1, 2]);
  });
});
