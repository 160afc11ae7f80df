import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { MESSAGES } from '@switchboard/contracts';
import { psaCompanies, psaContacts, psaMembers, users } from '@switchboard/db';
import { buildMsp, buildUser, type TTestMsp } from '../../../test/factories';
import { createTestApp, type TTestApp } from '../../../test/test-app';
import { latestCode, newClient } from '../auth/auth-test-helpers';

const PASSWORD = 'Activ8-Me!';
let t: TTestApp;
let sequence = 0;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

async function seedMember(msp: TTestMsp, email: string) {
  sequence += 1;
  const [member] = await t.deps.database.db
    .insert(psaMembers)
    .values({ mspId: msp.id, psaType: 'CONNECTWISE', externalId: `${100 + sequence}`, firstName: 'Tina', lastName: 'Tech', email, phone: '3035550123' })
    .returning();
  if (!member) throw new Error('member not created');
  return member;
}

async function seedContact(msp: TTestMsp, email: string) {
  sequence += 1;
  const [company] = await t.deps.database.db
    .insert(psaCompanies)
    .values({ mspId: msp.id, psaType: 'CONNECTWISE', externalId: `${900 + sequence}`, name: 'Fabrikam Dental' })
    .returning();
  if (!company) throw new Error('company not created');
  const [contact] = await t.deps.database.db
    .insert(psaContacts)
    .values({ mspId: msp.id, psaType: 'CONNECTWISE', externalId: `${500 + sequence}`, externalCompanyId: company.externalId, firstName: 'Carl', lastName: 'Client', email })
    .returning();
  if (!contact) throw new Error('contact not created');
  return { company, contact };
}

const uniqueEmail = (prefix: string) => `${prefix}-${Date.now()}-${sequence++}@example.com`;

describe('technician activation (A-087, A-089)', () => {
  it('finds the PSA member case-insensitively, creates the linked Technician/Tier1 user, who can then sign in', async () => {
    const msp = await buildMsp(t);
    const email = uniqueEmail('tina');
    const member = await seedMember(msp, email);
    const lookup = await newClient(t).get(`/db/${msp.customDomain}/technicianUsers/signup?email=${encodeURIComponent(email.toUpperCase())}`);
    expect(lookup.statusCode).toBe(200);
    expect(lookup.json()).toEqual({ records: [{ psaMembersAutopilotDbId: member.id, psaMembersId: member.externalId, firstName: 'Tina', lastName: 'Tech', email }] });

    const created = await newClient(t).post(`/db/${msp.customDomain}/technicianUsers/createAccount`, { email, password: PASSWORD, psaMembersAutopilotDbId: member.id });
    expect(created.statusCode).toBe(201);
    const { id } = created.json<{ id: string }>();
    const [row] = await t.deps.database.db.select().from(users).where(and(eq(users.mspId, msp.id), eq(users.id, id)));
    expect(row).toMatchObject({ kind: 'technician', roleId: msp.roleIds.Technician, tierLevel: 'Tier1', psaMemberId: member.externalId, psaMemberRowId: member.id, firstName: 'Tina' });

    const client = newClient(t);
    const signIn = await client.post(`/db/${msp.customDomain}/technicianUsers/signin`, { emailId: email, password: PASSWORD });
    const code = await latestCode(t, email);
    const verified = await client.post(`/db/${msp.customDomain}/technicianUsers/verifyCode`, { challengeId: signIn.json<{ challengeId: string }>().challengeId, code });
    expect(verified.json()).toMatchObject({ redirectTo: `/${msp.customDomain}/dashboard/${id}/tickets`, user: { roleName: 'Technician', psaMemberId: member.externalId } });
  });

  it('sets techEmailCheck when no PSA member has the email, and asks for a valid email', async () => {
    const msp = await buildMsp(t);
    const none = await newClient(t).get(`/db/${msp.customDomain}/technicianUsers/signup?email=nobody@example.com`);
    expect(none.statusCode).toBe(404);
    expect(none.json()).toMatchObject({ flags: { techEmailCheck: true } });
    const bad = await newClient(t).get(`/db/${msp.customDomain}/technicianUsers/signup?email=nope`);
    expect(bad.json()).toMatchObject({ status: 400, detail: 'A valid email is required.' });
  });

  it('answers Account exists. with techSignup for an existing user', async () => {
    const msp = await buildMsp(t);
    const email = uniqueEmail('dup');
    const member = await seedMember(msp, email);
    await buildUser(t, msp, { email });
    const response = await newClient(t).post(`/db/${msp.customDomain}/technicianUsers/createAccount`, { email, password: PASSWORD, psaMembersAutopilotDbId: member.id });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ detail: 'Account exists.', flags: { techSignup: true } });
  });

  it('tells a technician imported from the PSA (no password, never invited) to ask for an invitation, and sets no password (review s27 #1)', async () => {
    const msp = await buildMsp(t);
    const email = uniqueEmail('imported');
    const member = await seedMember(msp, email);
    // Imported people may hold any role (Admin included): activation must not let whoever knows the address set its password.
    const imported = await buildUser(t, msp, { email, password: null, role: 'Admin' });
    const lookup = await newClient(t).get(`/db/${msp.customDomain}/technicianUsers/signup?email=${encodeURIComponent(email.toUpperCase())}`);
    expect(lookup.statusCode, lookup.body).toBe(409);
    expect(lookup.json()).toMatchObject({ detail: MESSAGES.auth.askForInvitation, flags: { techEmailCheck: true } });
    const created = await newClient(t).post(`/db/${msp.customDomain}/technicianUsers/createAccount`, { email, password: PASSWORD, psaMembersAutopilotDbId: member.id });
    expect(created.statusCode, created.body).toBe(409);
    expect(created.json()).toMatchObject({ detail: MESSAGES.auth.askForInvitation, flags: { techSignup: true } });
    const [row] = await t.deps.database.db.select({ passwordHash: users.passwordHash }).from(users).where(and(eq(users.mspId, msp.id), eq(users.id, imported.id)));
    expect(row?.passwordHash).toBeNull();
  });

  it('lists the unmet password rules, and refuses a member row of another email or MSP', async () => {
    const msp = await buildMsp(t);
    const other = await buildMsp(t);
    const email = uniqueEmail('weak');
    const member = await seedMember(msp, email);
    const weak = await newClient(t).post(`/db/${msp.customDomain}/technicianUsers/createAccount`, { email, password: 'weakpass', psaMembersAutopilotDbId: member.id });
    expect(weak.json()).toMatchObject({ status: 400, flags: { techSignup: true, validPassword: ['Password needs at least one special character.', 'Password needs at least one uppercase character.'] } });
    const wrongEmail = await newClient(t).post(`/db/${msp.customDomain}/technicianUsers/createAccount`, { email: uniqueEmail('intruder'), password: PASSWORD, psaMembersAutopilotDbId: member.id });
    expect(wrongEmail.json()).toMatchObject({ status: 404, flags: { techSignup: true } });
    const otherTenant = await newClient(t).post(`/db/${other.customDomain}/technicianUsers/createAccount`, { email, password: PASSWORD, psaMembersAutopilotDbId: member.id });
    expect(otherTenant.statusCode).toBe(404);
    expect((await newClient(t).get(`/db/${other.customDomain}/technicianUsers/signup?email=${encodeURIComponent(email)}`)).statusCode).toBe(404);
  });

  it('needs the CSRF header to create an account', async () => {
    const msp = await buildMsp(t);
    const response = await newClient(t).post(`/db/${msp.customDomain}/technicianUsers/createAccount`, { email: 'a@example.com', password: PASSWORD, psaMembersAutopilotDbId: 'x' }, { csrf: false });
    expect(response.json()).toMatchObject({ status: 403, code: 'csrf' });
  });
});

// Issue #6 §2b: activation assigns the MSP's default role; the request cannot pick one.
describe('activation cannot be used to pick a role', () => {
  it('ignores a roleId (or any role field) in the body: technicians get Technician, clients get Client', async () => {
    const msp = await buildMsp(t);
    const picks = { roleId: msp.roleIds.Admin, role: 'Admin', roleName: 'Admin', permissions: { roleManagement: true }, tierLevel: 'Tier3' };
    const techEmail = uniqueEmail('picker');
    const member = await seedMember(msp, techEmail);
    const tech = await newClient(t).post(`/db/${msp.customDomain}/technicianUsers/createAccount`, { email: techEmail, password: PASSWORD, psaMembersAutopilotDbId: member.id, ...picks });
    expect(tech.statusCode).toBe(201);
    const clientEmail = uniqueEmail('client-picker');
    const { company, contact } = await seedContact(msp, clientEmail);
    const client = await newClient(t).post(`/db/${msp.customDomain}/clientUsers/createAccount?psaCompanyId=${company.externalId}&roleId=${msp.roleIds.Admin}`, { email: clientEmail, password: PASSWORD, psaContactAutopilotDbId: contact.id, ...picks });
    expect(client.statusCode).toBe(201);
    const created = await t.deps.database.db.select({ email: users.email, roleId: users.roleId, tierLevel: users.tierLevel }).from(users).where(eq(users.mspId, msp.id));
    expect(created).toEqual(
      expect.arrayContaining([
        { email: techEmail, roleId: msp.roleIds.Technician, tierLevel: 'Tier1' },
        { email: clientEmail, roleId: msp.roleIds.Client, tierLevel: null },
      ]),
    );
    expect(created.some((user) => user.roleId === msp.roleIds.Admin)).toBe(false);
  });
});

describe('client activation (A-088, A-090)', () => {
  it('finds the contact with its company and creates the linked Client user', async () => {
    const msp = await buildMsp(t);
    const email = uniqueEmail('carl');
    const { company, contact } = await seedContact(msp, email);
    const lookup = await newClient(t).get(`/db/${msp.customDomain}/clientUsers/signup?email=${encodeURIComponent(email)}`);
    expect(lookup.json()).toEqual({
      records: [{ psaContactAutopilotDbId: contact.id, psaContactId: contact.externalId, psaCompanyId: company.externalId, psaCompanyName: 'Fabrikam Dental', firstName: 'Carl', lastName: 'Client', email }],
    });
    const created = await newClient(t).post(`/db/${msp.customDomain}/clientUsers/createAccount?psaCompanyId=${company.externalId}`, { email, password: PASSWORD, psaContactAutopilotDbId: contact.id });
    expect(created.statusCode).toBe(201);
    const [row] = await t.deps.database.db.select().from(users).where(and(eq(users.mspId, msp.id), eq(users.id, created.json<{ id: string }>().id)));
    expect(row).toMatchObject({ kind: 'client', roleId: msp.roleIds.Client, tierLevel: null, psaContactId: contact.externalId, psaContactRowId: contact.id, psaCompanyId: company.externalId, companyRowId: company.id });
  });

  it('sets clientEmailCheck when no contact has the email, and clientSignup when the company does not match', async () => {
    const msp = await buildMsp(t);
    const none = await newClient(t).get(`/db/${msp.customDomain}/clientUsers/signup?email=nobody@example.com`);
    expect(none.json()).toMatchObject({ status: 404, flags: { clientEmailCheck: true } });
    const email = uniqueEmail('mismatch');
    const { contact } = await seedContact(msp, email);
    const wrongCompany = await newClient(t).post(`/db/${msp.customDomain}/clientUsers/createAccount?psaCompanyId=999999`, { email, password: PASSWORD, psaContactAutopilotDbId: contact.id });
    expect(wrongCompany.json()).toMatchObject({ status: 404, flags: { clientSignup: true } });
    const badEmail = await newClient(t).post(`/db/${msp.customDomain}/clientUsers/createAccount?psaCompanyId=1`, { email: 'nope', password: PASSWORD, psaContactAutopilotDbId: contact.id });
    expect(badEmail.json()).toMatchObject({ status: 400, detail: 'A valid email is required.', flags: { clientSignup: true } });
  });
});

// Brief s29: activation asks for no proof of owning the mailbox, so the mailbox is told, and can take the account back.
describe('activation mail', () => {
  const mailsTo = async (email: string) => (await newClient(t).get(`/dev/outbox?to=${encodeURIComponent(email)}`)).json<{ items: Array<{ subject: string; text: string }> }>().items;

  it('mails the activated technician and client their MSP and its sign-in link; an activation refused as existing mails nothing', async () => {
    const msp = await buildMsp(t);
    const host = { headers: { host: 'desk.example.com' } };
    const techEmail = uniqueEmail('told-tech');
    const member = await seedMember(msp, techEmail);
    expect((await newClient(t).post(`/db/${msp.customDomain}/technicianUsers/createAccount`, { email: techEmail, password: PASSWORD, psaMembersAutopilotDbId: member.id }, host)).statusCode).toBe(201);
    const clientEmail = uniqueEmail('told-client');
    const { company, contact } = await seedContact(msp, clientEmail);
    expect((await newClient(t).post(`/db/${msp.customDomain}/clientUsers/createAccount?psaCompanyId=${company.externalId}`, { email: clientEmail, password: PASSWORD, psaContactAutopilotDbId: contact.id }, host)).statusCode).toBe(201);

    for (const [email, side] of [[techEmail, 'tech'], [clientEmail, 'client']] as const) {
      const mails = await mailsTo(email);
      expect(mails.map((mail) => mail.subject)).toEqual([`Your Switchboard account at ${msp.name} is ready`]);
      expect(mails[0]?.text.split('\n')).toContain(`http://desk.example.com/${msp.customDomain}?as=${side}`);
      expect(mails[0]?.text).toContain(`tell ${msp.name}`);
    }

    const again = await newClient(t).post(`/db/${msp.customDomain}/technicianUsers/createAccount`, { email: techEmail, password: PASSWORD, psaMembersAutopilotDbId: member.id }, host);
    expect(again.statusCode).toBe(409);
    expect(await mailsTo(techEmail)).toHaveLength(1);
  });
});
