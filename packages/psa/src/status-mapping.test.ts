import { describe, expect, it } from 'vitest';
import { mapAutotaskError } from './autotask/autotask-http';
import { mapConnectWiseError } from './connectwise/connectwise-http';
import type { THttpResponse } from './http/request';

const answer = (status: number, body: unknown = null): THttpResponse => ({ status, headers: new Headers(), body });

// Regression (review 2026-11-29, finding 7): a 408 was read as a permanent refusal ('validation'), so the outbox dropped
// a write the PSA may have carried out. A 408 is an answer of unknown outcome, retried (a create looked up first) like a
// 5xx; a 409 stays a refusal on both PSAs.
describe('statuses of unknown outcome', () => {
  it('ConnectWise: 408 is unavailable, 409 and 400 are refusals', () => {
    expect(mapConnectWiseError(answer(408)).kind).toBe('unavailable');
    expect(mapConnectWiseError(answer(409, { code: 'Conflict', message: 'The record is in use.' }))).toMatchObject({ kind: 'validation', message: 'The record is in use.' });
    expect(mapConnectWiseError(answer(400)).kind).toBe('validation');
  });

  it('Autotask: 408 is unavailable, 409 and 400 are refusals', () => {
    expect(mapAutotaskError(answer(408)).kind).toBe('unavailable');
    expect(mapAutotaskError(answer(409, { errors: ['The record was changed by someone else.'] })).kind).toBe('validation');
    expect(mapAutotaskError(answer(400)).kind).toBe('validation');
  });
});
