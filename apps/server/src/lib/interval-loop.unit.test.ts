import { describe, expect, it } from 'vitest';
import { createIntervalLoop } from './interval-loop';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('createIntervalLoop', () => {
  it('runs passes one after another, never two at once, and keeps going after a failed pass', async () => {
    let active = 0;
    let maxActive = 0;
    let passes = 0;
    const errors: unknown[] = [];
    const loop = createIntervalLoop({
      intervalMs: 1,
      async run() {
        active += 1;
        maxActive = Math.max(maxActive, active);
        passes += 1;
        await sleep(5);
        active -= 1;
        if (passes === 1) throw new Error('first pass failed');
        return passes;
      },
      onError: (error) => errors.push(error),
    });
    loop.start();
    loop.start();
    await sleep(60);
    await loop.stop();
    expect(passes).toBeGreaterThanOrEqual(3);
    expect(maxActive).toBe(1);
    expect(errors).toHaveLength(1);
    expect(String(errors[0])).toContain('first pass failed');
    const afterStop = passes;
    await sleep(20);
    expect(passes).toBe(afterStop);
  });

  it('queues runOnce after the pass in progress and answers with its result', async () => {
    const order: string[] = [];
    let call = 0;
    const loop = createIntervalLoop({
      intervalMs: 60_000,
      async run() {
        call += 1;
        const mine = call;
        order.push(`start ${mine}`);
        await sleep(10);
        order.push(`end ${mine}`);
        return mine;
      },
      onError: () => undefined,
    });
    const [first, second] = await Promise.all([loop.runOnce(), loop.runOnce()]);
    expect([first, second]).toEqual([1, 2]);
    expect(order).toEqual(['start 1', 'end 1', 'start 2', 'end 2']);
  });

  it('stop() tells the pass in progress through its signal and waits for it to end', async () => {
    let sawAbort = false;
    let hasEnded = false;
    const loop = createIntervalLoop({
      intervalMs: 1,
      async run(signal) {
        while (!signal.aborted) await sleep(2);
        sawAbort = true;
        await sleep(5);
        hasEnded = true;
      },
      onError: () => undefined,
    });
    loop.start();
    await sleep(15);
    await loop.stop();
    expect(sawAbort).toBe(true);
    expect(hasEnded).toBe(true);
  });
});
