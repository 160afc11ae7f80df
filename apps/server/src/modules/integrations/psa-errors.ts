import { MESSAGES } from '@switchboard/contracts';
import { isPsaError, type PsaError } from '@switchboard/psa';
import { AppError } from '../../lib/app-error';

/**
 * How PSA failures reach the client (problem+json codes):
 * bad keys 502 psa_bad_keys (the upstream refused our stored credentials, not the caller's request),
 * not found 404 psa_not_found, validation 422 psa_validation with the PSA's field messages as invalidParams,
 * not supported 422 psa_validation with flags.notSupported, rate limited 429 psa_rate_limited with Retry-After,
 * unavailable 503 psa_unavailable; a missing integration is 409 psa_not_configured (psaNotConfigured below).
 */
export function appErrorFromPsaError(error: PsaError): AppError {
  switch (error.kind) {
    case 'bad_keys':
      return new AppError('psa_bad_keys', `${MESSAGES.psa.badKeys} (${error.message})`);
    case 'not_found':
      return new AppError('psa_not_found', MESSAGES.psa.notFound);
    case 'validation':
      return new AppError('psa_validation', `${MESSAGES.psa.validation} ${error.message}`, {
        invalidParams: error.fieldMessages.map((fieldMessage) => ({ name: fieldMessage.field ?? '', reason: fieldMessage.message })),
      });
    case 'not_supported':
      return new AppError('psa_validation', `${MESSAGES.psa.notSupported} ${error.message}`, { flags: { notSupported: true } });
    case 'rate_limited':
      return new AppError('psa_rate_limited', MESSAGES.psa.rateLimited, { retryAfterSeconds: error.retryAfterSeconds ?? 30 });
    case 'unavailable':
      return new AppError('psa_unavailable', MESSAGES.psa.unavailable);
  }
}

export const psaNotConfigured = () => new AppError('psa_not_configured', MESSAGES.psa.notConfigured);

/** Runs a PSA call and turns its typed failure into the API's problem+json error. */
export async function withPsaErrors<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (isPsaError(error)) throw appErrorFromPsaError(error);
    throw error;
  }
}
