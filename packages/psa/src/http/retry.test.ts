import { describe, expect, it } from 'vitest';
import { backoffDelayMs, defaultRetryPolicy, parseRetryAfterMs } from './retry';

describe('retry timing', () => {
  it('grows the backoff exponentially, jittered within the upper half, and caps it', () => {
    expect(backoffDelayMs(0, defaultRetryPolicy, () => 0)).toBe(125);
    expect(backoffDelayMs(0, defaultRetryPolicy, () => 1)).toBe(250);
    expect(backoffDelayMs(3, defaultRetryPolicy, () => 1)).toBe(2000);
    expect(backoffDelayMs(20, defaultRetryPolicy, () => 1)).toBe(defaultRetryPolicy.maxDelayMs);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfterMs('3', now)).toBe(3000);
    expect(parseRetryAfterMs('Thu, 01 Jan 2026 00:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfterMs('soon', now)).toBeNull();
    expect(parseRetryAfterMs(null, now)).toBeNull();
  });
});
