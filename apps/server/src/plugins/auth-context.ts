import { and, eq, gt, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { SESSION_COOKIE, type TPermissionMap, permissionMap } from '@switchboard/contracts';
import { accounts, msps, roles, sessions, users, type TDatabase } from '@switchboard/db';
import { sha256 } from '../lib/crypto';

/** Who is calling: a technician or client user of one MSP, or a general (non-MSP) account. */
export type TAuthContext =
  | {
      principal: 'user';
      sessionTokenHash: string;
      mspId: string;
      mspCustomDomain: string;
      userId: string;
      userKind: 'technician' | 'client';
      email: string;
      roleId: string;
      permissions: TPermissionMap;
      companyRowId: string | null;
      psaCompanyId: string | null;
    }
  | { principal: 'account'; sessionTokenHash: string; accountId: string; email: string; accountKind: 'account' | 'public' };

declare module 'fastify' {
  interface FastifyRequest {
    auth: TAuthContext | null;
  }
}

/** Loads the session named by the cookie, or null when absent, expired or revoked. */
export async function loadAuthContext(db: TDatabase, token: string | undefined, now: Date): Promise<TAuthContext | null> {
  if (!token || token.length > 200) return null;
  const tokenHash = sha256(token);
  const [session] = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.tokenHash, tokenHash), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
    .limit(1);
  if (!session) return null;
  if (session.principalKind === 'account' && session.accountId) {
    const [account] = await db.select().from(accounts).where(eq(accounts.id, session.accountId)).limit(1);
    return account ? { principal: 'account', sessionTokenHash: tokenHash, accountId: account.id, email: account.email, accountKind: account.kind } : null;
  }
  if (!session.mspId || !session.userId) return null;
  const [row] = await db
    .select({ user: users, msp: msps, role: roles })
    .from(users)
    .innerJoin(msps, eq(msps.id, users.mspId))
    .leftJoin(roles, and(eq(roles.mspId, users.mspId), eq(roles.id, users.roleId)))
    .where(and(eq(users.mspId, session.mspId), eq(users.id, session.userId), eq(users.isActive, true)))
    .limit(1);
  if (!row) return null;
  return {
    principal: 'user',
    sessionTokenHash: tokenHash,
    mspId: row.msp.id,
    mspCustomDomain: row.msp.customDomain,
    userId: row.user.id,
    userKind: row.user.kind,
    email: row.user.email,
    roleId: row.user.roleId,
    // A user whose role vanished keeps no permissions (fail closed).
    permissions: row.role ? { ...permissionMap([]), ...row.role.permissions } : permissionMap([]),
    companyRowId: row.user.companyRowId,
    psaCompanyId: row.user.psaCompanyId,
  };
}

export const authContextPlugin = fp(async (app: FastifyInstance, options: { db: TDatabase; now: () => Date }) => {
  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (request) => {
    request.auth = await loadAuthContext(options.db, request.cookies[SESSION_COOKIE], options.now());
  });
});
