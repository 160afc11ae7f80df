import * as oidc from 'openid-client';
import { z } from 'zod';
import { MESSAGES, ZOidcProvider, validateProviderAccountDetails, type TOidcProvider, type ZValidateUserBody } from '@switchboard/contracts';
import { validation } from '../../lib/app-error';
import { findAccountByEmail, findAccountByProviderSubject, type TAccountRow } from './accounts.repository';
import { insertNewAccount, type TAccountsDeps } from './accounts.service';
import type { TOidcClients } from './oidc-client';
import type { TRequestMeta } from '../../plugins/access';

/** How long a started sign-in and a verified identity awaiting business details stay usable. */
export const OIDC_PENDING_MS = 10 * 60 * 1000;

/** What the signed state cookie keeps between the redirect to the provider and its callback. */
export const ZOidcAuthorizationState = z.object({
  provider: ZOidcProvider,
  state: z.string(),
  nonce: z.string(),
  codeVerifier: z.string(),
  returnTo: z.string().nullable(),
  issuedAt: z.number(),
});
export type TOidcAuthorizationState = z.infer<typeof ZOidcAuthorizationState>;

/** A provider-verified identity; kept only in a signed cookie until A-067 completes it. */
export const ZVerifiedIdentity = z.object({
  provider: ZOidcProvider,
  subject: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  issuedAt: z.number(),
});
export type TVerifiedIdentity = z.infer<typeof ZVerifiedIdentity>;

/** A provider sign-in that cannot go on; `reason` goes to the audit trail, never to the browser. */
export class ProviderSignInError extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/** Whether the text holds a control character (C0, DEL, C1) or any whitespace. */
const hasControlOrSpace = (value: string): boolean =>
  [...value].some((char) => {
    const code = char.codePointAt(0) ?? 0;
    return code < 0x20 || (code >= 0x7f && code <= 0x9f) || /\s/.test(char);
  });

/**
 * Only same-origin addresses are followed after sign-in (no open redirect): the value is resolved against the
 * app's origin as a browser would, and its path, query and fragment are kept. Control characters and whitespace
 * are refused, since a browser drops tabs and newlines from a URL (`/\t/evil.example` is `//evil.example`) and a
 * Location header cannot carry them; so is a path that resolves to `//` (`/.//evil.example`). Null: use the default.
 */
export function safeReturnPath(value: string | null | undefined, appOrigin: string): string | null {
  if (!value || hasControlOrSpace(value)) return null;
  let origin: string;
  let resolved: URL;
  try {
    origin = new URL(appOrigin).origin;
    resolved = new URL(value, origin);
  } catch {
    return null;
  }
  if (resolved.origin !== origin) return null;
  const path = `${resolved.pathname}${resolved.search}${resolved.hash}`;
  return path.startsWith('/') && !path.startsWith('//') ? path : null;
}

export const isFresh = (issuedAt: number, now: Date): boolean => now.getTime() - issuedAt >= 0 && now.getTime() - issuedAt < OIDC_PENDING_MS;

/** Builds the provider's authorization URL with PKCE (S256), state and nonce. */
export async function beginProviderSignIn(
  clients: TOidcClients,
  provider: TOidcProvider,
  redirectUri: string,
  returnTo: string | null,
  now: Date,
): Promise<{ authorizationUrl: URL; authorizationState: TOidcAuthorizationState }> {
  const configuration = await clients.configurationFor(provider);
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const authorizationUrl = oidc.buildAuthorizationUrl(configuration, {
    redirect_uri: redirectUri,
    scope: 'openid email profile',
    response_type: 'code',
    code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  return { authorizationUrl, authorizationState: { provider, state, nonce, codeVerifier, returnTo, issuedAt: now.getTime() } };
}

const claimText = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

/** Exchanges the code (checking state, nonce and PKCE) and returns the verified identity. */
export async function finishProviderCallback(clients: TOidcClients, authorizationState: TOidcAuthorizationState, currentUrl: URL, now: Date): Promise<TVerifiedIdentity> {
  const { provider } = authorizationState;
  const configuration = await clients.configurationFor(provider);
  const tokens = await oidc.authorizationCodeGrant(configuration, currentUrl, {
    pkceCodeVerifier: authorizationState.codeVerifier,
    expectedState: authorizationState.state,
    expectedNonce: authorizationState.nonce,
    idTokenExpected: true,
  });
  const claims = tokens.claims();
  if (!claims) throw new ProviderSignInError('no_id_token');
  let profile: Record<string, unknown> = { ...claims };
  // Some providers put email and names only in the UserInfo response.
  if (typeof claims.email !== 'string') profile = { ...(await oidc.fetchUserInfo(configuration, tokens.access_token, claims.sub)), ...claims };
  const email = claimText(profile.email).toLowerCase();
  if (!email) throw new ProviderSignInError('no_email');
  // Microsoft marks a verified domain owner with xms_edov instead of email_verified; an unverified email could be anyone's.
  const isEmailVerified = profile.email_verified === true || (provider === 'microsoft' && profile.xms_edov === true);
  if (!isEmailVerified) throw new ProviderSignInError('email_not_verified');
  const [nameFirst = '', ...nameRest] = claimText(profile.name).split(/\s+/);
  return {
    provider,
    subject: claims.sub,
    email,
    firstName: claimText(profile.given_name) || nameFirst,
    lastName: claimText(profile.family_name) || nameRest.join(' '),
    issuedAt: now.getTime(),
  };
}

/** Provider (Google, Microsoft) accounts: the account of a verified identity, and creating one. */
export function createOidcService(deps: TAccountsDeps) {
  /** The general account this identity signs in to: same provider subject first, then same verified email. */
  async function findAccountForIdentity(identity: TVerifiedIdentity): Promise<TAccountRow | undefined> {
    const db = deps.database.db;
    return (await findAccountByProviderSubject(db, identity.provider, identity.subject)) ?? findAccountByEmail(db, 'account', identity.email);
  }

  /** creates the provider account (no password) from the verified identity and the business details. */
  async function completeProviderAccount(identity: TVerifiedIdentity,
    body: z.output<typeof ZValidateUserBody>,
    meta: TRequestMeta,
  ): Promise<TAccountRow> {
    const address = { street: body.address.street.trim(), city: body.address.city.trim(), state: body.address.state.trim(), zipcode: body.address.zipcode.trim() };
    const problem = validateProviderAccountDetails({
      firstName: body.firstName,
      lastName: body.lastName,
      companyName: body.businessName,
      phoneNumber: body.businessPhone,
      companyAddress: address,
    });
    if (problem) throw validation(problem);
    if (body.businessEmail !== undefined && body.businessEmail.trim().toLowerCase() !== identity.email) {
      throw validation(MESSAGES.businessEmailMismatch, [{ name: 'businessEmail', reason: MESSAGES.businessEmailMismatch }]);
    }
    return insertNewAccount(
      deps,
      {
        kind: 'account',
        email: identity.email,
        firstName: body.firstName.trim(),
        lastName: body.lastName.trim(),
        phone: body.businessPhone.trim(),
        companyName: body.businessName.trim(),
        companyAddress: address,
        passwordHash: null,
        provider: identity.provider,
        providerSubject: identity.subject,
      },
      (created) => ({
        actorKind: 'account',
        actorId: created.id,
        action: 'account.create',
        target: identity.email,
        outcome: 'success',
        ip: meta.ip,
        requestId: meta.requestId,
        details: { provider: identity.provider },
      }),
    );
  }

  return { findAccountForIdentity, completeProviderAccount };
}
