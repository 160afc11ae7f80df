import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { SESSION_COOKIE, type TPermissionMap, permissionMap } from '@switchboard/contracts';
import { accounts, msps, roles, sessions, users, type TDatabase } from '@switchboard/db';
import { sha256 } from '../lib/crypto';
import { preparedPerDatabase } from '../lib/prepared-statements';
import type { TShortLivedCache } from '../lib/short-lived-cache';

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
    /** Set only on routes that declare `readsSessionDetails` (the session check). */
    sessionDetails: TSessionDetails | null;
  }
  interface FastifyContextConfig {
    /**
     * Static files, the SPA shell and health probes: answered without the session lookup and not
     * counted by the flood guard (set by app.ts, never by a data route).
     */
    skipsSession?: boolean;
    /** The session check: the session lookup also reads the names it shows, in the same one query. */
    readsSessionDetails?: boolean;
  }
}

/** What the session check shows beyond TAuthContext (names, phone, tier, PSA ids, MSP and role names). */
export type TSessionDetails =
  | {
      principal: 'user';
      firstName: string;
      lastName: string;
      phone: string;
      tierLevel: 'Tier1' | 'Tier2' | 'Tier3' | 'NoTier' | null;
      psaMemberId: string | null;
      psaContactId: string | null;
      mspName: string;
      roleName: string | null;
    }
  | { principal: 'account'; firstName: string; lastName: string; phone: string; companyName: string | null };

/** Only what TAuthContext holds — never the password hash or the TOTP secret. */
const AUTH_COLUMNS = {
  principalKind: sessions.principalKind,
  expiresAt: sessions.expiresAt,
  mspId: msps.id,
  mspCustomDomain: msps.customDomain,
  userId: users.id,
  userKind: users.kind,
  userEmail: users.email,
  roleId: users.roleId,
  companyRowId: users.companyRowId,
  psaCompanyId: users.psaCompanyId,
  rolePermissions: roles.permissions,
  accountId: accounts.id,
  accountEmail: accounts.email,
  accountKind: accounts.kind,
};
const DETAIL_COLUMNS = {
  userFirstName: users.firstName,
  userLastName: users.lastName,
  userPhone: users.phone,
  tierLevel: users.tierLevel,
  psaMemberId: users.psaMemberId,
  psaContactId: users.psaContactId,
  mspName: msps.name,
  roleName: roles.name,
  accountFirstName: accounts.firstName,
  accountLastName: accounts.lastName,
  accountPhone: accounts.phone,
  accountCompanyName: accounts.companyName,
};
const JOIN_USER = and(eq(users.mspId, sessions.mspId), eq(users.id, sessions.userId), eq(users.isActive, true));
const JOIN_MSP = eq(msps.id, users.mspId);
const JOIN_ROLE = and(eq(roles.mspId, users.mspId), eq(roles.id, users.roleId));
const JOIN_ACCOUNT = eq(accounts.id, sessions.accountId);
const LIVE_SESSION = and(eq(sessions.tokenHash, sql.placeholder('tokenHash')), isNull(sessions.revokedAt), gt(sessions.expiresAt, sql.placeholder('now')));

/**
 * The one query behind every signed-in request: the session row joined to its user, MSP and role (or
 * its general account). Prepared once per database handle: node-postgres keeps a named server-side
 * statement per connection, PGlite reuses the built SQL.
 */
const authContextQuery = preparedPerDatabase((db: TDatabase) =>
  db
    .select(AUTH_COLUMNS)
    .from(sessions)
    .leftJoin(users, JOIN_USER)
    .leftJoin(msps, JOIN_MSP)
    .leftJoin(roles, JOIN_ROLE)
    .leftJoin(accounts, JOIN_ACCOUNT)
    .where(LIVE_SESSION)
    .limit(1)
    .prepare('sb_auth_context'),
);

/** The same lookup with the session check's display columns, so that route needs no second query. */
const authContextWithDetailsQuery = preparedPerDatabase((db: TDatabase) =>
  db
    .select({ ...AUTH_COLUMNS, ...DETAIL_COLUMNS })
    .from(sessions)
    .leftJoin(users, JOIN_USER)
    .leftJoin(msps, JOIN_MSP)
    .leftJoin(roles, JOIN_ROLE)
    .leftJoin(accounts, JOIN_ACCOUNT)
    .where(LIVE_SESSION)
    .limit(1)
    .prepare('sb_auth_context_details'),
);

type TAuthRow = Awaited<ReturnType<ReturnType<typeof authContextQuery>['execute']>>[number];
type TAuthWithDetailsRow = Awaited<ReturnType<ReturnType<typeof authContextWithDetailsQuery>['execute']>>[number];

/** Every permission false: the base a role's stored map is laid over (built once, copied per request). */
const NO_PERMISSIONS = permissionMap([]);

function authContextOf(row: TAuthRow, tokenHash: string): TAuthContext | null {
  if (row.principalKind === 'account') {
    if (!row.accountId || !row.accountEmail || !row.accountKind) return null;
    return { principal: 'account', sessionTokenHash: tokenHash, accountId: row.accountId, email: row.accountEmail, accountKind: row.accountKind };
  }
  // An inactive or deleted user, or a user whose MSP is gone, has no session.
  if (!row.mspId || !row.mspCustomDomain || !row.userId || !row.userKind || !row.userEmail || !row.roleId) return null;
  return {
    principal: 'user',
    sessionTokenHash: tokenHash,
    mspId: row.mspId,
    mspCustomDomain: row.mspCustomDomain,
    userId: row.userId,
    userKind: row.userKind,
    email: row.userEmail,
    roleId: row.roleId,
    // A user whose role vanished keeps no permissions (fail closed).
    permissions: { ...NO_PERMISSIONS, ...row.rolePermissions },
    companyRowId: row.companyRowId,
    psaCompanyId: row.psaCompanyId,
  };
}

function sessionDetailsOf(row: TAuthWithDetailsRow, auth: TAuthContext): TSessionDetails | null {
  if (auth.principal === 'account') {
    if (row.accountFirstName === null || row.accountLastName === null || row.accountPhone === null) return null;
    return { principal: 'account', firstName: row.accountFirstName, lastName: row.accountLastName, phone: row.accountPhone, companyName: row.accountCompanyName };
  }
  if (row.userFirstName === null || row.userLastName === null || row.userPhone === null || row.mspName === null) return null;
  return {
    principal: 'user',
    firstName: row.userFirstName,
    lastName: row.userLastName,
    phone: row.userPhone,
    tierLevel: row.tierLevel,
    psaMemberId: row.psaMemberId,
    psaContactId: row.psaContactId,
    mspName: row.mspName,
    roleName: row.roleName,
  };
}

const isUsableToken = (token: string | undefined): token is string => token !== undefined && token !== '' && token.length <= 200;

/**
 * A resolved session kept for a moment (decision 011): the auth context, the session's own expiry
 * (checked on every hit) and, once the session check has read them, its display details.
 */
export interface TCachedSession {
  auth: TAuthContext;
  expiresAtMs: number;
  /** undefined: not read yet (only the session check reads them). */
  details: TSessionDetails | null | undefined;
}
export type TSessionCache = TShortLivedCache<TCachedSession>;

/**
 * Drops cached sessions in this process after a committed change; other processes see it within the
 * cache's TTL. Call after the transaction, never inside it.
 */
export const forgetCachedSessions = {
  /** Logout or replacement of one session. */
  session: (cache: TSessionCache, tokenHash: string): void => cache.delete(tokenHash),
  /** Every session of a user: password change/reset, role, tier, name or activity change. */
  ofUser: (cache: TSessionCache, mspId: string, userId: string): void =>
    cache.deleteWhere(({ auth }) => auth.principal === 'user' && auth.mspId === mspId && auth.userId === userId),
  /** Every session of an MSP's users: a role's permissions changed, a role was deleted, the MSP was renamed. */
  ofMsp: (cache: TSessionCache, mspId: string): void => cache.deleteWhere(({ auth }) => auth.principal === 'user' && auth.mspId === mspId),
};

/** A cached session still usable at `now`; an expired one answers "no session" without a query. */
function cachedSession(cache: TSessionCache, tokenHash: string, now: Date): TCachedSession | null | undefined {
  const cached = cache.get(tokenHash);
  if (!cached) return undefined;
  return cached.expiresAtMs > now.getTime() ? cached : null;
}

/** Loads the session named by the cookie, or null when absent, expired or revoked (one narrow query, or the cache). */
async function loadAuthContext(db: TDatabase, cache: TSessionCache, token: string | undefined, now: Date): Promise<TAuthContext | null> {
  if (!isUsableToken(token)) return null;
  const tokenHash = sha256(token);
  const cached = cachedSession(cache, tokenHash, now);
  if (cached !== undefined) return cached?.auth ?? null;
  const ticket = cache.ticket();
  const [row] = await authContextQuery(db).execute({ tokenHash, now: now.toISOString() });
  const auth = row ? authContextOf(row, tokenHash) : null;
  if (row && auth) cache.set(tokenHash, { auth, expiresAtMs: row.expiresAt.getTime(), details: undefined }, ticket);
  return auth;
}

/** loadAuthContext plus what the session check shows, still in one query (or the cache). */
async function loadAuthContextWithDetails(
  db: TDatabase,
  cache: TSessionCache,
  token: string | undefined,
  now: Date,
): Promise<{ auth: TAuthContext; details: TSessionDetails | null } | null> {
  if (!isUsableToken(token)) return null;
  const tokenHash = sha256(token);
  const cached = cachedSession(cache, tokenHash, now);
  if (cached === null) return null;
  if (cached !== undefined && cached.details !== undefined) return { auth: cached.auth, details: cached.details };
  const ticket = cache.ticket();
  const [row] = await authContextWithDetailsQuery(db).execute({ tokenHash, now: now.toISOString() });
  const auth = row ? authContextOf(row, tokenHash) : null;
  if (!row || !auth) return null;
  const details = sessionDetailsOf(row, auth);
  cache.set(tokenHash, { auth, expiresAtMs: row.expiresAt.getTime(), details }, ticket);
  return { auth, details };
}

export const authContextPlugin = fp(async (app: FastifyInstance, options: { db: TDatabase; sessionCache: TSessionCache; now: () => Date }) => {
  app.decorateRequest('auth', null);
  app.decorateRequest('sessionDetails', null);
  app.addHook('onRequest', async (request) => {
    const config = request.routeOptions.config;
    // Static files, the SPA shell and health probes answer without touching the database.
    if (config.skipsSession === true) return;
    const token = request.cookies[SESSION_COOKIE];
    if (config.readsSessionDetails === true) {
      const loaded = await loadAuthContextWithDetails(options.db, options.sessionCache, token, options.now());
      request.auth = loaded?.auth ?? null;
      request.sessionDetails = loaded?.details ?? null;
      return;
    }
    request.auth = await loadAuthContext(options.db, options.sessionCache, token, options.now());
  });
});
