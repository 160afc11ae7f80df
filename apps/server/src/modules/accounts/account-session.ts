import type { z } from 'zod';
import type { ZAccountSignedIn } from '@switchboard/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TAppDeps } from '../../app-deps';
import type { TAuditEvent } from '../../lib/audit';
import { forgetCachedSessions } from '../../plugins/auth-context';
import { revokeSession, setSessionCookie } from '../sessions/session.service';
import { presentAccount } from './accounts.presenter';
import type { TAccountRow } from './accounts.repository';
import { landingPathFor, startAccountSession, type TAccountsDeps } from './accounts.service';

/**
 * Starts the account's session, sets the cookie and answers with the user and the landing path.
 * A session the browser already held is revoked, so one browser never keeps two identities.
 * `auditEvent`, when given, is written in the same transaction as the session.
 */
export async function signInAccount(
  deps: TAccountsDeps & Pick<TAppDeps, 'caches'> & { config: { isProduction: boolean } },
  request: FastifyRequest,
  reply: FastifyReply,
  account: TAccountRow,
  authMethod: 'password' | 'google' | 'microsoft' = 'password',
  auditEvent?: TAuditEvent,
): Promise<z.infer<typeof ZAccountSignedIn>> {
  const { token, expiresAt } = await deps.database.db.transaction(async (tx) => {
    if (request.auth) await revokeSession(tx, request.auth.sessionTokenHash, deps.now());
    const session = await startAccountSession(tx, deps.now(), account, authMethod);
    if (auditEvent) await deps.audit.record(tx, auditEvent);
    return session;
  });
  if (request.auth) forgetCachedSessions.session(deps.caches.sessions, request.auth.sessionTokenHash);
  setSessionCookie(reply, token, expiresAt, deps.config.isProduction);
  return { user: presentAccount(account), redirectTo: landingPathFor(account) };
}
