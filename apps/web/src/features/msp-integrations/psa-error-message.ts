import { INTEGRATION_FORM_MESSAGES, MESSAGES } from '@switchboard/contracts';
import { isApiError } from '../../lib/api-client';

/**
 * A failure on the MSP integrations screen in words for where the admin stands. Keys the PSA refused get the
 * PSA's own reason ("Autotask rejected the API username, secret or integration code.") and what to do on this
 * screen: the server's general advice ("Check them under Integrations") sends them to the screen they are on.
 */
export function psaErrorMessage(error: unknown, where: 'connect-form' | 'wizard'): string {
  if (!isApiError(error)) return MESSAGES.unexpectedError;
  if (error.code !== 'psa_bad_keys') return error.detail;
  const psaReason = error.detail.startsWith(MESSAGES.psa.badKeys) ? error.detail.slice(MESSAGES.psa.badKeys.length).trim() : '';
  const reason = /^\((.+)\)$/.exec(psaReason)?.[1] ?? 'The PSA rejected the keys.';
  return `${reason} ${where === 'connect-form' ? INTEGRATION_FORM_MESSAGES.badKeysHere : INTEGRATION_FORM_MESSAGES.badKeysInWizard}`;
}
