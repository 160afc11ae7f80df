import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import { and, eq } from 'drizzle-orm';
import { MESSAGES } from '@switchboard/contracts';
import { auditEvents } from '@switchboard/db';
import { buildMsp, buildUser, signedInClient } from '../../../test/factories';
import { createTestApp, type TTestApp } from '../../../test/test-app';
import { newClient, nextIp } from './auth-test-helpers';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const codeAt = (secret: string) => generate({ secret, epoch: Math.floor(t.deps.now().getTime() / 1000) });

describe('TOTP enrolment and sign-in with an authenticator code', () => {
  it('enrols, then accepts the app code instead of the mailed one, and can be disabled', async () => {
    const msp = await buildMsp(t);
    const user = await buildUser(t, msp);
    const session = await signedInClient(t, user, nextIp());
    const base = `/db/${msp.customDomain}/technicianUsers/totp`;
    const setup = await session.post(`${base}/setup`);
    expect(setup.statusCode).toBe(200);
    const { secret, otpauthUrl } = setup.json<{ secret: string; otpauthUrl: string }>();
    expect(otpauthUrl).toMatch(/^otpauth:\/\/totp\//);

    const pending = await newClient(t).post(`/db/${msp.customDomain}/technicianUsers/signin`, { emailId: user.email, password: user.password });
    expect(pending.json()).toMatchObject({ methods: ['email'] });

    const wrong = await session.post(`${base}/enable`, { code: '000000' === (await codeAt(secret)) ? '111111' : '000000' });
    expect(wrong.json()).toMatchObject({ status: 400, code: 'invalid_code' });
    const enabled = await session.post(`${base}/enable`, { code: await codeAt(secret) });
    expect(enabled.json()).toEqual({ totpEnabled: true });

    // The enrolment spent the current time step; the next sign-in uses the next code (RFC 6238 §5.2).
    t.advanceClock(30_000);
    const client = newClient(t);
    const signIn = await client.post(`/db/${msp.customDomain}/technicianUsers/signin`, { emailId: user.email, password: user.password });
    expect(signIn.json()).toMatchObject({ methods: ['email', 'totp'] });
    const verified = await client.post(`/db/${msp.customDomain}/technicianUsers/verifyCode`, { challengeId: signIn.json<{ challengeId: string }>().challengeId, code: await codeAt(secret) });
    expect(verified.statusCode).toBe(200);

    // The same authenticator code cannot open a second session (regression: TOTP replay).
    const replay = newClient(t);
    const again = await replay.post(`/db/${msp.customDomain}/technicianUsers/signin`, { emailId: user.email, password: user.password });
    const replayed = await replay.post(`/db/${msp.customDomain}/technicianUsers/verifyCode`, { challengeId: again.json<{ challengeId: string }>().challengeId, code: await codeAt(secret) });
    expect(replayed.json()).toMatchObject({ status: 400, code: 'invalid_code', flags: { login2FA: true } });

    t.advanceClock(30_000);
    expect((await session.post(`${base}/disable`, { code: await codeAt(secret) })).json()).toEqual({ totpEnabled: false });
    const after = await newClient(t).post(`/db/${msp.customDomain}/technicianUsers/signin`, { emailId: user.email, password: user.password });
    expect(after.json()).toMatchObject({ methods: ['email'] });
  });

  it('keeps the enrolled app working while another is set up, until the new one is confirmed (review s27 #2)', async () => {
    const msp = await buildMsp(t);
    const user = await buildUser(t, msp);
    const session = await signedInClient(t, user, nextIp());
    const base = `/db/${msp.customDomain}/technicianUsers/totp`;
    expect((await session.get(base)).json()).toEqual({ totpEnabled: false });
    const first = (await session.post(`${base}/setup`)).json<{ secret: string }>().secret;
    expect((await session.post(`${base}/enable`, { code: await codeAt(first) })).json()).toEqual({ totpEnabled: true });
    expect((await session.get(base)).json()).toEqual({ totpEnabled: true });

    // Setting up again (a new phone) and walking away leaves the first app in place.
    const second = (await session.post(`${base}/setup`)).json<{ secret: string }>().secret;
    expect(second).not.toBe(first);
    expect((await session.get(base)).json()).toEqual({ totpEnabled: true });
    t.advanceClock(30_000);
    const signInWith = async (secret: string) => {
      const client = newClient(t);
      const signIn = await client.post(`/db/${msp.customDomain}/technicianUsers/signin`, { emailId: user.email, password: user.password });
      expect(signIn.json()).toMatchObject({ methods: ['email', 'totp'] });
      return client.post(`/db/${msp.customDomain}/technicianUsers/verifyCode`, { challengeId: signIn.json<{ challengeId: string }>().challengeId, code: await codeAt(secret) });
    };
    expect((await signInWith(first)).statusCode).toBe(200);

    // Confirming the new app, with the agreement of the old one, replaces the old one.
    t.advanceClock(30_000);
    expect((await session.post(`${base}/enable`, { code: await codeAt(second), currentCode: await codeAt(first) })).json()).toEqual({ totpEnabled: true });
    t.advanceClock(30_000);
    expect((await signInWith(first)).json()).toMatchObject({ status: 400, code: 'invalid_code' });
    t.advanceClock(30_000);
    expect((await signInWith(second)).statusCode).toBe(200);
  });

  it('replaces the enrolled app only with a current code from it: a session alone cannot (security review s28)', async () => {
    const msp = await buildMsp(t);
    const user = await buildUser(t, msp);
    const session = await signedInClient(t, user, nextIp());
    const base = `/db/${msp.customDomain}/technicianUsers/totp`;
    const appA = (await session.post(`${base}/setup`)).json<{ secret: string }>().secret;
    expect((await session.post(`${base}/enable`, { code: await codeAt(appA) })).json()).toEqual({ totpEnabled: true });
    const signInWith = async (secret: string) => {
      const client = newClient(t);
      const signIn = await client.post(`/db/${msp.customDomain}/technicianUsers/signin`, { emailId: user.email, password: user.password });
      return client.post(`/db/${msp.customDomain}/technicianUsers/verifyCode`, { challengeId: signIn.json<{ challengeId: string }>().challengeId, code: await codeAt(secret) });
    };
    const failures = async () =>
      (await t.deps.database.db.select().from(auditEvents).where(and(eq(auditEvents.mspId, msp.id), eq(auditEvents.action, 'auth.totp.enable'), eq(auditEvents.outcome, 'failure')))).length;

    // Someone holding only the session sets up their own app B and confirms it with B's code alone.
    t.advanceClock(30_000);
    const appB = (await session.post(`${base}/setup`)).json<{ secret: string }>().secret;
    const alone = await session.post(`${base}/enable`, { code: await codeAt(appB) });
    expect(alone.json()).toMatchObject({ status: 400, code: 'invalid_code', detail: MESSAGES.authenticatorApp.currentCodeRequired, invalidParams: [{ name: 'currentCode' }] });
    const wrongA = (await codeAt(appA)) === '000000' ? '111111' : '000000';
    const guessed = await session.post(`${base}/enable`, { code: await codeAt(appB), currentCode: wrongA });
    expect(guessed.json()).toMatchObject({ status: 400, code: 'invalid_code', detail: MESSAGES.authenticatorApp.currentCodeWrong, invalidParams: [{ name: 'currentCode' }] });
    // A code of the enrolled app in the new app's field is no way round it either.
    expect((await session.post(`${base}/enable`, { code: await codeAt(appA), currentCode: await codeAt(appA) })).json()).toMatchObject({ status: 400, code: 'invalid_code', detail: MESSAGES.authenticatorApp.newCodeWrong, invalidParams: [{ name: 'code' }] });
    expect(await failures()).toBe(3);
    expect((await signInWith(appA)).statusCode).toBe(200);

    // The owner, with a code from each app (both of the same 30-second step), replaces A with B.
    t.advanceClock(30_000);
    const replaced = await session.post(`${base}/enable`, { code: await codeAt(appB), currentCode: await codeAt(appA) });
    expect(replaced.json()).toEqual({ totpEnabled: true });
    // Both codes were spent: neither opens a session in the same step (RFC 6238 §5.2).
    expect((await signInWith(appB)).json()).toMatchObject({ status: 400, code: 'invalid_code' });
    t.advanceClock(30_000);
    expect((await signInWith(appA)).json()).toMatchObject({ status: 400, code: 'invalid_code' });
    t.advanceClock(30_000);
    expect((await signInWith(appB)).statusCode).toBe(200);
  });

  it('refuses a current code already spent on a sign-in as the agreement to a replacement (security review s28)', async () => {
    const msp = await buildMsp(t);
    const user = await buildUser(t, msp);
    const session = await signedInClient(t, user, nextIp());
    const base = `/db/${msp.customDomain}/technicianUsers/totp`;
    const appA = (await session.post(`${base}/setup`)).json<{ secret: string }>().secret;
    await session.post(`${base}/enable`, { code: await codeAt(appA) });
    t.advanceClock(30_000);
    // The owner signs in elsewhere with A's code; someone who saw it type it in tries to reuse it.
    const client = newClient(t);
    const signIn = await client.post(`/db/${msp.customDomain}/technicianUsers/signin`, { emailId: user.email, password: user.password });
    // The very code typed at the sign-in (computed once: the real clock can cross a 30-s step between two requests on
    // a loaded machine, and a code of the next step was never spent).
    const seen = await codeAt(appA);
    expect((await client.post(`/db/${msp.customDomain}/technicianUsers/verifyCode`, { challengeId: signIn.json<{ challengeId: string }>().challengeId, code: seen })).statusCode).toBe(200);
    const appB = (await session.post(`${base}/setup`)).json<{ secret: string }>().secret;
    expect((await session.post(`${base}/enable`, { code: await codeAt(appB), currentCode: seen })).json()).toMatchObject({ status: 400, code: 'invalid_code', detail: MESSAGES.authenticatorApp.codesAlreadyUsed });
    expect((await session.get(base)).json()).toEqual({ totpEnabled: true });
    // The first-time path is unchanged: with no app enrolled, the new app's code alone turns it on.
    t.advanceClock(30_000);
    expect((await session.post(`${base}/disable`, { code: await codeAt(appA) })).json()).toEqual({ totpEnabled: false });
    const appC = (await session.post(`${base}/setup`)).json<{ secret: string }>().secret;
    t.advanceClock(30_000);
    expect((await session.post(`${base}/enable`, { code: await codeAt(appC) })).json()).toEqual({ totpEnabled: true });
  });

  it('turns the app off only with a current code from it (review s27 #2)', async () => {
    const msp = await buildMsp(t);
    const user = await buildUser(t, msp);
    const session = await signedInClient(t, user, nextIp());
    const base = `/db/${msp.customDomain}/technicianUsers/totp`;
    const secret = (await session.post(`${base}/setup`)).json<{ secret: string }>().secret;
    await session.post(`${base}/enable`, { code: await codeAt(secret) });
    t.advanceClock(30_000);
    expect((await session.post(`${base}/disable`, {})).json()).toMatchObject({ status: 400, detail: MESSAGES.verificationCodeRequired });
    const wrong = (await codeAt(secret)) === '000000' ? '111111' : '000000';
    expect((await session.post(`${base}/disable`, { code: wrong })).json()).toMatchObject({ status: 400, code: 'invalid_code' });
    expect((await session.get(base)).json()).toEqual({ totpEnabled: true });
    expect((await session.post(`${base}/disable`, { code: await codeAt(secret) })).json()).toEqual({ totpEnabled: false });
    expect((await session.get(base)).json()).toEqual({ totpEnabled: false });
  });

  it('needs a session (401), the own user kind and tenant (404) and the CSRF header (403)', async () => {
    const msp = await buildMsp(t);
    const other = await buildMsp(t);
    const user = await buildUser(t, msp);
    const session = await signedInClient(t, user, nextIp());
    expect((await newClient(t).post(`/db/${msp.customDomain}/technicianUsers/totp/setup`)).statusCode).toBe(401);
    expect((await session.post(`/db/${other.customDomain}/technicianUsers/totp/setup`)).statusCode).toBe(404);
    expect((await session.post(`/db/${msp.customDomain}/clientUsers/totp/setup`)).statusCode).toBe(404);
    expect((await session.post(`/db/${msp.customDomain}/technicianUsers/totp/setup`, undefined, { csrf: false })).json()).toMatchObject({ status: 403, code: 'csrf' });
    expect((await session.post(`/db/${msp.customDomain}/technicianUsers/totp/enable`, {})).json()).toMatchObject({ status: 400, detail: 'A valid verification code required.' });
  });
});
