import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { ZLogoutResponse, ZSessionCheckResponse, type TLogoutResponse, type TSessionCheckResponse } from '@switchboard/contracts';
import { sessions } from '@switchboard/db';
import type { TAppDeps, TModule } from '../../app-deps';
import type { TAuthContext, TSessionDetails } from '../../plugins/auth-context';
import { clearSessionCookie, endSession } from '../sessions/session.service';
import { sessionAccountDetailsQuery, sessionUserDetailsQuery } from './session-check.repository';
import { presentSessionAccountOfContext, presentSessionUserOfContext } from './session-user.presenter';
import { signedOutPathFor } from '../accounts/accounts.service';
import { requestMeta, type TRequestMeta } from '../../plugins/access';

/**
 * who holds the session cookie, checked once when the app starts. The route declares
 * `readsSessionDetails`, so the request's one session lookup already read everything shown; the
 * narrow query here runs only when the details are missing.
 */
async function checkSession(deps: Pick<TAppDeps, 'database'>, auth: TAuthContext | null, loaded: TSessionDetails | null): Promise<TSessionCheckResponse> {
  const db = deps.database.db;
  if (auth?.principal === 'user') {
    const details = loaded?.principal === 'user' ? loaded : (await sessionUserDetailsQuery(db).execute({ mspId: auth.mspId, userId: auth.userId }))[0];
    return details ? { authenticated: true, user: presentSessionUserOfContext(auth, details) } : { authenticated: false };
  }
  if (auth?.principal === 'account') {
    const details = loaded?.principal === 'account' ? loaded : (await sessionAccountDetailsQuery(db).execute({ accountId: auth.accountId }))[0];
    return details ? { authenticated: true, user: presentSessionAccountOfContext(auth, details) } : { authenticated: false };
  }
  return { authenticated: false };
}

/** Microsoft's end-session endpoint sits beside the v2.0 issuer (…/{tenant}/oauth2/v2.0/logout). */
function microsoftLogoutUrl(deps: Pick<TAppDeps, 'config'>): string | null {
  const issuer = deps.config.oidc.microsoft?.issuer;
  if (!issuer) return null;
  const url = new URL(issuer.replace(/\/v2\.0\/?$/, '/oauth2/v2.0/logout'));
  if (deps.config.publicUrl) url.searchParams.set('post_logout_redirect_uri', `${deps.config.publicUrl.replace(/\/$/, '')}/auth/login`);
  return url.toString();
}

/** revokes the session row and clears the cookie; the redirect follows 02 §2/§4. */
async function logout(deps: Pick<TAppDeps, 'database' | 'config' | 'audit' | 'now' | 'caches'>, auth: TAuthContext | null, meta: TRequestMeta): Promise<TLogoutResponse> {
  if (!auth) return { success: true, skipMicrosoftLogout: true, redirectUrl: '/auth/login', microsoftLogoutUrl: null };
  const db = deps.database.db;
  const [session] = await db.select({ authMethod: sessions.authMethod }).from(sessions).where(eq(sessions.tokenHash, auth.sessionTokenHash)).limit(1);
  await endSession(deps, auth, meta);
  const isMicrosoft = session?.authMethod === 'microsoft';
  const logoutUrl = isMicrosoft ? microsoftLogoutUrl(deps) : null;
  return {
    success: true,
    skipMicrosoftLogout: logoutUrl === null,
    redirectUrl: auth.principal === 'user' ? `/${auth.mspCustomDomain}` : signedOutPathFor(auth.accountKind),
    microsoftLogoutUrl: logoutUrl,
  };
}

export const registerSessionCheckRoutes: TModule = (app, deps) => {
  app.get(
    '/auth/api/auth/microsoft-user',
    { config: { access: { public: true }, readsSessionDetails: true }, schema: { tags: ['session'], operationId: 'sessionCheck', summary: 'A-072: the session check', response: { 200: ZSessionCheckResponse } } },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      return checkSession(deps, request.auth, request.sessionDetails);
    },
  );

  app.post(
    '/auth/api/auth/logout',
    { config: { access: { public: true } }, schema: { tags: ['session'], operationId: 'logout', summary: 'A-074: end the session', body: z.unknown().optional(), response: { 200: ZLogoutResponse } } },
    async (request, reply) => {
      const result = await logout(deps, request.auth, requestMeta(request));
      clearSessionCookie(reply, deps.config.isProduction);
      return result;
    },
  );
};
