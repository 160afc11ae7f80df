import type { z } from 'zod';
import type { ZAccountSignedIn } from '@switchboard/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { revokeSession, setSessionCookie } from '../sessions/session.service';
import { presentAccount } from './accounts.presenter';
import type { TAccountRow } from './accounts.repository';
import { landingPathFor, startAccountSession, type TAccountsDeps, type TRequestMeta } from './accounts.service';

export const requestMeta = (request: FastifyRequest): TRequestMeta => ({ ip: request.ip, requestId: request.id });

/**
 * Starts the account's session, sets the cookie and answers with the user and the landing path.
 * A session the browser already held is revoked, so one browser never keeps two identities.
 */
export async function signInAccount(
  deps: TAccountsDeps & { config: { isProduction: boolean } },
  request: FastifyRequest,
  reply: FastifyReply,
  account: TAccountRow,
  authMethod: 'password' | 'google' | 'microsoft' = 'password',
): Promise<z.infer<typeof ZAccountSignedIn>> {
  if (request.auth) await revokeSession(deps.database.db, request.auth.sessionTokenHash, deps.now());
  const { token, expiresAt } = await startAccountSession(deps, account, authMethod);
  setSessionCookie(reply, token, expiresAt, deps.config.isProduction);
  return { user: presentAccount(account), redirectTo: landingPathFor(account) };
}

