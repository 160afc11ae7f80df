import type { TMspSignInPage } from '@switchboard/contracts';
import { isApiError, loadSchemas } from '../../../lib/api-client';

/** Whether a failed call carried one of the spec's UI flags, e.g. `emailCheck`. */
export function hasFlag(error: unknown, flag: string): boolean {
  return isApiError(error) && error.flags[flag] !== undefined && error.flags[flag] !== false;
}

/** The MSP sign-in pages a general sign-in answer points a technician or client to (A-068's `flags.mspPages`). */
export async function mspSignInPagesOf(error: unknown): Promise<TMspSignInPage[]> {
  if (!isApiError(error) || error.flags.mspPages === undefined) return [];
  const { ZMspSignInPages } = await loadSchemas();
  const parsed = ZMspSignInPages.safeParse(error.flags.mspPages);
  return parsed.success ? parsed.data : [];
}

/**
 * A forgot-password call that did nothing at all: refused by the rate limit, or never reached the server. R-108 has
 * the flow's failures only logged, but then the person waits for a code that was never sent (or presses a button
 * that silently does nothing), so these two are said in plain words; neither tells whether the account exists.
 */
export function isNothingDoneFailure(error: unknown): boolean {
  return isApiError(error) && (error.code === 'rate_limited' || error.code === 'network');
}
