import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import { SESSION_COOKIE, SESSION_DAYS } from '@switchboard/contracts';
import { sessions, type TDatabase } from '@switchboard/db';
import type { TAppDeps } from '../../app-deps';
import { randomToken, sha256 } from '../../lib/crypto';
import { forgetCachedSessions, type TAuthContext } from '../../plugins/auth-context';
import type { TRequestMeta } from '../../plugins/access';

const SESSION_MS = SESSION_DAYS * 24 * 60 * 60 * 1000;

export type TSessionPrincipal =
  | { principalKind: 'user'; mspId: string; userId: string }
  | { principalKind: 'account'; accountId: string };

/** Creates a 7-day session and returns the raw token (only its hash is stored). */
export async function createSession(
  db: TDatabase,
  principal: TSessionPrincipal,
  now: Date,
  authMethod: 'password' | 'google' | 'microsoft' = 'password',
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomToken();
  const expiresAt = new Date(now.getTime() + SESSION_MS);
  await db.insert(sessions).values({
    tokenHash: sha256(token),
    principalKind: principal.principalKind,
    mspId: principal.principalKind === 'user' ? principal.mspId : null,
    userId: principal.principalKind === 'user' ? principal.userId : null,
    accountId: principal.principalKind === 'account' ? principal.accountId : null,
    authMethod,
    expiresAt,
  });
  return { token, expiresAt };
}

/** Revokes one session (logout). The caller drops it from `caches.sessions` once committed. */
export async function revokeSession(db: TDatabase, tokenHash: string, now: Date): Promise<void> {
  await db.update(sessions).set({ revokedAt: now }).where(and(eq(sessions.tokenHash, tokenHash), isNull(sessions.revokedAt)));
}

/** Ends the caller's session and records the logout, in one transaction. */
export async function endSession(deps: Pick<TAppDeps, 'database' | 'audit' | 'now' | 'caches'>, auth: TAuthContext, meta: TRequestMeta): Promise<void> {
  const actor = auth.principal === 'user' ? { mspId: auth.mspId, actorKind: 'user' as const, actorId: auth.userId } : { actorKind: 'account' as const, actorId: auth.accountId };
  await deps.database.db.transaction(async (tx) => {
    await revokeSession(tx, auth.sessionTokenHash, deps.now());
    await deps.audit.record(tx, { ...actor, action: 'auth.logout', target: actor.actorId, outcome: 'success', ...meta });
  });
  forgetCachedSessions.session(deps.caches.sessions, auth.sessionTokenHash);
}

/** Revokes every session of a user (password change, deactivation). The caller drops them from `caches.sessions` once committed. */
export async function revokeUserSessions(db: TDatabase, mspId: string, userId: string, now: Date): Promise<void> {
  await db.update(sessions).set({ revokedAt: now }).where(and(eq(sessions.mspId, mspId), eq(sessions.userId, userId), isNull(sessions.revokedAt)));
}

/** HttpOnly, SameSite=Lax, Secure behind HTTPS (DESIGN §4). */
export function setSessionCookie(reply: FastifyReply, token: string, expiresAt: Date, secure: boolean): void {
  void reply.setCookie(SESSION_COOKIE, token, { path: '/', httpOnly: true, sameSite: 'lax', secure, expires: expiresAt });
}

export function clearSessionCookie(reply: FastifyReply, secure: boolean): void {
  void reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure });
}
