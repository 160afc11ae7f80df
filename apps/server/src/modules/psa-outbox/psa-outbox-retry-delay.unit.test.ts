import { describe, expect, it } from 'vitest';
import { MAX_RETRY_AFTER_MS, nextRetryDelayMs } from './psa-outbox';

const DAY_MS = 24 * 60 * 60_000;
const middle = () => 0.5;

describe('nextRetryDelayMs', () => {
  it('backs off exponentially, capped at 4 hours, and waits longer when the PSA asks', () => {
    expect(nextRetryDelayMs(1, null, middle)).toBe(15_000);
    expect(nextRetryDelayMs(3, null, middle)).toBe(60_000);
    expect(nextRetryDelayMs(20, null, middle)).toBe(4 * 60 * 60_000);
    expect(nextRetryDelayMs(1, 120, middle)).toBe(120_000);
  });

  // Regression (review 2026-11-29, finding 9): Retry-After 1e13 s made now + 1e16 ms, an invalid date that threw when stored.
  it('waits at most a day however long the PSA asks, and a date that far on is valid', () => {
    expect(MAX_RETRY_AFTER_MS).toBe(DAY_MS);
    for (const asked of [1e13, 1e300, Number.POSITIVE_INFINITY]) {
      const delay = nextRetryDelayMs(1, asked, middle);
      expect(delay).toBe(DAY_MS);
      expect(Number.isNaN(new Date(Date.now() + delay).getTime())).toBe(false);
    }
  });

  it('ignores an ask that is not a positive number', () => {
    expect(nextRetryDelayMs(1, Number.NaN, middle)).toBe(15_000);
    expect(nextRetryDelayMs(1, -60, middle)).toBe(15_000);
  });
});
