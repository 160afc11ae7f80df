import { afterEach, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { psaCompanies, psaContacts, psaMembers, users } from '@switchboard/db';
import type { PsaClient, TPsaCompany } from '@switchboard/psa';
import type { TPsaSimulator } from '@switchboard/psa-sim';
import type { TTestApp } from '../../../test/test-app';
import { buildConnectedMsp, simulatorPsaClient, withSimulatorApp } from '../../../test/psa-simulator';
import type { TTestMsp } from '../../../test/factories';
import { MESSAGES } from '@switchboard/contracts';
import { newClient } from '../auth/auth-test-helpers';
import { ANONYMOUS_LIVE_LOOKUPS_PER_MINUTE } from './activation-psa-lookup';

const PASSWORD = 'Activ8-Me!';
let t: TTestApp;
let sim: TPsaSimulator;
let sequence = 0;
const uniqueEmail = (prefix: string) => `${prefix}-${Date.now()}-${(sequence += 1)}@example.com`;

withSimulatorApp({ app: (simulator) => ({ config: { connectWiseClientId: simulator.connectWise.clientId } }) }, (ready) => ({ t, sim } = ready));
afterEach(() => sim.faults.reset());

/** An MSP whose saved integration points at the simulator, stored through the API as an admin would. */
async function mspConnectedTo(psaType: 'connectwise' | 'autotask', privateKey = sim.connectWise.privateKey): Promise<TTestMsp> {
  return (await buildConnectedMsp(t, sim, psaType, { privateKey })).msp;
}

/** A client straight onto the simulator, standing in for someone editing the PSA outside Switchboard. */
function directClient(psaType: 'connectwise' | 'autotask'): PsaClient {
  return simulatorPsaClient(sim, psaType, `direct-${psaType}`);
}

async function firstCompany(client: PsaClient): Promise<TPsaCompany> {
  for await (const company of client.streamCompanies()) return company;
  throw new Error('the demo seed has no company');
}

describe('activation asks the live PSA (issue #3 §3)', () => {
  it.each(['connectwise', 'autotask'] as const)('finds a %s contact that exists only in the PSA, activates it and keeps a synchronized copy', async (psaType) => {
    const msp = await mspConnectedTo(psaType);
    const psa = directClient(psaType);
    const company = await firstCompany(psa);
    const email = uniqueEmail(`paula-${psaType}`);
    const contact = await psa.createContact({ idempotencyKey: email, companyId: company.id, firstName: 'Paula', lastName: 'Only', email, phone: '3035550177' });
    const db = t.deps.database.db;
    expect(await db.select().from(psaContacts).where(eq(psaContacts.mspId, msp.id))).toEqual([]);

    const lookup = await newClient(t).get(`/db/${msp.customDomain}/clientUsers/signup?email=${encodeURIComponent(email.toUpperCase())}`);
    expect(lookup.statusCode).toBe(200);
    const [record] = lookup.json<{ records: Array<Record<string, string>> }>().records;
    expect(record).toMatchObject({ psaContactId: String(contact.id), psaCompanyId: String(company.id), psaCompanyName: company.name, firstName: 'Paula', lastName: 'Only', email });
    const rowId = record?.psaContactAutopilotDbId ?? '';

    const created = await newClient(t).post(`/db/${msp.customDomain}/clientUsers/createAccount?psaCompanyId=${company.id}`, { email, password: PASSWORD, psaContactAutopilotDbId: rowId });
    expect(created.statusCode).toBe(201);

    const [copy] = await db.select().from(psaContacts).where(and(eq(psaContacts.mspId, msp.id), eq(psaContacts.externalId, String(contact.id))));
    expect(copy).toMatchObject({ id: rowId, psaType: psaType.toUpperCase(), externalCompanyId: String(company.id), firstName: 'Paula', email, phone: '3035550177', isActive: true });
    const [companyCopy] = await db.select().from(psaCompanies).where(and(eq(psaCompanies.mspId, msp.id), eq(psaCompanies.externalId, String(company.id))));
    expect(companyCopy).toMatchObject({ id: copy?.companyRowId, name: company.name });
    const [user] = await db.select().from(users).where(and(eq(users.mspId, msp.id), eq(users.id, created.json<{ id: string }>().id)));
    expect(user).toMatchObject({ kind: 'client', psaContactRowId: rowId, psaContactId: String(contact.id), psaCompanyId: String(company.id), companyRowId: companyCopy?.id, phone: '3035550177' });
  });

  it.each(['connectwise', 'autotask'] as const)('finds a %s member through the PSA, refreshes its stale copy in place and links the technician to it', async (psaType) => {
    const msp = await mspConnectedTo(psaType);
    const member = (await directClient(psaType).findMembersByEmail((await directClient(psaType).listMembers())[0]?.email ?? '')).at(0);
    if (!member?.email) throw new Error('the demo seed has no member with an e-mail');
    const db = t.deps.database.db;
    const [stale] = await db
      .insert(psaMembers)
      .values({ mspId: msp.id, psaType: psaType === 'connectwise' ? 'CONNECTWISE' : 'AUTOTASK', externalId: String(member.id), firstName: 'Old', lastName: 'Name', email: 'old-address@example.com', phone: null })
      .returning();

    const lookup = await newClient(t).get(`/db/${msp.customDomain}/technicianUsers/signup?email=${encodeURIComponent(member.email)}`);
    expect(lookup.statusCode).toBe(200);
    expect(lookup.json()).toEqual({
      records: [{ psaMembersAutopilotDbId: stale?.id, psaMembersId: String(member.id), firstName: member.firstName, lastName: member.lastName, email: member.email }],
    });

    const created = await newClient(t).post(`/db/${msp.customDomain}/technicianUsers/createAccount`, { email: member.email, password: PASSWORD, psaMembersAutopilotDbId: stale?.id });
    expect(created.statusCode).toBe(201);
    const copies = await db.select().from(psaMembers).where(eq(psaMembers.mspId, msp.id));
    expect(copies).toHaveLength(1);
    expect(copies[0]).toMatchObject({ id: stale?.id, firstName: member.firstName, lastName: member.lastName, email: member.email, phone: member.phone });
    const [user] = await db.select().from(users).where(and(eq(users.mspId, msp.id), eq(users.id, created.json<{ id: string }>().id)));
    expect(user).toMatchObject({ kind: 'technician', psaMemberRowId: stale?.id, psaMemberId: String(member.id), tierLevel: 'Tier1' });
  });

  it('activates no account for an address the PSA no longer knows, even when an outdated copy still has it', async () => {
    const msp = await mspConnectedTo('connectwise');
    const email = uniqueEmail('gone');
    const [member] = await t.deps.database.db
      .insert(psaMembers)
      .values({ mspId: msp.id, psaType: 'CONNECTWISE', externalId: '999999', firstName: 'Left', lastName: 'Company', email })
      .returning();
    // The look-up answers from the copy (it spends none of the MSP's PSA budget); creating the account asks the PSA.
    const lookup = await newClient(t).get(`/db/${msp.customDomain}/technicianUsers/signup?email=${encodeURIComponent(email)}`);
    expect(lookup.statusCode).toBe(200);
    const created = await newClient(t).post(`/db/${msp.customDomain}/technicianUsers/createAccount`, { email, password: PASSWORD, psaMembersAutopilotDbId: member?.id });
    expect(created.statusCode, created.body).toBe(404);
    expect(created.json()).toMatchObject({ flags: { techSignup: true } });
    expect(await t.deps.database.db.select().from(users).where(and(eq(users.mspId, msp.id), eq(users.email, email)))).toEqual([]);
  });

  it('falls back to the synchronized copies while the PSA is failing', async () => {
    const msp = await mspConnectedTo('connectwise');
    const email = uniqueEmail('cached');
    const [company] = await t.deps.database.db.insert(psaCompanies).values({ mspId: msp.id, psaType: 'CONNECTWISE', externalId: '424242', name: 'Cached Dental' }).returning();
    const [contact] = await t.deps.database.db
      .insert(psaContacts)
      .values({ mspId: msp.id, psaType: 'CONNECTWISE', externalId: '434343', externalCompanyId: '424242', companyRowId: company?.id, firstName: 'Cora', lastName: 'Cached', email })
      .returning();
    sim.faults.failNext({ kind: 500, count: 50 });

    const lookup = await newClient(t).get(`/db/${msp.customDomain}/clientUsers/signup?email=${encodeURIComponent(email)}`);
    expect(lookup.statusCode).toBe(200);
    expect(lookup.json()).toEqual({
      records: [{ psaContactAutopilotDbId: contact?.id, psaContactId: '434343', psaCompanyId: '424242', psaCompanyName: 'Cached Dental', firstName: 'Cora', lastName: 'Cached', email }],
    });
    const requestsBefore = sim.stats().requests;
    const created = await newClient(t).post(`/db/${msp.customDomain}/clientUsers/createAccount?psaCompanyId=424242`, { email, password: PASSWORD, psaContactAutopilotDbId: contact?.id });
    expect(sim.stats().requests).toBeGreaterThan(requestsBefore);
    expect(created.statusCode).toBe(201);
  });

  it('falls back to the synchronized copies when the PSA refuses the saved keys', async () => {
    const msp = await mspConnectedTo('connectwise', 'revoked-private-key');
    const email = uniqueEmail('revoked');
    const [member] = await t.deps.database.db
      .insert(psaMembers)
      .values({ mspId: msp.id, psaType: 'CONNECTWISE', externalId: '515151', firstName: 'Rita', lastName: 'Revoked', email })
      .returning();
    const lookup = await newClient(t).get(`/db/${msp.customDomain}/technicianUsers/signup?email=${encodeURIComponent(email)}`);
    expect(lookup.statusCode).toBe(200);
    expect(lookup.json()).toEqual({ records: [{ psaMembersAutopilotDbId: member?.id, psaMembersId: '515151', firstName: 'Rita', lastName: 'Revoked', email }] });
    const requestsBefore = sim.stats().requests;
    const created = await newClient(t).post(`/db/${msp.customDomain}/technicianUsers/createAccount`, { email, password: PASSWORD, psaMembersAutopilotDbId: member?.id });
    expect(sim.stats().requests).toBeGreaterThan(requestsBefore);
    expect(created.statusCode, created.body).toBe(201);
  });
});

describe('anonymous activation look-ups spare the MSP\'s PSA request budget (review: a few addresses could drain it)', () => {
  const lookUp = (msp: TTestMsp, collection: 'technicianUsers' | 'clientUsers', email: string) => newClient(t).get(`/db/${msp.customDomain}/${collection}/signup?email=${encodeURIComponent(email)}`);

  it('answers a synchronized member or contact from the copies without asking the PSA', async () => {
    const msp = await mspConnectedTo('autotask');
    const memberEmail = uniqueEmail('synced-tech');
    const contactEmail = uniqueEmail('synced-client');
    const db = t.deps.database.db;
    await db.insert(psaMembers).values({ mspId: msp.id, psaType: 'AUTOTASK', externalId: '616161', firstName: 'Sam', lastName: 'Synced', email: memberEmail });
    await db.insert(psaCompanies).values({ mspId: msp.id, psaType: 'AUTOTASK', externalId: '626262', name: 'Synced Dental' });
    await db.insert(psaContacts).values({ mspId: msp.id, psaType: 'AUTOTASK', externalId: '636363', externalCompanyId: '626262', firstName: 'Sue', lastName: 'Synced', email: contactEmail });

    const requestsBefore = sim.stats().requests;
    const member = await lookUp(msp, 'technicianUsers', memberEmail.toUpperCase());
    const contact = await lookUp(msp, 'clientUsers', contactEmail);
    expect(member.statusCode, member.body).toBe(200);
    expect(member.json()).toMatchObject({ records: [{ psaMembersId: '616161', lastName: 'Synced' }] });
    expect(contact.statusCode, contact.body).toBe(200);
    expect(contact.json()).toMatchObject({ records: [{ psaContactId: '636363', psaCompanyName: 'Synced Dental' }] });
    expect(sim.stats().requests).toBe(requestsBefore);
  });

  it.each(['connectwise', 'autotask'] as const)('asks the %s PSA once for an address looked up again and again', async (psaType) => {
    const msp = await mspConnectedTo(psaType);
    const email = uniqueEmail(`unknown-${psaType}`);
    const before = sim.stats().requests;
    expect((await lookUp(msp, 'clientUsers', email)).statusCode).toBe(404);
    const oneLookUp = sim.stats().requests - before;
    expect(oneLookUp).toBeGreaterThan(0);
    for (let attempt = 0; attempt < 8; attempt += 1) {
      const again = await lookUp(msp, attempt % 2 === 0 ? 'clientUsers' : 'technicianUsers', attempt % 2 === 0 ? email.toUpperCase() : email);
      expect(again.statusCode).toBe(404);
      expect(again.json()).toMatchObject({ detail: MESSAGES.accountDoesNotExist });
    }
    // The technician look-up is another question (members, not contacts): asked once too.
    const technicianLookUps = sim.stats().requests - before - oneLookUp;
    expect(technicianLookUps).toBeLessThanOrEqual(oneLookUp);
    expect(technicianLookUps).toBeGreaterThan(0);
  });

  it('asks the PSA for at most ANONYMOUS_LIVE_LOOKUPS_PER_MINUTE new addresses of one MSP a minute; past that the caller is asked to wait', async () => {
    const msp = await mspConnectedTo('connectwise');
    const other = await mspConnectedTo('connectwise');
    for (let index = 0; index < ANONYMOUS_LIVE_LOOKUPS_PER_MINUTE; index += 1) expect((await lookUp(msp, 'technicianUsers', uniqueEmail('spray'))).statusCode).toBe(404);

    const before = sim.stats().requests;
    const overBudget = await lookUp(msp, 'technicianUsers', uniqueEmail('spray'));
    expect(overBudget.statusCode).toBe(429);
    expect(overBudget.json()).toMatchObject({ code: 'rate_limited', detail: MESSAGES.tooManyRequests });
    expect(Number(overBudget.headers['retry-after'])).toBeGreaterThan(0);
    const overBudgetActivation = await newClient(t).post(`/db/${msp.customDomain}/technicianUsers/createAccount`, { email: uniqueEmail('spray'), password: PASSWORD, psaMembersAutopilotDbId: '00000000-0000-4000-8000-000000000000' });
    expect(overBudgetActivation.statusCode).toBe(429);
    // A synchronized member still finds themselves: the copies answer without the PSA.
    const email = uniqueEmail('synced');
    await t.deps.database.db.insert(psaMembers).values({ mspId: msp.id, psaType: 'CONNECTWISE', externalId: '717171', firstName: 'Stan', lastName: 'Synced', email });
    expect((await lookUp(msp, 'technicianUsers', email)).statusCode).toBe(200);
    expect(sim.stats().requests).toBe(before);

    // Another MSP's budget is its own, and the next minute opens a new one.
    expect((await lookUp(other, 'technicianUsers', uniqueEmail('neighbour'))).statusCode).toBe(404);
    expect(sim.stats().requests).toBeGreaterThan(before);
    t.advanceClock(61_000);
    const afterNeighbour = sim.stats().requests;
    expect((await lookUp(msp, 'technicianUsers', uniqueEmail('next-minute'))).statusCode).toBe(404);
    expect(sim.stats().requests).toBeGreaterThan(afterNeighbour);
  });
});
