import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, isNull } from 'drizzle-orm';
import { MESSAGES, permissionMap, type TEmployeePage } from '@switchboard/contracts';
import { auditEvents, roles, verificationCodes } from '@switchboard/db';
import { buildMsp, buildUser, signedInClient, type TTestMsp } from '../../../test/factories';
import { createTestApp, type TestClient, type TTestApp } from '../../../test/test-app';
import { latestMail, newClient, nextIp, signInThroughApi } from '../auth/auth-test-helpers';
import type { TMail, TMailer } from '../../lib/mailer';
import { INVITATION_TTL_MS } from './invitations.service';

let t: TTestApp;
let clockOffsetMs = 0;
beforeAll(async () => {
  t = await createTestApp({ now: () => new Date(Date.now() + clockOffsetMs), config: { publicUrl: 'https://desk.example.com' } });
});
afterAll(async () => {
  await t.close();
});

const NEW_PASSWORD = 'Invited#Pass2026';

async function setUp(): Promise<{ msp: TTestMsp; admin: TestClient }> {
  const msp = await buildMsp(t);
  return { msp, admin: await signedInClient(t, await buildUser(t, msp), nextIp()) };
}

/** The link in the newest invitation mailed to `email`, and its token. */
async function mailedInvitation(email: string): Promise<{ link: string; token: string }> {
  const mail = await latestMail(t, email, MESSAGES.invitations.mailSubject);
  const link = mail?.text.split('\n').find((line) => line.startsWith('https://'));
  if (!link) throw new Error(`no invitation mailed to ${email}`);
  return { link, token: new URL(link).searchParams.get('token') ?? '' };
}

const statusesOf = async (admin: TestClient, msp: TTestMsp) =>
  Object.fromEntries((await admin.get(`/db/${msp.customDomain}/technicianUsers/activeTechnicians`)).json<TEmployeePage>().employees.map((employee) => [employee.lastName, employee.accountStatus]));

describe('technician invitations (decision 019)', () => {
  it('shows No account, then Invited after the mail, then Active once the technician sets a password and signs in', async () => {
    const { msp, admin } = await setUp();
    const imported = await buildUser(t, msp, { role: 'Technician', firstName: 'Imported', lastName: 'Ivy', password: null, psaMemberId: '77' });
    expect(await statusesOf(admin, msp)).toMatchObject({ Ivy: 'No account' });

    const sent = await admin.post(`/db/${msp.customDomain}/technicianUsers/sendInvitation`, { id: imported.id });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json<{ employee: { accountStatus: string } }>().employee.accountStatus).toBe('Invited');
    expect(await statusesOf(admin, msp)).toMatchObject({ Ivy: 'Invited' });

    const { link, token } = await mailedInvitation(imported.email);
    expect(link.startsWith(`https://desk.example.com/${msp.customDomain}/invitation?token=`)).toBe(true);
    const visitor = newClient(t);
    const read = await visitor.get(`/db/${msp.customDomain}/technicianUsers/invitation?token=${encodeURIComponent(token)}`);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toMatchObject({ email: imported.email, firstName: 'Imported', lastName: 'Ivy' });

    const weak = await visitor.post(`/db/${msp.customDomain}/technicianUsers/acceptInvitation`, { token, password: 'short' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json<{ detail: string }>().detail).not.toBe(MESSAGES.invitations.invalid);

    const accepted = await visitor.post(`/db/${msp.customDomain}/technicianUsers/acceptInvitation`, { token, password: NEW_PASSWORD });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toEqual({ accepted: true, email: imported.email });
    expect(await statusesOf(admin, msp)).toMatchObject({ Ivy: 'Active' });

    // The link works once; the new password signs in (with the usual mailed code).
    const again = await visitor.post(`/db/${msp.customDomain}/technicianUsers/acceptInvitation`, { token, password: 'Another#Pass2026' });
    expect(again.statusCode).toBe(400);
    expect(again.json<{ detail: string }>().detail).toBe(MESSAGES.invitations.invalid);
    const signedIn = await signInThroughApi(t, msp, { ...imported, password: NEW_PASSWORD });
    const own = await signedIn.get(`/db/${msp.customDomain}/technicianUsers/getById?id=${imported.id}`);
    expect(own.statusCode, own.body).toBe(200);
    expect(own.body).toContain(imported.email);

    const [event] = await t.deps.database.db.select().from(auditEvents).where(and(eq(auditEvents.mspId, msp.id), eq(auditEvents.action, 'technician.invitation.accept')));
    expect(event?.target).toBe(imported.id);
  });

  it('invites every uninvited technician at once, skipping those with an account or an open invitation', async () => {
    const { msp, admin } = await setUp();
    const first = await buildUser(t, msp, { role: 'Technician', lastName: 'Adams', password: null });
    const second = await buildUser(t, msp, { role: 'Technician', lastName: 'Baker', password: null });
    const invitedBefore = await buildUser(t, msp, { role: 'Technician', lastName: 'Clark', password: null });
    await buildUser(t, msp, { role: 'Technician', lastName: 'Davis' });
    expect((await admin.post(`/db/${msp.customDomain}/technicianUsers/sendInvitation`, { id: invitedBefore.id })).statusCode).toBe(200);

    const all = await admin.post(`/db/${msp.customDomain}/technicianUsers/sendInvitations`);
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json()).toEqual({ invited: 2 });
    expect(await statusesOf(admin, msp)).toMatchObject({ Adams: 'Invited', Baker: 'Invited', Clark: 'Invited', Davis: 'Active' });
    for (const user of [first, second]) expect((await mailedInvitation(user.email)).token).toMatch(/\./);
    expect((await admin.post(`/db/${msp.customDomain}/technicianUsers/sendInvitations`)).json()).toEqual({ invited: 0 });
  });

  /** Runs `body` with a mail server that refuses the `failing` sends (1-based, counted from now); the others are delivered. */
  async function withRefusingMailServer<T>(failing: number[], body: () => Promise<T>): Promise<T> {
    const real = t.deps.mailer;
    let sends = 0;
    const refusing: TMailer = {
      health: () => real.health(),
      async send(mail: TMail) {
        sends += 1;
        if (failing.includes(sends)) throw new Error('451 4.3.0 Temporary mail server failure');
        await real.send(mail);
      },
    };
    t.deps.mailer = refusing;
    try {
      return await body();
    } finally {
      t.deps.mailer = real;
    }
  }

  it('"invite all" keeps no invitation whose mail the mail server refused, says how many were not sent, and the next "invite all" sends them (review: invitations lost when SMTP fails partway)', async () => {
    const { msp, admin } = await setUp();
    const adams = await buildUser(t, msp, { role: 'Technician', lastName: 'Adams', password: null });
    const baker = await buildUser(t, msp, { role: 'Technician', lastName: 'Baker', password: null });
    const clark = await buildUser(t, msp, { role: 'Technician', lastName: 'Clark', password: null });

    // Invitations go out in name order, so Baker's is the second send and the one refused.
    const partial = await withRefusingMailServer([2], () => admin.post(`/db/${msp.customDomain}/technicianUsers/sendInvitations`));
    expect(partial.statusCode, partial.body).toBe(502);
    expect(partial.json()).toMatchObject({ code: 'mail_server_unreachable', detail: MESSAGES.invitations.notAllSent(1, 3) });
    expect(await statusesOf(admin, msp)).toMatchObject({ Adams: 'Invited', Baker: 'No account', Clark: 'Invited' });
    for (const user of [adams, clark]) expect((await mailedInvitation(user.email)).token).toMatch(/\./);
    expect(await latestMail(t, baker.email, MESSAGES.invitations.mailSubject)).toBeUndefined();
    const refused = await t.deps.database.db.select().from(auditEvents).where(and(eq(auditEvents.mspId, msp.id), eq(auditEvents.action, 'technician.invite'), eq(auditEvents.outcome, 'failure')));
    expect(refused.map((event) => event.target)).toEqual([baker.id]);

    const retried = await admin.post(`/db/${msp.customDomain}/technicianUsers/sendInvitations`);
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json()).toEqual({ invited: 1 });
    const { token } = await mailedInvitation(baker.email);
    const accepted = await newClient(t).post(`/db/${msp.customDomain}/technicianUsers/acceptInvitation`, { token, password: NEW_PASSWORD });
    expect(accepted.statusCode, accepted.body).toBe(200);
  });

  it('one invitation the mail server refuses is not kept, and the answer says it was not sent', async () => {
    const { msp, admin } = await setUp();
    const user = await buildUser(t, msp, { role: 'Technician', lastName: 'Irwin', password: null });
    const refused = await withRefusingMailServer([1], () => admin.post(`/db/${msp.customDomain}/technicianUsers/sendInvitation`, { id: user.id }));
    expect(refused.statusCode, refused.body).toBe(502);
    expect(refused.json()).toMatchObject({ code: 'mail_server_unreachable', detail: MESSAGES.invitations.notAllSent(1, 1) });
    expect(await statusesOf(admin, msp)).toMatchObject({ Irwin: 'No account' });
    expect((await admin.post(`/db/${msp.customDomain}/technicianUsers/sendInvitations`)).json()).toEqual({ invited: 1 });
  });

  it('a new invitation replaces the old link, and a link expires after 72 hours', async () => {
    const { msp, admin } = await setUp();
    const user = await buildUser(t, msp, { role: 'Technician', lastName: 'Evans', password: null });
    await admin.post(`/db/${msp.customDomain}/technicianUsers/sendInvitation`, { id: user.id });
    const old = await mailedInvitation(user.email);
    await admin.post(`/db/${msp.customDomain}/technicianUsers/sendInvitation`, { id: user.id });
    const fresh = await mailedInvitation(user.email);
    expect(fresh.token).not.toBe(old.token);
    const visitor = newClient(t);
    expect((await visitor.get(`/db/${msp.customDomain}/technicianUsers/invitation?token=${encodeURIComponent(old.token)}`)).statusCode).toBe(400);

    const justInTime = await visitor.get(`/db/${msp.customDomain}/technicianUsers/invitation?token=${encodeURIComponent(fresh.token)}`);
    expect(justInTime.statusCode).toBe(200);
    let late;
    try {
      clockOffsetMs = INVITATION_TTL_MS + 1000;
      late = await visitor.post(`/db/${msp.customDomain}/technicianUsers/acceptInvitation`, { token: fresh.token, password: NEW_PASSWORD });
    } finally {
      clockOffsetMs = 0;
    }
    expect(late.statusCode).toBe(400);
    expect(late.json<{ detail: string }>().detail).toBe(MESSAGES.invitations.invalid);
  });

  it('deleting a technician closes their invitation, so restoring them does not revive the old link (review s27 #3)', async () => {
    const { msp, admin } = await setUp();
    const user = await buildUser(t, msp, { role: 'Technician', lastName: 'Restored', password: null });
    await admin.post(`/db/${msp.customDomain}/technicianUsers/sendInvitation`, { id: user.id });
    const { token } = await mailedInvitation(user.email);
    const deleted = await admin.get(`/db/${msp.customDomain}/technicianUsers/delete?id=${user.id}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json<{ employee: { accountStatus: string } }>().employee.accountStatus).toBe('No account');
    const restored = await admin.post(`/db/${msp.customDomain}/technicianUsers/restore?id=${user.id}`);
    expect(restored.statusCode, restored.body).toBe(200);
    expect(await statusesOf(admin, msp)).toMatchObject({ Restored: 'No account' });
    const visitor = newClient(t);
    expect((await visitor.get(`/db/${msp.customDomain}/technicianUsers/invitation?token=${encodeURIComponent(token)}`)).statusCode).toBe(400);
    const accepted = await visitor.post(`/db/${msp.customDomain}/technicianUsers/acceptInvitation`, { token, password: NEW_PASSWORD });
    expect(accepted.statusCode).toBe(400);
    expect(accepted.json<{ detail: string }>().detail).toBe(MESSAGES.invitations.invalid);
  });

  it('two invitations sent at once leave one working link (review s27 #5)', async () => {
    const { msp, admin } = await setUp();
    const user = await buildUser(t, msp, { role: 'Technician', lastName: 'Twice', password: null });
    const other = await buildUser(t, msp, { role: 'Technician', lastName: 'Other', password: null });
    const answers = await Promise.all([
      admin.post(`/db/${msp.customDomain}/technicianUsers/sendInvitation`, { id: user.id }),
      admin.post(`/db/${msp.customDomain}/technicianUsers/sendInvitations`),
      admin.post(`/db/${msp.customDomain}/technicianUsers/sendInvitation`, { id: user.id }),
      admin.post(`/db/${msp.customDomain}/technicianUsers/sendInvitations`),
    ]);
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    for (const invitee of [user, other]) {
      const open = await t.deps.database.db
        .select({ id: verificationCodes.id })
        .from(verificationCodes)
        .where(and(eq(verificationCodes.mspId, msp.id), eq(verificationCodes.userId, invitee.id), eq(verificationCodes.purpose, 'invitation'), isNull(verificationCodes.consumedAt)));
      expect(open).toHaveLength(1);
    }
  });

  it('refuses a technician with an account, an inactive one, another MSP\'s, and a forged or foreign token', async () => {
    const { msp, admin } = await setUp();
    const withAccount = await buildUser(t, msp, { role: 'Technician', lastName: 'Fox' });
    const already = await admin.post(`/db/${msp.customDomain}/technicianUsers/sendInvitation`, { id: withAccount.id });
    expect(already.statusCode).toBe(409);
    expect(already.json<{ detail: string }>().detail).toBe(MESSAGES.invitations.alreadyHasAccount);

    const gone = await buildUser(t, msp, { role: 'Technician', lastName: 'Gray', password: null });
    expect((await admin.get(`/db/${msp.customDomain}/technicianUsers/delete?id=${gone.id}`)).statusCode).toBe(200);
    const inactive = await admin.post(`/db/${msp.customDomain}/technicianUsers/sendInvitation`, { id: gone.id });
    expect(inactive.statusCode).toBe(409);
    expect(inactive.json<{ detail: string }>().detail).toBe(MESSAGES.invitations.inactive);

    const other = await setUp();
    const foreign = await buildUser(t, other.msp, { role: 'Technician', lastName: 'Hill', password: null });
    expect((await admin.post(`/db/${msp.customDomain}/technicianUsers/sendInvitation`, { id: foreign.id })).statusCode).toBe(404);

    // A token of MSP B used on MSP A's path opens nothing.
    await other.admin.post(`/db/${other.msp.customDomain}/technicianUsers/sendInvitation`, { id: foreign.id });
    const { token } = await mailedInvitation(foreign.email);
    const visitor = newClient(t);
    expect((await visitor.post(`/db/${msp.customDomain}/technicianUsers/acceptInvitation`, { token, password: NEW_PASSWORD })).statusCode).toBe(400);
    const [id] = token.split('.');
    const forged = await visitor.post(`/db/${other.msp.customDomain}/technicianUsers/acceptInvitation`, { token: `${id ?? ''}.${'A'.repeat(43)}`, password: NEW_PASSWORD });
    expect(forged.statusCode).toBe(400);
    expect((await visitor.post(`/db/${other.msp.customDomain}/technicianUsers/acceptInvitation`, { token: 'nonsense', password: NEW_PASSWORD })).json<{ detail: string }>().detail).toBe(MESSAGES.invitations.invalid);
    // Only the salted hash of the secret is stored.
    const [row] = await t.deps.database.db.select().from(verificationCodes).where(and(eq(verificationCodes.mspId, other.msp.id), eq(verificationCodes.id, id ?? '')));
    expect(row?.codeHash).not.toContain(token.split('.')[1] ?? '');
    expect((await visitor.post(`/db/${other.msp.customDomain}/technicianUsers/acceptInvitation`, { token, password: NEW_PASSWORD })).statusCode).toBe(200);
  });

  // Regression (decision 044): a people manager whose role lacks some of an Admin's permissions could invite (and so
  // replace the link of) an imported Admin without an account; "invite all" mailed them too.
  it('a lesser people manager invites no richer colleague: one is refused (403), "invite all" leaves them out', async () => {
    const { msp, admin } = await setUp();
    const [managerRole] = await t.deps.database.db
      .insert(roles)
      .values({ mspId: msp.id, name: 'People managers', custom: true, permissions: permissionMap(['technicianUserManagement', 'boardView', 'clientDocuments', 'mspDocuments']) })
      .returning();
    if (!managerRole) throw new Error('role not created');
    const manager = await signedInClient(t, await buildUser(t, msp, { roleId: managerRole.id }), nextIp());
    const richer = await buildUser(t, msp, { lastName: 'Adminson', password: null });
    const lesser = await buildUser(t, msp, { role: 'Technician', lastName: 'Techson', password: null });
    const openCodesOf = async (userId: string) =>
      (await t.deps.database.db.select({ id: verificationCodes.id }).from(verificationCodes).where(and(eq(verificationCodes.mspId, msp.id), eq(verificationCodes.userId, userId), isNull(verificationCodes.consumedAt)))).length;

    const refused = await manager.post(`/db/${msp.customDomain}/technicianUsers/sendInvitation`, { id: richer.id });
    expect(refused.json()).toMatchObject({ status: 403, code: 'forbidden', detail: MESSAGES.roleTargetTooBroad });
    expect(await openCodesOf(richer.id)).toBe(0);

    expect((await manager.post(`/db/${msp.customDomain}/technicianUsers/sendInvitations`)).json()).toEqual({ invited: 1 });
    expect(await statusesOf(admin, msp)).toMatchObject({ Adminson: 'No account', Techson: 'Invited' });
    expect(await openCodesOf(richer.id)).toBe(0);
    expect((await manager.post(`/db/${msp.customDomain}/technicianUsers/sendInvitation`, { id: lesser.id })).statusCode).toBe(200);

    // An Admin invites them.
    expect((await admin.post(`/db/${msp.customDomain}/technicianUsers/sendInvitations`)).json()).toEqual({ invited: 1 });
    expect(await openCodesOf(richer.id)).toBe(1);
  });

  it('is 401 without a session, 403 without technicianUserManagement or the CSRF header', async () => {
    const { msp } = await setUp();
    const user = await buildUser(t, msp, { role: 'Technician', lastName: 'Ivers', password: null });
    expect((await newClient(t).post(`/db/${msp.customDomain}/technicianUsers/sendInvitation`, { id: user.id })).statusCode).toBe(401);
    const technician = await signedInClient(t, await buildUser(t, msp, { role: 'Technician' }), nextIp());
    expect((await technician.post(`/db/${msp.customDomain}/technicianUsers/sendInvitations`)).statusCode).toBe(403);
    const admin = await signedInClient(t, await buildUser(t, msp), nextIp());
    const noCsrf = await admin.post(`/db/${msp.customDomain}/technicianUsers/sendInvitation`, { id: user.id }, { csrf: false });
    expect(noCsrf.statusCode).toBe(403);
  });
});
