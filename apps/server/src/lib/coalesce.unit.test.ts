import { describe, expect, it } from 'vitest';
import { createCoalescer } from './coalesce';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('createCoalescer', () => {
  it('sends calls of one key made together as one batch, and calls of another key apart, each caller getting its own answer', async () => {
    const batches: { key: string; inputs: number[] }[] = [];
    const double = createCoalescer<number, number>(async (key, inputs) => {
      batches.push({ key, inputs });
      return inputs.map((input) => input * 2);
    }, { maxBatch: 10, maxInFlight: 1 });
    const answers = await Promise.all([double('a', 1), double('a', 2), double('b', 3), double('a', 4)]);
    expect(answers).toEqual([2, 4, 6, 8]);
    expect(batches).toEqual([
      { key: 'a', inputs: [1, 2, 4] },
      { key: 'b', inputs: [3] },
    ]);
  });

  it('keeps at most maxInFlight batches per key running and at most maxBatch inputs in one; the calls that wait go together next', async () => {
    const batches: number[][] = [];
    let running = 0;
    let maxRunning = 0;
    const echo = createCoalescer<number, number>(async (_key, inputs) => {
      running += 1;
      maxRunning = Math.max(maxRunning, running);
      batches.push(inputs);
      await sleep(10);
      running -= 1;
      return inputs;
    }, { maxBatch: 2, maxInFlight: 1 });
    const first = echo('a', 1);
    // After the coalescer's own setImmediate (a 1 ms sleep could end first on a loaded machine, and 2 joined 1's batch).
    await new Promise((resolve) => setImmediate(resolve));
    const later = [echo('a', 2), echo('a', 3), echo('a', 4)];
    expect(await Promise.all([first, ...later])).toEqual([1, 2, 3, 4]);
    expect(maxRunning).toBe(1);
    expect(batches).toEqual([[1], [2, 3], [4]]);
  });

  it('when a batch fails, runs each input alone: only the caller whose input fails gets the error', async () => {
    const batches: number[][] = [];
    const checked = createCoalescer<number, number>(async (_key, inputs) => {
      batches.push(inputs);
      if (inputs.includes(13)) throw new Error(`unlucky ${inputs.join(',')}`);
      return inputs;
    }, { maxBatch: 10, maxInFlight: 2 });
    const results = await Promise.allSettled([checked('a', 1), checked('a', 13), checked('a', 3)]);
    expect(results).toEqual([
      { status: 'fulfilled', value: 1 },
      { status: 'rejected', reason: new Error('unlucky 13') },
      { status: 'fulfilled', value: 3 },
    ]);
    expect(batches).toEqual([[1, 13, 3], [1], [13], [3]]);
  });
});
