import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, ZAccountSignedIn, ZOidcPendingResponse } from '@switchboard/contracts';
import { accounts, auditEvents, sessions } from '@switchboard/db';
import { startLocalOidcProvider, type TLocalOidcProvider } from '../../../test/local-oidc-provider';
import { createTestApp, TestClient, type TTestApp } from '../../../test/test-app';
import { buildApp } from '../../app';
import { OIDC_IDENTITY_COOKIE, OIDC_STATE_COOKIE } from './oidc.routes';

const APP_ORIGIN = 'http://app.switchboard.test';
let idp: TLocalOidcProvider;
let t: TTestApp;

const identity = (login: string, overrides: Partial<{ email_verified: boolean; given_name: string; family_name: string }> = {}) => ({
  email: `${login}@contoso.example`,
  email_verified: true,
  given_name: 'Alex',
  family_name: 'Morgan',
  ...overrides,
});

beforeAll(async () => {
  idp = await startLocalOidcProvider({
    redirectUris: [`${APP_ORIGIN}/auth/oidc/microsoft/callback`, `${APP_ORIGIN}/auth/getGoogleToken`],
    identities: {
      newcomer: identity('newcomer'),
      returning: identity('returning'),
      formuser: identity('formuser'),
      expiring: identity('expiring'),
      invalid: identity('invalid'),
      unverified: identity('unverified', { email_verified: false }),
    },
  });
  const client = { issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret };
  t = await createTestApp({ config: { publicUrl: APP_ORIGIN, oidc: { microsoft: client, google: client } } });
});
afterAll(async () => {
  await t.close();
  await idp.close();
});

const cookieValue = (response: LightMyRequestResponse, name: string) => response.cookies.find((cookie) => cookie.name === name);
const cookieHeader = (name: string, value: string) => ({ cookie: `${name}=${encodeURIComponent(value)}` });

/** GET /auth/oidc/{provider}/start as the browser's navigation (no CSRF header), returning the provider URL and the state cookie. */
async function startSignIn(client: TestClient, provider: 'microsoft' | 'google', returnTo?: string) {
  const response = await client.get(`/auth/oidc/${provider}/start${returnTo ? `?returnTo=${encodeURIComponent(returnTo)}` : ''}`, { csrf: false });
  expect(response.statusCode).toBe(302);
  const stateCookie = cookieValue(response, OIDC_STATE_COOKIE);
  expect(stateCookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/auth' });
  return { authorizationUrl: String(response.headers.location), stateCookie: stateCookie?.value ?? '' };
}

/** The provider's redirect back, delivered to the app with the state cookie the browser holds. */
function deliverCallback(client: TestClient, callbackUrl: URL, stateCookie: string) {
  return client.get(`${callbackUrl.pathname}${callbackUrl.search}`, { csrf: false, headers: cookieHeader(OIDC_STATE_COOKIE, stateCookie) });
}

const businessDetails = {
  firstName: 'Alex',
  lastName: 'Morgan',
  businessName: 'Contoso Support',
  businessPhone: '303-555-0177',
  address: { street: '1 Market St', city: 'Boulder', state: 'Colorado', zipcode: '80301' },
};

async function auditFor(action: string, outcome: 'success' | 'failure') {
  return t.deps.database.db.select().from(auditEvents).where(and(eq(auditEvents.action, action), eq(auditEvents.outcome, outcome)));
}

describe('provider sign-in (OIDC authorization code + PKCE against a real local provider)', () => {
  it('lists the configured providers', async () => {
    expect((await new TestClient(t.app).get('/auth/oidc/providers')).json()).toEqual({ microsoft: true, google: true });
  });

  it('sends the browser to the provider with PKCE (S256), state and nonce', async () => {
    const { authorizationUrl } = await startSignIn(new TestClient(t.app, '10.2.0.1'), 'microsoft');
    const url = new URL(authorizationUrl);
    expect(url.origin).toBe(idp.issuer);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: idp.clientId,
      redirect_uri: `${APP_ORIGIN}/auth/oidc/microsoft/callback`,
      response_type: 'code',
      code_challenge_method: 'S256',
      scope: 'openid email profile',
    });
    expect(url.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(url.searchParams.get('state')).toBeTruthy();
    expect(url.searchParams.get('nonce')).toBeTruthy();
  });

  it('takes a new Microsoft identity through business details (A-067) to a working session', async () => {
    const client = new TestClient(t.app, '10.2.0.2');
    const { authorizationUrl, stateCookie } = await startSignIn(client, 'microsoft');
    const callbackUrl = await idp.signIn(authorizationUrl, 'newcomer', APP_ORIGIN);
    expect(callbackUrl.pathname).toBe('/auth/oidc/microsoft/callback');
    expect(callbackUrl.searchParams.get('code')).toBeTruthy();

    const callback = await deliverCallback(client, callbackUrl, stateCookie);
    expect(callback.statusCode).toBe(302);
    expect(callback.headers.location).toBe('/auth/signup?provider=microsoft&pending=1');
    expect(client.sessionCookie).toBeUndefined();
    const identityCookie = cookieValue(callback, OIDC_IDENTITY_COOKIE);
    expect(identityCookie).toMatchObject({ httpOnly: true, path: '/auth' });
    const pendingIdentity = identityCookie?.value ?? '';

    const pending = await client.get('/auth/oidc/pending', { headers: cookieHeader(OIDC_IDENTITY_COOKIE, pendingIdentity) });
    expect(ZOidcPendingResponse.parse(pending.json())).toEqual({ provider: 'microsoft', email: 'newcomer@contoso.example', firstName: 'Alex', lastName: 'Morgan' });

    const completed = await client.post('/auth/validateUser?token=microsoft', businessDetails, { headers: cookieHeader(OIDC_IDENTITY_COOKIE, pendingIdentity) });
    expect(completed.statusCode).toBe(201);
    const signedIn = ZAccountSignedIn.parse(completed.json());
    expect(signedIn).toEqual({
      user: { principal: 'account', id: signedIn.user.id, accountKind: 'account', firstName: 'Alex', lastName: 'Morgan', email: 'newcomer@contoso.example', phoneNumber: '303-555-0177', companyName: 'Contoso Support' },
      redirectTo: `/dashboard/${signedIn.user.id}`,
    });
    expect(client.sessionCookie).toBeDefined();

    const check = await client.get('/auth/api/auth/microsoft-user');
    expect(check.json()).toMatchObject({ authenticated: true, user: { principal: 'account', id: signedIn.user.id, email: 'newcomer@contoso.example' } });
    const [account] = await t.deps.database.db.select().from(accounts).where(eq(accounts.id, signedIn.user.id));
    expect(account).toMatchObject({ provider: 'microsoft', providerSubject: 'newcomer', passwordHash: null, companyAddress: businessDetails.address });
    const [session] = await t.deps.database.db.select().from(sessions).where(eq(sessions.accountId, signedIn.user.id));
    expect(session?.authMethod).toBe('microsoft');

    // The provider account has no password: the password sign-in points to the provider.
    const passwordSignIn = await new TestClient(t.app, '10.2.0.3').post('/auth/signin', { emailId: 'newcomer@contoso.example', password: 'Any!Passw0rd' });
    expect(passwordSignIn.statusCode).toBe(409);
    expect(passwordSignIn.json()).toMatchObject({ code: 'provider_account', detail: MESSAGES.providerAccount });
    const created = await auditFor('account.create', 'success');
    expect(created.some((event) => event.actorId === signedIn.user.id)).toBe(true);

    // The identity is spent: a second completion finds nothing pending... and the same identity now simply signs in.
    const again = await startSignIn(client, 'microsoft');
    const secondCallback = await deliverCallback(client, await idp.signIn(again.authorizationUrl, 'newcomer', APP_ORIGIN), again.stateCookie);
    expect(secondCallback.headers.location).toBe(`/dashboard/${signedIn.user.id}`);
  });

  it('signs an existing account in through Google (A-066) when the verified email matches, honouring returnTo', async () => {
    const formClient = new TestClient(t.app, '10.2.0.4');
    const created = await formClient.post('/auth/createAccount', {
      firstName: 'Form',
      lastName: 'User',
      companyName: 'Contoso',
      email: 'formuser@contoso.example',
      phoneNumber: '3035550100',
      companyAddress: { street: '1 Main St', city: 'Denver', state: 'Colorado', zipcode: '80202' },
      password: 'Str0ng!Pass',
    });
    const accountId = ZAccountSignedIn.parse(created.json()).user.id;

    const client = new TestClient(t.app, '10.2.0.5');
    const { authorizationUrl, stateCookie } = await startSignIn(client, 'google', '/dashboard/settings');
    expect(new URL(authorizationUrl).searchParams.get('redirect_uri')).toBe(`${APP_ORIGIN}/auth/getGoogleToken`);
    const callbackUrl = await idp.signIn(authorizationUrl, 'formuser', APP_ORIGIN);
    expect(callbackUrl.pathname).toBe('/auth/getGoogleToken');
    const callback = await deliverCallback(client, callbackUrl, stateCookie);
    expect(callback.statusCode).toBe(302);
    expect(callback.headers.location).toBe('/dashboard/settings');
    expect(client.sessionCookie).toBeDefined();
    expect((await client.get('/auth/api/auth/microsoft-user')).json()).toMatchObject({ authenticated: true, user: { id: accountId } });
    const accountSessions = await t.deps.database.db.select().from(sessions).where(eq(sessions.accountId, accountId));
    expect(accountSessions.map((session) => session.authMethod).sort()).toEqual(['google', 'password']);
    const successes = await auditFor('account.provider_sign_in', 'success');
    expect(successes.some((event) => event.actorId === accountId)).toBe(true);
  });

  it('never follows a returnTo that leaves the site', async () => {
    const client = new TestClient(t.app, '10.2.0.6');
    const { authorizationUrl, stateCookie } = await startSignIn(client, 'google', '//evil.example/x');
    const callback = await deliverCallback(client, await idp.signIn(authorizationUrl, 'formuser', APP_ORIGIN), stateCookie);
    expect(callback.headers.location).toMatch(/^\/dashboard\/[0-9a-f-]{36}$/);
  });

  // Security review: only `//` and `\` were refused, so `/\t/evil.example/x` (a browser drops the tab: `//evil.example/x`)
  // was followed after sign-in, and a newline answered 500 after the session had been created.
  it.each([
    ['a tab', '/\t/evil.example/x'],
    ['a newline', '/\n/evil.example/x'],
    ['a dot segment', '/.//evil.example/x'],
    ['a parent segment', '/a/..//evil.example/x'],
    ['a space', '/ /evil.example/x'],
  ])('never follows a returnTo with %s that a browser would read as another site', async (_case, returnTo) => {
    const client = new TestClient(t.app, '10.2.0.16');
    const { authorizationUrl, stateCookie } = await startSignIn(client, 'google', returnTo);
    const callback = await deliverCallback(client, await idp.signIn(authorizationUrl, 'formuser', APP_ORIGIN), stateCookie);
    expect(callback.statusCode).toBe(302);
    expect(callback.headers.location).toMatch(/^\/dashboard\/[0-9a-f-]{36}$/);
  });

  it('follows a returnTo on the app\'s own origin as its path, query and fragment', async () => {
    const client = new TestClient(t.app, '10.2.0.17');
    const { authorizationUrl, stateCookie } = await startSignIn(client, 'google', `${APP_ORIGIN}/dashboard/settings?tab=2#keys`);
    const callback = await deliverCallback(client, await idp.signIn(authorizationUrl, 'formuser', APP_ORIGIN), stateCookie);
    expect(callback.headers.location).toBe('/dashboard/settings?tab=2#keys');
  });

  it('redirects to the login error page when the state does not match', async () => {
    const client = new TestClient(t.app, '10.2.0.7');
    const { authorizationUrl, stateCookie } = await startSignIn(client, 'microsoft');
    const callbackUrl = await idp.signIn(authorizationUrl, 'returning', APP_ORIGIN);
    callbackUrl.searchParams.set('state', 'forged-state');
    const callback = await deliverCallback(client, callbackUrl, stateCookie);
    expect(callback.statusCode).toBe(302);
    expect(callback.headers.location).toBe('/auth/login?error=microsoft');
    expect(client.sessionCookie).toBeUndefined();
    const failures = await auditFor('account.provider_sign_in', 'failure');
    expect(failures.some((event) => event.details?.reason === 'code_exchange_failed')).toBe(true);
  });

  it('redirects to the login error page without the state cookie, or with a tampered one', async () => {
    const client = new TestClient(t.app, '10.2.0.8');
    const { authorizationUrl, stateCookie } = await startSignIn(client, 'microsoft');
    const callbackUrl = await idp.signIn(authorizationUrl, 'returning', APP_ORIGIN);
    const withoutCookie = await client.get(`${callbackUrl.pathname}${callbackUrl.search}`, { csrf: false });
    expect(withoutCookie.headers.location).toBe('/auth/login?error=microsoft');
    const tampered = await deliverCallback(client, callbackUrl, stateCookie.replace(/.$/, (last) => (last === 'A' ? 'B' : 'A')));
    expect(tampered.headers.location).toBe('/auth/login?error=microsoft');
    const failures = await auditFor('account.provider_sign_in', 'failure');
    expect(failures.some((event) => event.details?.reason === 'missing_or_expired_state')).toBe(true);
  });

  it('refuses an identity whose email the provider has not verified', async () => {
    const client = new TestClient(t.app, '10.2.0.9');
    const { authorizationUrl, stateCookie } = await startSignIn(client, 'google');
    const callback = await deliverCallback(client, await idp.signIn(authorizationUrl, 'unverified', APP_ORIGIN), stateCookie);
    expect(callback.headers.location).toBe('/auth/login?error=google');
    const failures = await auditFor('account.provider_sign_in', 'failure');
    expect(failures.some((event) => event.details?.reason === 'email_not_verified')).toBe(true);
  });

  it('checks the business details in the sign-up order and keeps the identity server-signed', async () => {
    const client = new TestClient(t.app, '10.2.0.10');
    const { authorizationUrl, stateCookie } = await startSignIn(client, 'microsoft');
    const callback = await deliverCallback(client, await idp.signIn(authorizationUrl, 'invalid', APP_ORIGIN), stateCookie);
    const pendingIdentity = cookieValue(callback, OIDC_IDENTITY_COOKIE)?.value ?? '';

    const blankPhone = await client.post('/auth/validateUser?token=microsoft', { ...businessDetails, businessPhone: '', businessName: '' }, { headers: cookieHeader(OIDC_IDENTITY_COOKIE, pendingIdentity) });
    expect(blankPhone.statusCode).toBe(400);
    expect(blankPhone.json()).toMatchObject({ detail: MESSAGES.signup.phoneNumber.required });
    const badBusiness = await client.post('/auth/validateUser?token=microsoft', { ...businessDetails, businessName: 'Contoso & Co' }, { headers: cookieHeader(OIDC_IDENTITY_COOKIE, pendingIdentity) });
    expect(badBusiness.json()).toMatchObject({ detail: MESSAGES.signup.companyName.invalid });
    const otherEmail = await client.post('/auth/validateUser?token=microsoft', { ...businessDetails, businessEmail: 'someone.else@contoso.example' }, { headers: cookieHeader(OIDC_IDENTITY_COOKIE, pendingIdentity) });
    expect(otherEmail.json()).toMatchObject({ detail: MESSAGES.businessEmailMismatch });

    const wrongProvider = await client.post('/auth/validateUser?token=google', businessDetails, { headers: cookieHeader(OIDC_IDENTITY_COOKIE, pendingIdentity) });
    expect(wrongProvider.json()).toMatchObject({ detail: MESSAGES.providerSignupExpired });
    const forged = await client.post('/auth/validateUser?token=microsoft', businessDetails, {
      headers: cookieHeader(OIDC_IDENTITY_COOKIE, JSON.stringify({ provider: 'microsoft', subject: 'x', email: 'ceo@contoso.example', firstName: 'A', lastName: 'B', issuedAt: Date.now() })),
    });
    expect(forged.statusCode).toBe(400);
    expect(forged.json()).toMatchObject({ detail: MESSAGES.providerSignupExpired });
    const noCsrf = await client.post('/auth/validateUser?token=microsoft', businessDetails, { csrf: false, headers: cookieHeader(OIDC_IDENTITY_COOKIE, pendingIdentity) });
    expect(noCsrf.statusCode).toBe(403);
    expect(client.sessionCookie).toBeUndefined();
  });

  it('forgets a pending identity after 10 minutes', async () => {
    const client = new TestClient(t.app, '10.2.0.11');
    const { authorizationUrl, stateCookie } = await startSignIn(client, 'microsoft');
    const callback = await deliverCallback(client, await idp.signIn(authorizationUrl, 'expiring', APP_ORIGIN), stateCookie);
    const pendingIdentity = cookieValue(callback, OIDC_IDENTITY_COOKIE)?.value ?? '';
    t.advanceClock(11 * 60 * 1000);
    const late = await client.post('/auth/validateUser?token=microsoft', businessDetails, { headers: cookieHeader(OIDC_IDENTITY_COOKIE, pendingIdentity) });
    expect(late.statusCode).toBe(400);
    expect(late.json()).toMatchObject({ detail: MESSAGES.providerSignupExpired });
    expect((await client.get('/auth/oidc/pending', { headers: cookieHeader(OIDC_IDENTITY_COOKIE, pendingIdentity) })).statusCode).toBe(404);
  });
});

describe('provider sign-in when no provider is configured', () => {
  it('hides the buttons and sends a start back to the login error page', async () => {
    const bare = await createTestApp({ config: { oidc: {} } });
    try {
      const client = new TestClient(bare.app);
      expect((await client.get('/auth/oidc/providers')).json()).toEqual({ microsoft: false, google: false });
      const start = await client.get('/auth/oidc/microsoft/start', { csrf: false });
      expect(start.statusCode).toBe(302);
      expect(start.headers.location).toBe('/auth/login?error=microsoft');
    } finally {
      await bare.close();
    }
  });
});

describe('provider sign-in next to the built SPA', () => {
  // Regression: the SPA fallback answered browser navigations to the start and callback paths with index.html.
  it('serves the start and callback routes, not index.html, to browser navigations', async () => {
    const webDist = mkdtempSync(join(tmpdir(), 'sb-web-'));
    writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>spa</title>');
    const app = await buildApp(t.deps, { webDist });
    try {
      const navigate = { 'sec-fetch-mode': 'navigate', accept: 'text/html' };
      const start = await app.inject({ method: 'GET', url: '/auth/oidc/microsoft/start', headers: navigate });
      expect(start.statusCode).toBe(302);
      expect(new URL(String(start.headers.location)).origin).toBe(idp.issuer);
      const googleCallback = await app.inject({ method: 'GET', url: '/auth/getGoogleToken?code=x&state=y', headers: navigate });
      expect(googleCallback.statusCode).toBe(302);
      expect(googleCallback.headers.location).toBe('/auth/login?error=google');
      const signupPage = await app.inject({ method: 'GET', url: '/auth/signup?provider=microsoft&pending=1', headers: navigate });
      expect(signupPage.body).toContain('<title>spa</title>');
    } finally {
      await app.close();
      rmSync(webDist, { recursive: true, force: true });
    }
  });
});
