import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TTestApp } from '../../test/test-app';
import { createJobQueue, DEFAULT_JOB_QUEUE_OPTIONS } from './job-queue';

let t: TTestApp;
let isClosed = false;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  if (!isClosed) await t.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the durable job queue (pg-boss)', () => {
  it('stops within its stop timeout while a handler ignores its signal; the job waits for a retry and the late finish writes nothing', async () => {
    const jobs = createJobQueue(t.deps.database, { ...DEFAULT_JOB_QUEUE_OPTIONS, pollingIntervalSeconds: 0.5, stopTimeoutMs: 1_000 });
    let aborted = false;
    let finished = false;
    let markStarted = () => undefined as void;
    const started = new Promise<void>((resolve) => (markStarted = resolve));
    await jobs.work('stop-test-stuck', async (_data, signal) => {
      signal.addEventListener('abort', () => (aborted = true));
      markStarted();
      // Work that cannot be interrupted (a model being trained): it outlives the stop.
      await sleep(3_000);
      finished = true;
    });
    const jobId = await jobs.send('stop-test-stuck', { step: 1 });
    await started;

    const t0 = Date.now();
    await jobs.stop();
    const stoppedAfterMs = Date.now() - t0;

    expect(aborted).toBe(true);
    expect(finished).toBe(false);
    expect(stoppedAfterMs).toBeGreaterThanOrEqual(900);
    expect(stoppedAfterMs).toBeLessThan(2_900);
    const { rows } = await t.deps.database.executeSql('SELECT state FROM pgboss.job WHERE id = $1', [jobId]);
    expect(rows).toEqual([{ state: 'retry' }]);

    // The app shuts its database while the handler still runs; its late completion must not reach it (an
    // unhandled "closed" rejection here fails the run).
    await t.close();
    isClosed = true;
    await sleep(3_000);
    expect(finished).toBe(true);
  });
});
