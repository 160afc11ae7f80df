import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import { and, eq } from 'drizzle-orm';
import { MESSAGES, permissionMap, type TEmployeePage, type TPermission } from '@switchboard/contracts';
import { auditEvents, roles } from '@switchboard/db';
import { buildMsp, buildUser, signedInClient, type TTestMsp, type TTestUser } from '../../../test/factories';
import { createTestApp, type TestClient, type TTestApp } from '../../../test/test-app';
import { collectionOf, latestMail, newClient, nextIp } from './auth-test-helpers';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const codeAt = (secret: string) => generate({ secret, epoch: Math.floor(t.deps.now().getTime() / 1000) });
const removeUrl = (msp: TTestMsp, collection: 'technicianUsers' | 'clientUsers' = 'technicianUsers') => `/db/${msp.customDomain}/${collection}/totp/remove`;

/** Enrols an authenticator app for the user through their own session, as they would in their profile; answers its secret. */
async function enrolApp(msp: TTestMsp, user: TTestUser): Promise<{ session: TestClient; secret: string }> {
  const session = await signedInClient(t, user, nextIp());
  const base = `/db/${msp.customDomain}/${collectionOf(user)}/totp`;
  const secret = (await session.post(`${base}/setup`)).json<{ secret: string }>().secret;
  expect((await session.post(`${base}/enable`, { code: await codeAt(secret) })).json()).toEqual({ totpEnabled: true });
  return { session, secret };
}

const hasApp = async (msp: TTestMsp, user: TTestUser, session: TestClient) => (await session.get(`/db/${msp.customDomain}/${collectionOf(user)}/totp`)).json<{ totpEnabled: boolean }>().totpEnabled;

async function roleWith(msp: TTestMsp, permissions: TPermission[]): Promise<string> {
  const [role] = await t.deps.database.db.insert(roles).values({ mspId: msp.id, name: `Role ${permissions.join(' ')}`, custom: true, permissions: permissionMap(permissions) }).returning();
  if (!role) throw new Error('role not created');
  return role.id;
}

describe('a people manager removes a lost authenticator app (decision 047)', () => {
  it('removes the app: it no longer signs in, the person is mailed and audited, and can enrol a new one', async () => {
    const msp = await buildMsp(t);
    const admin = await buildUser(t, msp, { firstName: 'Ada', lastName: 'Manager' });
    const adminSession = await signedInClient(t, admin, nextIp());
    const tech = await buildUser(t, msp, { role: 'Technician', lastName: 'Lostphone' });
    const { session, secret } = await enrolApp(msp, tech);
    const listed = async () => (await adminSession.get(`/db/${msp.customDomain}/technicianUsers/activeTechnicians`)).json<TEmployeePage>().employees.find((employee) => employee.id === tech.id);
    expect(await listed()).toMatchObject({ hasAuthenticatorApp: true });
    expect(JSON.stringify(await listed())).not.toContain(secret);

    const removed = await adminSession.post(removeUrl(msp), { id: tech.id });
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toEqual({ id: tech.id, hasAuthenticatorApp: false, isPersonNotified: true });
    expect(await listed()).toMatchObject({ hasAuthenticatorApp: false });
    expect(await hasApp(msp, tech, session)).toBe(false);

    // Nothing left to remove: a second click (or a colleague's) says so in plain words.
    expect((await adminSession.post(removeUrl(msp), { id: tech.id })).json()).toMatchObject({ status: 409, code: 'conflict', detail: MESSAGES.authenticatorAppRemoval.noneEnrolled });

    // The lost app's code no longer opens a session; the sign-in offers only the mailed code.
    t.advanceClock(30_000);
    const client = newClient(t);
    const signIn = await client.post(`/db/${msp.customDomain}/technicianUsers/signin`, { emailId: tech.email, password: tech.password });
    expect(signIn.json()).toMatchObject({ methods: ['email'] });
    const withLostApp = await client.post(`/db/${msp.customDomain}/technicianUsers/verifyCode`, { challengeId: signIn.json<{ challengeId: string }>().challengeId, code: await codeAt(secret) });
    expect(withLostApp.json()).toMatchObject({ status: 400, code: 'invalid_code' });

    const [event] = await t.deps.database.db.select().from(auditEvents).where(and(eq(auditEvents.mspId, msp.id), eq(auditEvents.action, 'auth.totp.remove')));
    expect(event).toMatchObject({ actorKind: 'user', actorId: admin.id, target: tech.id, outcome: 'success' });

    const mail = await latestMail(t, tech.email, MESSAGES.authenticatorAppRemoval.mailSubject);
    expect(mail?.text).toContain('Your authenticator app was removed by Ada Manager');
    expect(mail?.text).toContain('If you did not ask for this, contact');

    // A new phone: the first enrolment again, with the new app's code alone.
    const fresh = (await session.post(`/db/${msp.customDomain}/technicianUsers/totp/setup`)).json<{ secret: string }>().secret;
    expect((await session.post(`/db/${msp.customDomain}/technicianUsers/totp/enable`, { code: await codeAt(fresh) })).json()).toEqual({ totpEnabled: true });
  });

  it('refuses without a session (401), without CSRF (403), without the permission (403), for oneself and for a richer colleague (403), and across tenants (404)', async () => {
    const msp = await buildMsp(t);
    const other = await buildMsp(t);
    const admin = await buildUser(t, msp);
    const adminSession = await signedInClient(t, admin, nextIp());
    const richer = await buildUser(t, msp);
    const { session: richerSession } = await enrolApp(msp, richer);
    const body = { id: richer.id };

    expect((await newClient(t).post(removeUrl(msp), body)).statusCode).toBe(401);
    expect((await adminSession.post(removeUrl(msp), body, { csrf: false })).json()).toMatchObject({ status: 403, code: 'csrf' });
    const technician = await signedInClient(t, await buildUser(t, msp, { role: 'Technician' }), nextIp());
    expect((await technician.post(removeUrl(msp), body)).statusCode).toBe(403);
    // Decision 044: Technician user management alone does not reach an Admin's second factor.
    const lesser = await signedInClient(t, await buildUser(t, msp, { roleId: await roleWith(msp, ['technicianUserManagement']) }), nextIp());
    expect((await lesser.post(removeUrl(msp), body)).json()).toMatchObject({ status: 403, code: 'forbidden', detail: MESSAGES.roleTargetTooBroad });
    // One's own app changes only with a code from it (decision 046).
    expect((await richerSession.post(removeUrl(msp), body)).json()).toMatchObject({ status: 403, code: 'forbidden', detail: MESSAGES.authenticatorAppRemoval.notForSelf });
    // Another MSP's path, another MSP's person, and a technician named on the client users' route are not found.
    const stranger = await signedInClient(t, await buildUser(t, other), nextIp());
    expect((await stranger.post(removeUrl(msp), body)).statusCode).toBe(404);
    expect((await stranger.post(removeUrl(other), body)).statusCode).toBe(404);
    expect((await adminSession.post(removeUrl(msp, 'clientUsers'), body)).statusCode).toBe(404);
    expect(await hasApp(msp, richer, richerSession)).toBe(true);
    expect(await t.deps.database.db.select().from(auditEvents).where(and(eq(auditEvents.mspId, msp.id), eq(auditEvents.action, 'auth.totp.remove')))).toEqual([]);
  });

  it("lets a client desk (Client user management) remove a client user's app", async () => {
    const msp = await buildMsp(t);
    const desk = await signedInClient(t, await buildUser(t, msp, { roleId: await roleWith(msp, ['clientUserManagement']) }), nextIp());
    const client = await buildUser(t, msp, { kind: 'client' });
    const { session } = await enrolApp(msp, client);
    expect((await desk.post(removeUrl(msp, 'technicianUsers'), { id: client.id })).statusCode).toBe(403);
    expect((await desk.post(removeUrl(msp, 'clientUsers'), { id: client.id })).json()).toMatchObject({ id: client.id, hasAuthenticatorApp: false });
    expect(await hasApp(msp, client, session)).toBe(false);
  });
});
