import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '@switchboard/contracts';
import { and, eq } from 'drizzle-orm';
import { accounts, users } from '@switchboard/db';
import { buildMsp, buildUser, signedInClient } from '../../../test/factories';
import { createTestApp, TestClient, type TTestApp } from '../../../test/test-app';
import { createSession } from '../sessions/session.service';
import { newClient, nextIp, signInThroughApi } from './auth-test-helpers';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('A-072 session check', () => {
  it('answers authenticated false without a session or with a made-up cookie', async () => {
    expect((await newClient(t).get('/auth/api/auth/microsoft-user')).json()).toEqual({ authenticated: false });
    const forged = newClient(t);
    forged.useSession('not-a-real-token');
    expect((await forged.get('/auth/api/auth/microsoft-user')).json()).toEqual({ authenticated: false });
  });

  it('answers the MSP user with role name and permissions, never a password', async () => {
    const msp = await buildMsp(t);
    const user = await buildUser(t, msp, { role: 'Technician', tierLevel: 'Tier2' });
    const client = await signedInClient(t, user, nextIp());
    const response = await client.get('/auth/api/auth/microsoft-user');
    expect(response.headers['cache-control']).toBe('no-store');
    const body = response.json<{ authenticated: boolean; user: Record<string, unknown> }>();
    expect(body).toMatchObject({ authenticated: true, user: { principal: 'user', id: user.id, roleName: 'Technician', tierLevel: 'Tier2', permissions: { boardView: true, roleManagement: false } } });
    expect(Object.keys(body.user).some((key) => /password|hash|totp/i.test(key))).toBe(false);
  });

  it('answers a general account in the account shape', async () => {
    const [account] = await t.deps.database.db
      .insert(accounts)
      .values({ kind: 'account', email: `acct-${Date.now()}@example.com`, firstName: 'Ann', lastName: 'Acct', phone: '3035550100', companyName: 'Acme' })
      .returning();
    if (!account) throw new Error('account not created');
    const { token } = await createSession(t.deps.database.db, { principalKind: 'account', accountId: account.id }, t.deps.now());
    const client = new TestClient(t.app, nextIp());
    client.useSession(token);
    expect((await client.get('/auth/api/auth/microsoft-user')).json()).toMatchObject({ authenticated: true, user: { principal: 'account', id: account.id, accountKind: 'account', companyName: 'Acme' } });
  });

  it('shows every field of the MSP user from the one session lookup plus its names', async () => {
    const msp = await buildMsp(t, { name: 'Field Check MSP' });
    const user = await buildUser(t, msp, { role: 'Admin', firstName: 'Fern', lastName: 'Field', tierLevel: 'Tier3', psaMemberId: 'm-7', psaCompanyId: 'c-9' });
    const client = await signedInClient(t, user, nextIp());
    expect((await client.get('/auth/api/auth/microsoft-user')).json()).toEqual({
      authenticated: true,
      user: {
        principal: 'user',
        id: user.id,
        userKind: 'technician',
        mspCustomDomain: msp.customDomain,
        mspName: 'Field Check MSP',
        firstName: 'Fern',
        lastName: 'Field',
        email: user.email,
        phoneNumber: '3035550111',
        roleId: msp.roleIds.Admin,
        roleName: 'Admin',
        permissions: expect.objectContaining({ roleManagement: true, boardView: true }) as unknown,
        tierLevel: 'Tier3',
        psaMemberId: 'm-7',
        psaCompanyId: 'c-9',
        psaContactId: null,
        clientsAutopilotDbid: null,
      },
    });
  });

  it('answers authenticated false for an expired session, a revoked one and a deactivated user', async () => {
    const msp = await buildMsp(t);
    const expiring = await signedInClient(t, await buildUser(t, msp), nextIp());
    const revoked = await signedInClient(t, await buildUser(t, msp), nextIp());
    const deactivatedUser = await buildUser(t, msp);
    const deactivated = await signedInClient(t, deactivatedUser, nextIp());
    for (const client of [expiring, revoked, deactivated]) expect((await client.get('/auth/api/auth/microsoft-user')).json()).toMatchObject({ authenticated: true });

    await revoked.post('/auth/api/auth/logout', {});
    await t.deps.database.db.update(users).set({ isActive: false }).where(and(eq(users.mspId, msp.id), eq(users.id, deactivatedUser.id)));
    expect((await revoked.get('/auth/api/auth/microsoft-user')).json()).toEqual({ authenticated: false });
    // Deactivated by SQL, outside the API: like a change on another replica, the process sees it once
    // its cached session is older than AUTH_CACHE_TTL_MS (decision 011).
    t.advanceClock(t.deps.config.authCacheTtlMs);
    expect((await deactivated.get('/auth/api/auth/microsoft-user')).json()).toEqual({ authenticated: false });
    t.advanceClock(8 * 24 * 60 * 60 * 1000);
    expect((await expiring.get('/auth/api/auth/microsoft-user')).json()).toEqual({ authenticated: false });
  });
});

describe('A-074 logout', () => {
  it('revokes the session, clears the cookie and sends an MSP user to the MSP page', async () => {
    const msp = await buildMsp(t);
    const user = await buildUser(t, msp);
    const client = await signInThroughApi(t, msp, user);
    const oldToken = client.sessionCookie;
    const response = await client.post('/auth/api/auth/logout', {});
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, skipMicrosoftLogout: true, redirectUrl: `/${msp.customDomain}`, microsoftLogoutUrl: null });
    const cleared = response.cookies.find((c) => c.name === SESSION_COOKIE);
    expect(cleared?.value).toBe('');
    const replay = new TestClient(t.app, nextIp());
    replay.useSession(oldToken);
    expect((await replay.get('/auth/api/auth/microsoft-user')).json()).toEqual({ authenticated: false });
    expect((await replay.get(`/db/${msp.customDomain}/technicianUsers/getById?id=${user.id}`)).statusCode).toBe(401);
  });

  it('sends a public account to /public and a general account to /auth/login (same rule as A-073)', async () => {
    for (const [kind, expected] of [['public', '/public'], ['account', '/auth/login']] as const) {
      const [account] = await t.deps.database.db
        .insert(accounts)
        .values({ kind, email: `${kind}-${Date.now()}@example.com`, firstName: 'Pat', lastName: 'Lee', passwordHash: null })
        .returning();
      if (!account) throw new Error('account not created');
      const { token } = await createSession(t.deps.database.db, { principalKind: 'account', accountId: account.id }, t.deps.now());
      const client = new TestClient(t.app, nextIp());
      client.useSession(token);
      expect((await client.post('/auth/api/auth/logout')).json()).toMatchObject({ success: true, redirectUrl: expected });
    }
  });

  it('succeeds without a session and sends to /auth/login', async () => {
    const response = await newClient(t).post('/auth/api/auth/logout');
    expect(response.json()).toEqual({ success: true, skipMicrosoftLogout: true, redirectUrl: '/auth/login', microsoftLogoutUrl: null });
  });

  it('needs the CSRF header', async () => {
    const response = await newClient(t).post('/auth/api/auth/logout', {}, { csrf: false });
    expect(response.json()).toMatchObject({ status: 403, code: 'csrf' });
  });
});
