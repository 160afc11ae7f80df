import { afterEach, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { psaCompanies, psaContacts, psaMembers, users } from '@switchboard/db';
import type { PsaClient, TPsaCompany } from '@switchboard/psa';
import type { TPsaSimulator } from '@switchboard/psa-sim';
import type { TTestApp } from '../../../test/test-app';
import { buildConnectedMsp, simulatorPsaClient, withSimulatorApp } from '../../../test/psa-simulator';
import type { TTestMsp } from '../../../test/factories';
import { newClient } from '../auth/auth-test-helpers';

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

  it('answers 404 (accountDoesNotExist) for an address the PSA does not know, even when an outdated copy still has it', async () => {
    const msp = await mspConnectedTo('connectwise');
    const email = uniqueEmail('gone');
    await t.deps.database.db
      .insert(psaMembers)
      .values({ mspId: msp.id, psaType: 'CONNECTWISE', externalId: '999999', firstName: 'Left', lastName: 'Company', email });
    const lookup = await newClient(t).get(`/db/${msp.customDomain}/technicianUsers/signup?email=${encodeURIComponent(email)}`);
    expect(lookup.statusCode).toBe(404);
    expect(lookup.json()).toMatchObject({ flags: { techEmailCheck: true } });
  });

  it('falls back to the synchronized copies while the PSA is failing', async () => {
    const msp = await mspConnectedTo('connectwise');
    const email = uniqueEmail('cached');
    const [company] = await t.deps.database.db.insert(psaCompanies).values({ mspId: msp.id, psaType: 'CONNECTWISE', externalId: '424242', name: 'Cached Dental' }).returning();
    const [contact] = await t.deps.database.db
      .insert(psaContacts)
      .values({ mspId: msp.id, psaType: 'CONNECTWISE', externalId: '434343', externalCompanyId: '424242', companyRowId: company?.id, firstName: 'Cora', lastName: 'Cached', email })
      .returning();
    const requestsBefore = sim.stats().requests;
    sim.faults.failNext({ kind: 500, count: 50 });

    const lookup = await newClient(t).get(`/db/${msp.customDomain}/clientUsers/signup?email=${encodeURIComponent(email)}`);
    expect(sim.stats().requests).toBeGreaterThan(requestsBefore);
    expect(lookup.statusCode).toBe(200);
    expect(lookup.json()).toEqual({
      records: [{ psaContactAutopilotDbId: contact?.id, psaContactId: '434343', psaCompanyId: '424242', psaCompanyName: 'Cached Dental', firstName: 'Cora', lastName: 'Cached', email }],
    });
    const created = await newClient(t).post(`/db/${msp.customDomain}/clientUsers/createAccount?psaCompanyId=424242`, { email, password: PASSWORD, psaContactAutopilotDbId: contact?.id });
    expect(created.statusCode).toBe(201);
  });

  it('falls back to the synchronized copies when the PSA refuses the saved keys', async () => {
    const msp = await mspConnectedTo('connectwise', 'revoked-private-key');
    const email = uniqueEmail('revoked');
    const [member] = await t.deps.database.db
      .insert(psaMembers)
      .values({ mspId: msp.id, psaType: 'CONNECTWISE', externalId: '515151', firstName: 'Rita', lastName: 'Revoked', email })
      .returning();
    const requestsBefore = sim.stats().requests;
    const lookup = await newClient(t).get(`/db/${msp.customDomain}/technicianUsers/signup?email=${encodeURIComponent(email)}`);
    expect(sim.stats().requests).toBeGreaterThan(requestsBefore);
    expect(lookup.statusCode).toBe(200);
    expect(lookup.json()).toEqual({ records: [{ psaMembersAutopilotDbId: member?.id, psaMembersId: '515151', firstName: 'Rita', lastName: 'Revoked', email }] });
  });
});
