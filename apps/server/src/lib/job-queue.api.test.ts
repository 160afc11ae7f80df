import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TTestApp } from '../../test/test-app';
import { createJobQueue, DEFAULT_JOB_QUEUE_OPTIONS } from './job-queue';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('the durable job queue (pg-boss)', () => {
  it('stops within its stop timeout while a handler ignores its signal, and the job waits for a retry', async () => {
    const jobs = createJobQueue(t.deps.database, { ...DEFAULT_JOB_QUEUE_OPTIONS, pollingIntervalSeconds: 0.5, stopTimeoutMs: 1_000 });
    let aborted = false;
    let markStarted = () => undefined as void;
    const started = new Promise<void>((resolve) => (markStarted = resolve));
    await jobs.work('stop-test-stuck', async (_data, signal) => {
      signal.addEventListener('abort', () => (aborted = true));
      markStarted();
      // Work that cannot be interrupted (a model being trained): it outlives the stop.
      await new Promise((resolve) => setTimeout(resolve, 20_000).unref());
    });
    const jobId = await jobs.send('stop-test-stuck', { step: 1 });
    await started;

    const t0 = Date.now();
    await jobs.stop();
    const stoppedAfterMs = Date.now() - t0;

    expect(aborted).toBe(true);
    expect(stoppedAfterMs).toBeGreaterThanOrEqual(900);
    expect(stoppedAfterMs).toBeLessThan(5_000);
    const { rows } = await t.deps.database.executeSql('SELECT state FROM pgboss.job WHERE id = $1', [jobId]);
    expect(rows).toEqual([{ state: 'retry' }]);
  });
});
