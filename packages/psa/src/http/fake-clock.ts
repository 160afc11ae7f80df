import type { TPsaClock } from './clock';

/** A clock for tests: sleeping advances time instantly and is recorded. */
export function createFakeClock(start = 0): TPsaClock & { sleeps: number[] } {
  let now = start;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    sleep: (milliseconds) => {
      sleeps.push(milliseconds);
      now += milliseconds;
      return Promise.resolve();
    },
  };
}
