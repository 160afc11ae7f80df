import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { MESSAGES } from '@switchboard/contracts';
import { verificationCodes } from '@switchboard/db';
import { buildMsp, buildUser, signedInClient } from '../../../test/factories';
import { createTestApp, type TTestApp } from '../../../test/test-app';
import { latestCode, latestMail, newClient, nextIp } from './auth-test-helpers';

const RESET_SUBJECT = 'Your Switchboard password reset code';
const NEW_PASSWORD = 'N3w-Password!';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('forgot password', () => {
  it('resets end to end: code mailed, validated, password changed, old sessions revoked, new password signs in', async () => {
    const msp = await buildMsp(t);
    const user = await buildUser(t, msp);
    const oldSession = await signedInClient(t, user, nextIp());
    const base = `/db/${msp.customDomain}/technicianUsers`;
    const forgot = await newClient(t).get(`${base}/forgotPassword?email=${encodeURIComponent(user.email)}`);
    expect(forgot.statusCode).toBe(200);
    expect(forgot.json()).toEqual({ sent: true });
    const code = await latestCode(t, user.email, RESET_SUBJECT);
    const valid = await newClient(t).get(`${base}/validateResetToken?email=${encodeURIComponent(user.email)}&token=${code}`);
    expect(valid.json()).toEqual({ valid: true });
    const changed = await newClient(t).post(`${base}/changePassword?token=${code}`, { emailId: user.email, password: NEW_PASSWORD });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toEqual({ changed: true });
    expect((await oldSession.get('/auth/api/auth/microsoft-user')).json()).toEqual({ authenticated: false });
    expect((await newClient(t).post(`${base}/signin`, { emailId: user.email, password: user.password })).statusCode).toBe(401);
    expect((await newClient(t).post(`${base}/signin`, { emailId: user.email, password: NEW_PASSWORD })).statusCode).toBe(200);
    const reuse = await newClient(t).post(`${base}/changePassword?token=${code}`, { emailId: user.email, password: 'An0ther-Pass!' });
    expect(reuse.json()).toMatchObject({ status: 400, code: 'invalid_code' });
  });

  it('answers sent for an unknown email without mailing', async () => {
    const msp = await buildMsp(t);
    const email = `nobody-${Date.now()}@example.com`;
    const response = await newClient(t).get(`/db/${msp.customDomain}/clientUsers/forgotPassword?email=${email}`);
    expect(response.json()).toEqual({ sent: true });
    expect(await latestMail(t, email, RESET_SUBJECT)).toBeUndefined();
  });

  it('answers a technician imported without a password as any other address, and mails them to ask for an invitation (review s27 #1)', async () => {
    const msp = await buildMsp(t);
    const imported = await buildUser(t, msp, { password: null });
    const forgot = await newClient(t).get(`/db/${msp.customDomain}/technicianUsers/forgotPassword?email=${encodeURIComponent(imported.email)}`);
    expect(forgot.statusCode).toBe(200);
    expect(forgot.json()).toEqual({ sent: true });
    expect(await latestMail(t, imported.email, RESET_SUBJECT)).toBeUndefined();
    const mail = await latestMail(t, imported.email, MESSAGES.invitations.noPasswordYetMailSubject);
    expect(mail?.text).toContain(MESSAGES.auth.askForInvitation);
  });

  it('asks for a valid email, and needs the CSRF header (state-changing GET)', async () => {
    const msp = await buildMsp(t);
    const bad = await newClient(t).get(`/db/${msp.customDomain}/clientUsers/forgotPassword?email=nope`);
    expect(bad.json()).toMatchObject({ status: 400, detail: 'A valid email is required.' });
    const noCsrf = await newClient(t).get(`/db/${msp.customDomain}/clientUsers/forgotPassword?email=a@example.com`, { csrf: false });
    expect(noCsrf.json()).toMatchObject({ status: 403, code: 'csrf' });
  });

  it('rejects a wrong, missing or expired code', async () => {
    const msp = await buildMsp(t);
    const user = await buildUser(t, msp, { kind: 'client' });
    const base = `/db/${msp.customDomain}/clientUsers`;
    await newClient(t).get(`${base}/forgotPassword?email=${encodeURIComponent(user.email)}`);
    const code = await latestCode(t, user.email, RESET_SUBJECT);
    const wrong = code === '000000' ? '111111' : '000000';
    expect((await newClient(t).get(`${base}/validateResetToken?email=${encodeURIComponent(user.email)}&token=${wrong}`)).json()).toMatchObject({ status: 400, code: 'invalid_code', detail: MESSAGES.resetTokenInvalid });
    expect((await newClient(t).get(`${base}/validateResetToken?email=${encodeURIComponent(user.email)}`)).json()).toMatchObject({ status: 400, detail: 'A valid verification code required.' });
    expect((await newClient(t).get(`${base}/validateResetToken?email=${encodeURIComponent(user.email)}&token=${code}`, { csrf: false })).json()).toMatchObject({ status: 403, code: 'csrf' });
    t.advanceClock(11 * 60_000);
    expect((await newClient(t).get(`${base}/validateResetToken?email=${encodeURIComponent(user.email)}&token=${code}`)).json()).toMatchObject({ status: 400, code: 'invalid_code' });
  });

  it('lists every unmet password rule as validPassword and keeps the code usable', async () => {
    const msp = await buildMsp(t);
    const user = await buildUser(t, msp);
    const base = `/db/${msp.customDomain}/technicianUsers`;
    await newClient(t).get(`${base}/forgotPassword?email=${encodeURIComponent(user.email)}`);
    const code = await latestCode(t, user.email, RESET_SUBJECT);
    const weak = await newClient(t).post(`${base}/changePassword?token=${code}`, { emailId: user.email, password: 'short' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json()).toMatchObject({
      flags: { validPassword: ['Password needs to be at least 8 characters.', 'Password needs at least one special character.', 'Password needs at least one uppercase character.'] },
    });
    const noToken = await newClient(t).post(`${base}/changePassword`, { emailId: user.email, password: NEW_PASSWORD });
    expect(noToken.json()).toMatchObject({ status: 400, detail: 'A valid verification code required.' });
    expect((await newClient(t).post(`${base}/changePassword?token=${code}`, { emailId: user.email, password: NEW_PASSWORD })).statusCode).toBe(200);
  });

  it('does not accept a code at another MSP (404 for an unknown MSP) and needs CSRF on change', async () => {
    const msp = await buildMsp(t);
    const other = await buildMsp(t);
    const user = await buildUser(t, msp);
    await newClient(t).get(`/db/${msp.customDomain}/technicianUsers/forgotPassword?email=${encodeURIComponent(user.email)}`);
    const code = await latestCode(t, user.email, RESET_SUBJECT);
    const elsewhere = await newClient(t).post(`/db/${other.customDomain}/technicianUsers/changePassword?token=${code}`, { emailId: user.email, password: NEW_PASSWORD });
    expect(elsewhere.json()).toMatchObject({ status: 400, code: 'invalid_code' });
    expect((await newClient(t).get(`/db/no-such-msp-xyz/technicianUsers/forgotPassword?email=${encodeURIComponent(user.email)}`)).statusCode).toBe(404);
    const noCsrf = await newClient(t).post(`/db/${msp.customDomain}/technicianUsers/changePassword?token=${code}`, { emailId: user.email, password: NEW_PASSWORD }, { csrf: false });
    expect(noCsrf.json()).toMatchObject({ status: 403, code: 'csrf' });
  });

  // Issue #6 §2b: a known address was locked (423) after 10 wrong codes while an unknown one
  // answered 400 forever, which told the two apart.
  it('answers a known and an unknown address alike: 400 for ten wrong codes, then 423 locked for both', async () => {
    const msp = await buildMsp(t);
    const user = await buildUser(t, msp);
    const unknown = `nobody-${Date.now()}@example.com`;
    const base = `/db/${msp.customDomain}/technicianUsers`;
    const answersFor = async (email: string) => {
      await newClient(t).get(`${base}/forgotPassword?email=${encodeURIComponent(email)}`);
      const answers: Array<{ status: number; code: unknown; detail: unknown; retryAfter: boolean }> = [];
      for (let attempt = 0; attempt < 11; attempt++) {
        const response = await newClient(t).get(`${base}/validateResetToken?email=${encodeURIComponent(email)}&token=000000`);
        const body = response.json<{ code?: unknown; detail?: unknown }>();
        answers.push({ status: response.statusCode, code: body.code, detail: body.detail, retryAfter: response.headers['retry-after'] !== undefined });
      }
      return answers;
    };
    const known = await answersFor(user.email);
    const notKnown = await answersFor(unknown);
    expect(known.map((a) => a.status)).toEqual([...Array<number>(10).fill(400), 423]);
    expect(known.at(-1)).toEqual({ status: 423, code: 'locked', detail: MESSAGES.accountLocked, retryAfter: true });
    expect(notKnown).toEqual(known);
    // The lock is by address, whatever its letter case; it holds even for the right code.
    const code = await latestCode(t, user.email, RESET_SUBJECT);
    expect((await newClient(t).get(`${base}/validateResetToken?email=${encodeURIComponent(user.email.toUpperCase())}&token=${code}`)).statusCode).toBe(423);
  });

  // Security review (throttle check-then-act): the lock and a code's tries were read before the code was compared
  // and counted after, so wrong codes sent all at once were all compared and never locked the address.
  it('compares at most 5 guesses of a reset code sent all at once, and locks the address after 10 failures', async () => {
    const msp = await buildMsp(t);
    const user = await buildUser(t, msp);
    const base = `/db/${msp.customDomain}/technicianUsers`;
    await newClient(t).get(`${base}/forgotPassword?email=${encodeURIComponent(user.email)}`);
    const code = await latestCode(t, user.email, RESET_SUBJECT);
    const wrongCodes = Array.from({ length: 25 }, (_, i) => String((Number(code) + i + 1) % 1_000_000).padStart(6, '0'));
    const burst = await Promise.all(wrongCodes.map((wrong) => newClient(t).get(`${base}/validateResetToken?email=${encodeURIComponent(user.email)}&token=${wrong}`)));
    const counts = burst.reduce<Record<number, number>>((all, response) => ({ ...all, [response.statusCode]: (all[response.statusCode] ?? 0) + 1 }), {});
    expect(counts).toEqual({ 400: 10, 423: 15 });
    const [row] = await t.deps.database.db.select().from(verificationCodes).where(and(eq(verificationCodes.userId, user.id), eq(verificationCodes.purpose, 'password_reset')));
    expect(row?.attempts).toBe(5);
    expect((await newClient(t).get(`${base}/validateResetToken?email=${encodeURIComponent(user.email)}&token=${code}`)).statusCode).toBe(423);
  });

  it('lets the right reset code through after four wrong ones: validating it does not use up a try', async () => {
    const msp = await buildMsp(t);
    const user = await buildUser(t, msp);
    const base = `/db/${msp.customDomain}/technicianUsers`;
    await newClient(t).get(`${base}/forgotPassword?email=${encodeURIComponent(user.email)}`);
    const code = await latestCode(t, user.email, RESET_SUBJECT);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 4; i++) expect((await newClient(t).get(`${base}/validateResetToken?email=${encodeURIComponent(user.email)}&token=${wrong}`)).statusCode).toBe(400);
    expect((await newClient(t).get(`${base}/validateResetToken?email=${encodeURIComponent(user.email)}&token=${code}`)).json()).toEqual({ valid: true });
    const changed = await newClient(t).post(`${base}/changePassword?token=${code}`, { emailId: user.email, password: NEW_PASSWORD });
    expect(changed.json()).toEqual({ changed: true });
  });

  it('answers 429 after 5 reset requests in 20 seconds from one IP', async () => {
    const msp = await buildMsp(t);
    const client = newClient(t);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await client.get(`/db/${msp.customDomain}/technicianUsers/forgotPassword?email=a${i}@example.com`)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });
});
