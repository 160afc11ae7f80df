import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@switchboard/contracts';
import { ApiError } from '../../lib/api-client';
import { psaErrorMessage } from './psa-error-message';

const badKeys = new ApiError({ status: 502, code: 'psa_bad_keys', detail: `${MESSAGES.psa.badKeys} (Autotask rejected the API username, secret or integration code.)` });

describe('psaErrorMessage', () => {
  // Bug: on the integrations screen (connect form and wizard) refused keys said "Check them under Integrations".
  it('gives refused keys the PSA reason and what to do on the integrations screen, never "under Integrations"', () => {
    expect(psaErrorMessage(badKeys, 'connect-form')).toBe('Autotask rejected the API username, secret or integration code. Check the keys above, correct them and press Connect again.');
    expect(psaErrorMessage(badKeys, 'wizard')).toBe('Autotask rejected the API username, secret or integration code. Press Disconnect under PSA connection above, then connect again with the right keys.');
  });

  it('leaves every other error as the server said it', () => {
    expect(psaErrorMessage(new ApiError({ status: 503, code: 'psa_unavailable', detail: MESSAGES.psa.unavailable }), 'wizard')).toBe(MESSAGES.psa.unavailable);
    expect(psaErrorMessage(new Error('boom'), 'wizard')).toBe(MESSAGES.unexpectedError);
  });
});
