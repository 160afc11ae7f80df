import { z } from 'zod';
import {
  MESSAGES,
  ZAccountSignedIn,
  ZOidcPendingResponse,
  ZOidcProvidersResponse,
  ZOidcStartParams,
  ZOidcStartQuery,
  ZProblem,
  ZValidateUserBody,
  ZValidateUserQuery,
  providerLoginErrorPath,
  providerSignupPath,
  type TOidcProvider,
} from '@switchboard/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TAppDeps, TApp } from '../../app-deps';
import { appOrigin } from '../../lib/app-origin';
import { AppError, notFound } from '../../lib/app-error';
import type { TAuditEvent } from '../../lib/audit';
import { signInAccount } from './account-session';
import type { TOidcClients } from './oidc-client';
import {
  createOidcService,
  OIDC_PENDING_MS,
  ProviderSignInError,
  ZOidcAuthorizationState,
  ZVerifiedIdentity,
  beginProviderSignIn,
  finishProviderCallback,
  isFresh,
  safeReturnPath,
} from './oidc.service';
import { requestMeta } from '../../plugins/access';

const TAGS = ['accounts'];
export const OIDC_STATE_COOKIE = 'sb_oidc_state';
export const OIDC_IDENTITY_COOKIE = 'sb_oidc_identity';
/** Every route that reads these cookies lives under /auth. */
const COOKIE_PATH = '/auth';

/** Provider callbacks: Microsoft's is ours; Google's keeps the spec's A-066 path. */
export const CALLBACK_PATHS: Record<TOidcProvider, string> = {
  microsoft: '/auth/oidc/microsoft/callback',
  google: '/auth/getGoogleToken',
};

const ZCallbackQuery = z.object({
  code: z.string().max(4000).optional(),
  state: z.string().max(4000).optional(),
  error: z.string().max(500).optional(),
  error_description: z.string().max(2000).optional(),
  iss: z.string().max(500).optional(),
  session_state: z.string().max(500).optional(),
});

const ZRedirect = z.null().describe('302 redirect; see the Location header');

function setSignedCookie(reply: FastifyReply, name: string, value: unknown, secure: boolean): void {
  // SameSite=Lax: the provider's redirect back is a top-level GET navigation, which Lax cookies accompany.
  void reply.setCookie(name, JSON.stringify(value), { path: COOKIE_PATH, httpOnly: true, sameSite: 'lax', secure, signed: true, maxAge: OIDC_PENDING_MS / 1000 });
}

function readSignedCookie<TSchema extends z.ZodType>(request: FastifyRequest, name: string, schema: TSchema): z.infer<TSchema> | null {
  const raw = request.cookies[name];
  if (!raw) return null;
  const unsigned = request.unsignCookie(raw);
  if (!unsigned.valid || unsigned.value === null) return null;
  try {
    const parsed = schema.safeParse(JSON.parse(unsigned.value));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function clearOidcCookies(reply: FastifyReply, secure: boolean): void {
  for (const name of [OIDC_STATE_COOKIE, OIDC_IDENTITY_COOKIE]) void reply.clearCookie(name, { path: COOKIE_PATH, httpOnly: true, sameSite: 'lax', secure });
}

/**
 * Sign-in with Microsoft or Google (authorization code + PKCE). The start and callback routes are
 * top-level browser navigations, which cannot carry the CSRF header; the signed state cookie
 * matched against `state` is what protects them.
 */
export function registerOidcRoutes(app: TApp, deps: TAppDeps, clients: TOidcClients): void {
  const providerAccounts = createOidcService(deps);
  const secure = deps.config.isProduction;
  const providerSignInEvent = (request: FastifyRequest, provider: TOidcProvider, outcome: 'success' | 'failure', details: Record<string, unknown>, actorId: string | null = null): TAuditEvent => ({
    actorKind: actorId ? 'account' : 'anonymous',
    actorId,
    action: 'account.provider_sign_in',
    outcome,
    ip: request.ip,
    requestId: request.id,
    details: { provider, ...details },
  });
  const auditProviderSignIn = (...event: Parameters<typeof providerSignInEvent>) => deps.audit.record(deps.database.db, providerSignInEvent(...event));

  app.get(
    '/auth/oidc/providers',
    { config: { access: { public: true } }, schema: { tags: TAGS, operationId: 'oidcProviders', summary: 'Which provider sign-in buttons to show', response: { 200: ZOidcProvidersResponse } } },
    async () => ({ microsoft: clients.isConfigured('microsoft'), google: clients.isConfigured('google') }),
  );

  app.get(
    '/auth/oidc/:provider/start',
    {
      schema: {
        tags: TAGS,
        operationId: 'oidcStart',
        summary: 'Redirects to the provider with PKCE, state and nonce',
        params: ZOidcStartParams,
        querystring: ZOidcStartQuery,
        response: { 302: ZRedirect },
      },
      config: { access: { public: true } },
    },
    async (request, reply) => {
      const { provider } = request.params;
      if (!clients.isConfigured(provider)) {
        await auditProviderSignIn(request, provider, 'failure', { reason: 'not_configured' });
        return reply.redirect(providerLoginErrorPath(provider));
      }
      try {
        const redirectUri = `${appOrigin(deps.config, request)}${CALLBACK_PATHS[provider]}`;
        const returnTo = safeReturnPath(request.query.returnTo, appOrigin(deps.config, request));
        const { authorizationUrl, authorizationState } = await beginProviderSignIn(clients, provider, redirectUri, returnTo, deps.now());
        setSignedCookie(reply, OIDC_STATE_COOKIE, authorizationState, secure);
        return reply.redirect(authorizationUrl.href);
      } catch (error) {
        request.log.warn({ err: error, provider }, 'provider discovery failed');
        await auditProviderSignIn(request, provider, 'failure', { reason: 'discovery_failed' });
        return reply.redirect(providerLoginErrorPath(provider));
      }
    },
  );

  const handleCallback = async (provider: TOidcProvider, request: FastifyRequest<{ Querystring: z.infer<typeof ZCallbackQuery> }>, reply: FastifyReply) => {
    const fail = async (reason: string) => {
      await auditProviderSignIn(request, provider, 'failure', { reason });
      void reply.clearCookie(OIDC_STATE_COOKIE, { path: COOKIE_PATH, httpOnly: true, sameSite: 'lax', secure });
      return reply.redirect(providerLoginErrorPath(provider));
    };
    const authorizationState = readSignedCookie(request, OIDC_STATE_COOKIE, ZOidcAuthorizationState);
    if (!authorizationState || authorizationState.provider !== provider || !isFresh(authorizationState.issuedAt, deps.now())) return fail('missing_or_expired_state');
    if (request.query.error) return fail(`provider_error:${request.query.error}`);

    let identity;
    try {
      identity = await finishProviderCallback(clients, authorizationState, new URL(request.url, appOrigin(deps.config, request)), deps.now());
    } catch (error) {
      request.log.warn({ err: error, provider }, 'provider callback rejected');
      return fail(error instanceof ProviderSignInError ? error.reason : 'code_exchange_failed');
    }
    void reply.clearCookie(OIDC_STATE_COOKIE, { path: COOKIE_PATH, httpOnly: true, sameSite: 'lax', secure });

    const account = await providerAccounts.findAccountForIdentity(identity);
    if (account) {
      const signedIn = await signInAccount(deps, request, reply, account, provider, providerSignInEvent(request, provider, 'success', { email: identity.email }, account.id));
      // Checked again: a state cookie signed before this check was tightened may still hold an unsafe path.
      return reply.redirect(safeReturnPath(authorizationState.returnTo, appOrigin(deps.config, request)) ?? signedIn.redirectTo);
    }
    // A new identity: keep it server-signed until the business details arrive.
    setSignedCookie(reply, OIDC_IDENTITY_COOKIE, identity, secure);
    await auditProviderSignIn(request, provider, 'success', { email: identity.email, pendingSignup: true });
    return reply.redirect(providerSignupPath(provider));
  };

  app.get(
    CALLBACK_PATHS.microsoft,
    { config: { access: { public: true } }, schema: { tags: TAGS, operationId: 'oidcMicrosoftCallback', summary: 'Microsoft callback: signs in, or sends a new identity to business-details completion', querystring: ZCallbackQuery, response: { 302: ZRedirect } } },
    (request, reply) => handleCallback('microsoft', request, reply),
  );
  app.get(
    CALLBACK_PATHS.google,
    { config: { access: { public: true } }, schema: { tags: TAGS, operationId: 'getGoogleToken', summary: 'A-066: Google callback: signs in, or sends a new identity to business-details completion', querystring: ZCallbackQuery, response: { 302: ZRedirect } } },
    (request, reply) => handleCallback('google', request, reply),
  );

  const readIdentity = (request: FastifyRequest, provider?: TOidcProvider) => {
    const identity = readSignedCookie(request, OIDC_IDENTITY_COOKIE, ZVerifiedIdentity);
    if (!identity || !isFresh(identity.issuedAt, deps.now()) || (provider && identity.provider !== provider)) return null;
    return identity;
  };

  app.get(
    '/auth/oidc/pending',
    { config: { access: { public: true } }, schema: { tags: TAGS, operationId: 'oidcPending', summary: 'The verified provider identity awaiting business details', response: { 200: ZOidcPendingResponse, 404: ZProblem } } },
    async (request) => {
      const identity = readIdentity(request);
      if (!identity) throw notFound();
      return { provider: identity.provider, email: identity.email, firstName: identity.firstName, lastName: identity.lastName };
    },
  );

  app.post(
    '/auth/validateUser',
    {
      schema: {
        tags: TAGS,
        operationId: 'validateUser',
        summary: 'A-067: completes a provider account with its business details and signs it in',
        querystring: ZValidateUserQuery,
        body: ZValidateUserBody,
        response: { 201: ZAccountSignedIn, 400: ZProblem, 403: ZProblem, 409: ZProblem, 500: ZProblem },
      },
      config: { access: { public: true } },
    },
    async (request, reply) => {
      const provider = request.query.token;
      const identity = readIdentity(request, provider);
      if (!identity) throw new AppError('validation', MESSAGES.providerSignupExpired);
      const account = await providerAccounts.completeProviderAccount(identity, request.body, requestMeta(request));
      const signedIn = await signInAccount(deps, request, reply, account, provider, providerSignInEvent(request, provider, 'success', { email: identity.email, created: true }, account.id));
      void reply.clearCookie(OIDC_IDENTITY_COOKIE, { path: COOKIE_PATH, httpOnly: true, sameSite: 'lax', secure });
      return reply.status(201).send(signedIn);
    },
  );
}
