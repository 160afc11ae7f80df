import { describe, expect, it } from 'vitest';
import { mapAutotaskError } from '../autotask/autotask-http';
import { mapConnectWiseError } from '../connectwise/connectwise-http';

// Regression (review 2026-11-29, finding 9): a Retry-After of 1e13 seconds was passed on as it was, and the
// outbox's next try (now + 1e16 ms) was an invalid date that threw when stored.
const limited = (retryAfter: string) => ({ status: 429, body: null, headers: new Headers({ 'Retry-After': retryAfter }) });
const DAY_SECONDS = 24 * 60 * 60;

describe.each([
  ['ConnectWise', mapConnectWiseError],
  ['Autotask', mapAutotaskError],
])('%s Retry-After', (_psa, mapError) => {
  it('takes at most a day from a huge Retry-After', () => {
    expect(mapError(limited('10000000000000'))).toMatchObject({ kind: 'rate_limited', retryAfterSeconds: DAY_SECONDS });
  });

  it('keeps an ordinary Retry-After and ignores one that is not a positive number', () => {
    expect(mapError(limited('30')).retryAfterSeconds).toBe(30);
    expect(mapError(limited('soon')).retryAfterSeconds).toBeNull();
    expect(mapError(limited('-5')).retryAfterSeconds).toBeNull();
  });
});
