import { BOOTSTRAP_TOKEN_HEADER } from '@switchboard/contracts';
import type { TAddTechnicianBody, TOidcProvider } from '@switchboard/contracts';
import { ApiError, apiFetch } from '../../../lib/api-client';
import { usersSegment, type TLoginUserKind } from '../lib/user-kind';

// The calls of the sign-in pages' first screen (and of the pages that share this file's chunk); the
// steps and pages after it call auth-steps-api.ts, which loads with them (issue #6 §5: 150 KB gzip).

/** the MSPs an email belongs to. */
export function lookupMspDomains(kind: TLoginUserKind, emailId: string) {
  return apiFetch(`/db/${usersSegment(kind)}/signin`, { method: 'POST', body: { emailId }, schema: (s) => s.ZEmailSignInResponse });
}

/**
 * Whether no MSP uses this custom domain yet, asked on step 1 of the MSP sign-up through the
 * public profile read: a profile means taken, a 404 means free.
 */
export async function isCustomDomainFree(customDomain: string): Promise<boolean> {
  try {
    await apiFetch('/db/msp', { query: { customDomain } });
    return false;
  } catch (cause) {
    if (cause instanceof ApiError && cause.status === 404) return true;
    throw cause;
  }
}

/** whether a general account exists and how it signs in. */
export function lookupAccount(email: string) {
  return apiFetch('/auth/getUserByEmail', { query: { email }, schema: (s) => s.ZGetUserByEmailResponse });
}

export function fetchOidcProviders() {
  return apiFetch('/auth/oidc/providers', { schema: (s) => s.ZOidcProvidersResponse });
}

/** Where a provider sign-in starts; `returnTo` (a path of this site: the server checks it) is where it comes back to. */
export function oidcStartUrl(provider: TOidcProvider, returnTo: string | null = null): string {
  return returnTo ? `/auth/oidc/${provider}/start?${new URLSearchParams({ returnTo }).toString()}` : `/auth/oidc/${provider}/start`;
}

/** multipart, because of the optional logo. */
export function createMsp(form: FormData) {
  return apiFetch('/db/msp', { method: 'POST', body: form, schema: (s) => s.ZCreateMspResponse });
}

/** A-035 with the one-time bootstrap token (decisions #6). */
export function addFirstTechnician(msp: string, bootstrapToken: string, body: TAddTechnicianBody) {
  return apiFetch(`/db/${encodeURIComponent(msp)}/technicianUsers/add`, {
    method: 'POST',
    headers: { [BOOTSTRAP_TOKEN_HEADER]: bootstrapToken },
    body,
    schema: (s) => s.ZAddedTechnician,
  });
}

/** Dev outbox (non-production): mail captured instead of sent. */
export function fetchOutbox(to: string) {
  return apiFetch('/dev/outbox', { query: { to: to === '' ? undefined : to, limit: 50 }, schema: (s) => s.ZOutbox });
}
