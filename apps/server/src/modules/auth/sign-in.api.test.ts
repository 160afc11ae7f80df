import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, SESSION_COOKIE } from '@switchboard/contracts';
import { buildMsp, buildUser } from '../../../test/factories';
import { createTestApp, TestClient, type TTestApp } from '../../../test/test-app';
import { latestCode, newClient, nextIp, passwordStep, signInThroughApi } from './auth-test-helpers';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const MINUTE = 60_000;

describe('A-083/A-084 email step', () => {
  it('answers the one MSP of a technician email', async () => {
    const msp = await buildMsp(t, { name: 'Northwind IT' });
    const user = await buildUser(t, msp);
    const response = await newClient(t).post('/db/technicianUsers/signin', { emailId: user.email.toUpperCase() });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ mspDomains: [{ mspCustomDomain: msp.customDomain, mspName: 'Northwind IT', logoUrl: null }] });
  });

  it('lists every MSP of a client email, and only for the asked user kind', async () => {
    const first = await buildMsp(t, { name: 'A First MSP' });
    const second = await buildMsp(t, { name: 'B Second MSP' });
    const email = `client-${Date.now()}@example.com`;
    await buildUser(t, first, { kind: 'client', email });
    await buildUser(t, second, { kind: 'client', email });
    const response = await newClient(t).post('/db/clientUsers/signin', { emailId: email });
    expect(response.json<{ mspDomains: Array<{ mspCustomDomain: string }> }>().mspDomains.map((d) => d.mspCustomDomain)).toEqual([first.customDomain, second.customDomain]);
    const asTechnician = await newClient(t).post('/db/technicianUsers/signin', { emailId: email });
    expect(asTechnician.statusCode).toBe(404);
  });

  it('says the account does not exist with emailCheck', async () => {
    const response = await newClient(t).post('/db/technicianUsers/signin', { emailId: 'nobody-here@example.com' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ detail: MESSAGES.accountDoesNotExist, flags: { emailCheck: true } });
  });

  it('rejects an invalid or missing email with the spec message', async () => {
    for (const payload of [{ emailId: 'not-an-email' }, {}]) {
      const response = await newClient(t).post('/db/technicianUsers/signin', payload);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ detail: 'A valid email is required.', flags: { validEmail: false } });
    }
  });

  it('needs the CSRF header', async () => {
    const response = await newClient(t).post('/db/technicianUsers/signin', { emailId: 'a@example.com' }, { csrf: false });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'csrf' });
  });
});

describe('A-085/A-086 password step', () => {
  it('mails a 6-digit code and answers a masked address', async () => {
    const msp = await buildMsp(t);
    const user = await buildUser(t, msp, { email: `jane-${Date.now()}@northwind-it.example` });
    const response = await newClient(t).post(`/db/${msp.customDomain}/technicianUsers/signin`, { emailId: user.email, password: user.password });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ twoFactorRequired: true, sentTo: 'j•••@northwind-it.example', methods: ['email'] });
    expect(await latestCode(t, user.email)).toMatch(/^\d{6}$/);
  });

  it('rejects a wrong password with emailCheck and no session', async () => {
    const msp = await buildMsp(t);
    const user = await buildUser(t, msp);
    const client = newClient(t);
    const response = await client.post(`/db/${msp.customDomain}/technicianUsers/signin`, { emailId: user.email, password: 'Wrong-pass1!' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ code: 'invalid_credentials', detail: 'Invalid username or password.', flags: { emailCheck: true } });
    expect(client.sessionCookie).toBeUndefined();
  });

  it('answers an unknown email exactly like a wrong password', async () => {
    const msp = await buildMsp(t);
    const response = await newClient(t).post(`/db/${msp.customDomain}/clientUsers/signin`, { emailId: 'ghost@example.com', password: 'Whatever1!' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ code: 'invalid_credentials', detail: MESSAGES.invalidCredentials });
  });

  it('does not sign a client in through the technician endpoint', async () => {
    const msp = await buildMsp(t);
    const client = await buildUser(t, msp, { kind: 'client' });
    const response = await newClient(t).post(`/db/${msp.customDomain}/technicianUsers/signin`, { emailId: client.email, password: client.password });
    expect(response.statusCode).toBe(401);
  });

  it('asks for the password, then a valid email', async () => {
    const msp = await buildMsp(t);
    const missingPassword = await newClient(t).post(`/db/${msp.customDomain}/technicianUsers/signin`, { emailId: 'a@example.com' });
    expect(missingPassword.json()).toMatchObject({ status: 400, detail: 'A password is required.' });
    const badEmail = await newClient(t).post(`/db/${msp.customDomain}/technicianUsers/signin`, { emailId: 'nope', password: 'x' });
    expect(badEmail.json()).toMatchObject({ status: 400, detail: 'A valid email is required.' });
  });

  // Review s27 #1: MSP users have no provider sign-in; a technician without a password was imported and never invited.
  it('tells a technician without a password to ask for an invitation, not to use a provider', async () => {
    const msp = await buildMsp(t);
    const user = await buildUser(t, msp, { password: null });
    const response = await newClient(t).post(`/db/${msp.customDomain}/technicianUsers/signin`, { emailId: user.email, password: 'Anything1!' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ code: 'conflict', detail: MESSAGES.auth.askForInvitation, flags: { emailCheck: true } });
  });

  it('answers 404 for an MSP that does not exist, and a user of another MSP is unknown there', async () => {
    const msp = await buildMsp(t);
    const other = await buildMsp(t);
    const user = await buildUser(t, msp);
    expect((await newClient(t).post('/db/no-such-msp-xyz/technicianUsers/signin', { emailId: user.email, password: user.password })).statusCode).toBe(404);
    expect((await newClient(t).post(`/db/${other.customDomain}/technicianUsers/signin`, { emailId: user.email, password: user.password })).statusCode).toBe(401);
  });

  it('needs the CSRF header', async () => {
    const msp = await buildMsp(t);
    const response = await newClient(t).post(`/db/${msp.customDomain}/technicianUsers/signin`, { emailId: 'a@example.com', password: 'x' }, { csrf: false });
    expect(response.json()).toMatchObject({ status: 403, code: 'csrf' });
  });
});

describe('2FA verify and resend', () => {
  it('signs in end to end with the mailed code and lands on the tickets page', async () => {
    const msp = await buildMsp(t, { name: 'Contoso Support' });
    const user = await buildUser(t, msp, { firstName: 'Jane', lastName: 'Doe' });
    const client = newClient(t);
    const emailStep = await client.post('/db/technicianUsers/signin', { emailId: user.email });
    expect(emailStep.statusCode).toBe(200);
    const challengeId = await passwordStep(t, client, msp, user);
    const code = await latestCode(t, user.email);
    const response = await client.post(`/db/${msp.customDomain}/technicianUsers/verifyCode`, { challengeId, code });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      redirectTo: `/${msp.customDomain}/dashboard/${user.id}/tickets`,
      user: { principal: 'user', id: user.id, userKind: 'technician', mspCustomDomain: msp.customDomain, mspName: 'Contoso Support', firstName: 'Jane', roleName: 'Admin', tierLevel: 'Tier1' },
    });
    expect(JSON.stringify(response.json())).not.toMatch(/password/i);
    const cookie = response.cookies.find((c) => c.name === SESSION_COOKIE);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    const check = await client.get('/auth/api/auth/microsoft-user');
    expect(check.json()).toMatchObject({ authenticated: true, user: { id: user.id, permissions: { roleManagement: true } } });
  });

  it('gives a new session token on every sign-in and revokes the one the browser held', async () => {
    const msp = await buildMsp(t);
    const user = await buildUser(t, msp);
    const first = await signInThroughApi(t, msp, user);
    const second = await signInThroughApi(t, msp, user);
    expect(first.sessionCookie).toBeDefined();
    expect(second.sessionCookie).not.toBe(first.sessionCookie);
    const oldToken = first.sessionCookie;
    const challengeId = await passwordStep(t, first, msp, user);
    const again = await first.post(`/db/${msp.customDomain}/technicianUsers/verifyCode`, { challengeId, code: await latestCode(t, user.email) });
    expect(again.statusCode).toBe(200);
    expect(first.sessionCookie).not.toBe(oldToken);
    const stale = new TestClient(t.app, nextIp());
    stale.useSession(oldToken);
    expect((await stale.get('/auth/api/auth/microsoft-user')).json()).toEqual({ authenticated: false });
  });

  it('sets login2FA on a wrong code and opens no session', async () => {
    const msp = await buildMsp(t);
    const user = await buildUser(t, msp);
    const client = newClient(t);
    const challengeId = await passwordStep(t, client, msp, user);
    const code = await latestCode(t, user.email);
    const wrong = code === '000000' ? '111111' : '000000';
    const response = await client.post(`/db/${msp.customDomain}/technicianUsers/verifyCode`, { challengeId, code: wrong });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'invalid_code', flags: { login2FA: true } });
    expect(client.sessionCookie).toBeUndefined();
  });

  it('asks for a code when none is given', async () => {
    const msp = await buildMsp(t);
    const response = await newClient(t).post(`/db/${msp.customDomain}/technicianUsers/verifyCode`, { challengeId: 'x' });
    expect(response.json()).toMatchObject({ status: 400, detail: 'A valid verification code required.' });
  });

  it('uses a code once', async () => {
    const msp = await buildMsp(t);
    const user = await buildUser(t, msp);
    const client = newClient(t);
    const challengeId = await passwordStep(t, client, msp, user);
    const code = await latestCode(t, user.email);
    expect((await client.post(`/db/${msp.customDomain}/technicianUsers/verifyCode`, { challengeId, code })).statusCode).toBe(200);
    const again = await newClient(t).post(`/db/${msp.customDomain}/technicianUsers/verifyCode`, { challengeId, code });
    expect(again.json()).toMatchObject({ status: 400, code: 'invalid_code' });
  });

  it('lets a code expire after 10 minutes', async () => {
    const msp = await buildMsp(t);
    const user = await buildUser(t, msp);
    const client = newClient(t);
    const challengeId = await passwordStep(t, client, msp, user);
    const code = await latestCode(t, user.email);
    t.advanceClock(10 * MINUTE + 1000);
    const response = await client.post(`/db/${msp.customDomain}/technicianUsers/verifyCode`, { challengeId, code });
    expect(response.json()).toMatchObject({ status: 400, code: 'invalid_code', flags: { login2FA: true } });
  });

  it('allows 5 tries per code, then even the right code fails', async () => {
    const msp = await buildMsp(t);
    const user = await buildUser(t, msp);
    const challengeId = await passwordStep(t, newClient(t), msp, user);
    const code = await latestCode(t, user.email);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) await newClient(t).post(`/db/${msp.customDomain}/technicianUsers/verifyCode`, { challengeId, code: wrong });
    const response = await newClient(t).post(`/db/${msp.customDomain}/technicianUsers/verifyCode`, { challengeId, code });
    expect(response.json()).toMatchObject({ status: 400, code: 'invalid_code' });
  });

  it('resends a new code and the old one stops working', async () => {
    const msp = await buildMsp(t);
    const user = await buildUser(t, msp, { kind: 'client' });
    const client = newClient(t);
    const challengeId = await passwordStep(t, client, msp, user);
    const oldCode = await latestCode(t, user.email);
    const resend = await client.post(`/db/${msp.customDomain}/clientUsers/resendCode`, { challengeId });
    expect(resend.statusCode).toBe(200);
    expect(resend.json()).toEqual({ message: 'Verification Code Resent!' });
    const newCode = await latestCode(t, user.email);
    if (oldCode !== newCode) {
      const old = await client.post(`/db/${msp.customDomain}/clientUsers/verifyCode`, { challengeId, code: oldCode });
      expect(old.json()).toMatchObject({ code: 'invalid_code' });
    }
    const fresh = await client.post(`/db/${msp.customDomain}/clientUsers/verifyCode`, { challengeId, code: newCode });
    expect(fresh.statusCode).toBe(200);
    expect(fresh.json()).toMatchObject({ redirectTo: `/${msp.customDomain}/dashboard/${user.id}/tickets`, user: { userKind: 'client', roleName: 'Client' } });
  });

  it('does not resend for a used or unknown challenge, and needs CSRF', async () => {
    const msp = await buildMsp(t);
    const unknown = await newClient(t).post(`/db/${msp.customDomain}/technicianUsers/resendCode`, { challengeId: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.json()).toMatchObject({ status: 400, code: 'invalid_code' });
    const missing = await newClient(t).post(`/db/${msp.customDomain}/technicianUsers/resendCode`, {});
    expect(missing.json()).toMatchObject({ status: 400, detail: MESSAGES.verificationCodeRequired });
    const noCsrf = await newClient(t).post(`/db/${msp.customDomain}/technicianUsers/resendCode`, { challengeId: 'x' }, { csrf: false });
    expect(noCsrf.json()).toMatchObject({ status: 403, code: 'csrf' });
  });

  it('does not accept a challenge at another MSP (tenant isolation)', async () => {
    const msp = await buildMsp(t);
    const other = await buildMsp(t);
    const user = await buildUser(t, msp);
    const challengeId = await passwordStep(t, newClient(t), msp, user);
    const code = await latestCode(t, user.email);
    const response = await newClient(t).post(`/db/${other.customDomain}/technicianUsers/verifyCode`, { challengeId, code });
    expect(response.json()).toMatchObject({ status: 400, code: 'invalid_code' });
    const asClient = await newClient(t).post(`/db/${msp.customDomain}/clientUsers/verifyCode`, { challengeId, code });
    expect(asClient.json()).toMatchObject({ status: 400, code: 'invalid_code' });
  });

  it('verify needs the CSRF header', async () => {
    const msp = await buildMsp(t);
    const response = await newClient(t).post(`/db/${msp.customDomain}/technicianUsers/verifyCode`, { challengeId: 'x', code: '123456' }, { csrf: false });
    expect(response.json()).toMatchObject({ status: 403, code: 'csrf' });
  });
});

describe('brute force', () => {
  it('locks the account for 15 minutes after 10 failures (423), even for the right password', async () => {
    const msp = await buildMsp(t);
    const user = await buildUser(t, msp);
    for (let i = 0; i < 10; i++) {
      const response = await newClient(t).post(`/db/${msp.customDomain}/technicianUsers/signin`, { emailId: user.email, password: `Wrong-${i}!A` });
      expect(response.statusCode).toBe(401);
    }
    const locked = await newClient(t).post(`/db/${msp.customDomain}/technicianUsers/signin`, { emailId: user.email, password: user.password });
    expect(locked.statusCode).toBe(423);
    expect(locked.json()).toMatchObject({ code: 'locked', detail: MESSAGES.accountLocked });
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    const { auditEvents } = await import('@switchboard/db');
    const { and, eq } = await import('drizzle-orm');
    const lockouts = await t.deps.database.db.select().from(auditEvents).where(and(eq(auditEvents.mspId, msp.id), eq(auditEvents.action, 'auth.lockout')));
    expect(lockouts).toHaveLength(1);
    t.advanceClock(14 * MINUTE);
    expect((await newClient(t).post(`/db/${msp.customDomain}/technicianUsers/signin`, { emailId: user.email, password: user.password })).statusCode).toBe(423);
    t.advanceClock(MINUTE + 1000);
    expect((await newClient(t).post(`/db/${msp.customDomain}/technicianUsers/signin`, { emailId: user.email, password: user.password })).statusCode).toBe(200);
  });

  it('allows 20 password attempts per account in 5 minutes, from any IPs, then 429 until the window ends', async () => {
    const msp = await buildMsp(t);
    const user = await buildUser(t, msp);
    for (let i = 0; i < 20; i++) {
      expect((await newClient(t).post(`/db/${msp.customDomain}/technicianUsers/signin`, { emailId: user.email, password: user.password })).statusCode).toBe(200);
    }
    const over = await newClient(t).post(`/db/${msp.customDomain}/technicianUsers/signin`, { emailId: user.email, password: user.password });
    expect(over.statusCode).toBe(429);
    expect(over.json()).toMatchObject({ code: 'rate_limited' });
    t.advanceClock(5 * MINUTE + 1000);
    expect((await newClient(t).post(`/db/${msp.customDomain}/technicianUsers/signin`, { emailId: user.email, password: user.password })).statusCode).toBe(200);
  });

  it('answers 429 after 5 requests in 20 seconds from one IP', async () => {
    const msp = await buildMsp(t);
    const client = new TestClient(t.app, nextIp());
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await client.post(`/db/${msp.customDomain}/technicianUsers/signin`, { emailId: 'x@example.com', password: 'Wrong1!x' })).statusCode);
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses[5]).toBe(429);
    const last = await client.post(`/db/${msp.customDomain}/technicianUsers/signin`, { emailId: 'x@example.com', password: 'Wrong1!x' });
    expect(last.json()).toMatchObject({ code: 'rate_limited' });
    expect(last.headers['retry-after']).toBeDefined();
  });

  it('writes audit events for a failure and a success', async () => {
    const msp = await buildMsp(t);
    const user = await buildUser(t, msp);
    await newClient(t).post(`/db/${msp.customDomain}/technicianUsers/signin`, { emailId: user.email, password: 'Wrong1!x' });
    await signInThroughApi(t, msp, user);
    const { auditEvents } = await import('@switchboard/db');
    const { eq } = await import('drizzle-orm');
    const events = await t.deps.database.db.select().from(auditEvents).where(eq(auditEvents.mspId, msp.id));
    const summary = events.map((e) => `${e.action}:${e.outcome}`);
    expect(summary).toEqual(expect.arrayContaining(['auth.sign_in:failure', 'auth.sign_in.password:success', 'auth.sign_in:success']));
  });
});

describe('sessions', () => {
  it('expire after 7 days', async () => {
    const msp = await buildMsp(t);
    const user = await buildUser(t, msp);
    const client = await signInThroughApi(t, msp, user);
    t.advanceClock(7 * 24 * 60 * MINUTE - MINUTE);
    expect((await client.get('/auth/api/auth/microsoft-user')).json()).toMatchObject({ authenticated: true });
    t.advanceClock(2 * MINUTE);
    expect((await client.get('/auth/api/auth/microsoft-user')).json()).toEqual({ authenticated: false });
  });
});

/** How many answers had each status, e.g. { 401: 10, 423: 15 }. */
const statusCounts = (responses: Array<{ statusCode: number }>): Record<number, number> =>
  responses.reduce<Record<number, number>>((counts, response) => ({ ...counts, [response.statusCode]: (counts[response.statusCode] ?? 0) + 1 }), {});

// Security review (throttle check-then-act): the lock was read before the password check and counted after it, so
// 25 attempts sent together were all checked (24 × 401 and a 200 for the right password) and the lock never applied.
describe('brute force sent all at once', () => {
  it('checks at most 10 passwords of a burst; the rest, and then the right password, are refused as locked', async () => {
    const msp = await buildMsp(t);
    const user = await buildUser(t, msp);
    const burst = await Promise.all(
      Array.from({ length: 25 }, (_, i) => newClient(t).post(`/db/${msp.customDomain}/technicianUsers/signin`, { emailId: user.email, password: `Wrong-${i}!A` })),
    );
    expect(statusCounts(burst)).toEqual({ 401: 10, 423: 15 });
    expect(burst.find((response) => response.statusCode === 423)?.json()).toMatchObject({ code: 'locked', detail: MESSAGES.accountLocked });
    const afterwards = await newClient(t).post(`/db/${msp.customDomain}/technicianUsers/signin`, { emailId: user.email, password: user.password });
    expect(afterwards.statusCode).toBe(423);
    const { auditEvents } = await import('@switchboard/db');
    const { and, eq } = await import('drizzle-orm');
    const lockouts = await t.deps.database.db.select().from(auditEvents).where(and(eq(auditEvents.mspId, msp.id), eq(auditEvents.action, 'auth.lockout')));
    expect(lockouts).toHaveLength(1);
  });

  it('compares at most 5 guesses of one code and locks 2FA after 10 failures, even for the right code', async () => {
    const msp = await buildMsp(t);
    const user = await buildUser(t, msp);
    const challengeId = await passwordStep(t, newClient(t), msp, user);
    const code = await latestCode(t, user.email);
    const wrongCodes = Array.from({ length: 25 }, (_, i) => String((Number(code) + i + 1) % 1_000_000).padStart(6, '0'));
    const burst = await Promise.all(wrongCodes.map((wrong) => newClient(t).post(`/db/${msp.customDomain}/technicianUsers/verifyCode`, { challengeId, code: wrong })));
    expect(statusCounts(burst)).toEqual({ 400: 10, 423: 15 });
    const { auditEvents } = await import('@switchboard/db');
    const { and, eq } = await import('drizzle-orm');
    const failures = await t.deps.database.db.select().from(auditEvents).where(and(eq(auditEvents.mspId, msp.id), eq(auditEvents.action, 'auth.two_factor')));
    // Five wrong codes compared; the code then counts as closed, so no sixth guess is ever compared.
    expect(failures.filter((event) => (event.details as { reason?: string }).reason === 'wrong_code')).toHaveLength(5);
    const right = await newClient(t).post(`/db/${msp.customDomain}/technicianUsers/verifyCode`, { challengeId, code });
    expect(right.statusCode).toBe(423);
  });
});
