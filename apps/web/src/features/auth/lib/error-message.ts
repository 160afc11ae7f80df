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
