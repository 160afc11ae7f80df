import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { ADMIN_PAGE_SIZE, CLIENT_CATALOGUE, CONTACT_LIST_CAP, CONTACT_PAGE_CAP_MESSAGE, permissionMap, type TCompanyPage, type TContactPage, type TCompanyTicketPage } from '@switchboard/contracts';
import { auditEvents, psaContacts, psaOutbox, psaTickets } from '@switchboard/db';
import type { PsaClient, TPsaCompany } from '@switchboard/psa';
import type { TPsaSimulator } from '@switchboard/psa-sim';
import { TestClient, type TTestApp } from '../../../test/test-app';
import { buildConnectedMsp, simulatorPsaClient, withSimulatorApp } from '../../../test/psa-simulator';
import { buildMsp, buildUser, signedInClient, type TTestMsp } from '../../../test/factories';
import { insertCustomRole } from '../roles/roles.repository';
import { upsertPsaDirectory } from '../psa-directory/psa-directory.repository';
import { PSA_WRITE_LEASE_MS, runPsaOutboxPass } from '../psa-outbox/psa-outbox';

let t: TTestApp;
let sim: TPsaSimulator;
let direct: PsaClient;
let simCompanies: TPsaCompany[];

withSimulatorApp({}, async (ready) => {
  ({ t, sim } = ready);
  direct = simulatorPsaClient(sim, 'connectwise', 'companies-direct');
  simCompanies = [];
  for await (const company of direct.streamCompanies()) simCompanies.push(company);
});

const connectedMsp = () => buildConnectedMsp(t, sim, 'connectwise');

/** Synchronized copies inserted directly (the sync engineer's job fills them in production). */
async function seedCopies(msp: TTestMsp, companies: Array<{ externalId: string; name: string; types?: string[]; contacts?: Array<{ externalId: string; firstName: string; lastName: string; isActive?: boolean }> }>) {
  await upsertPsaDirectory(
    t.deps.database.db,
    msp.id,
    'CONNECTWISE',
    {
      companies: companies.map((company) => ({ externalId: company.externalId, name: company.name, identifier: company.name.replace(/\W/g, ''), companyTypes: company.types ?? ['Client'] })),
      contacts: companies.flatMap((company) =>
        (company.contacts ?? []).map((contact) => ({ ...contact, externalCompanyId: company.externalId, email: `${contact.firstName.toLowerCase()}@example.com`, phone: null, isActive: contact.isActive ?? true })),
      ),
    },
    t.deps.now(),
  );
}

const rndKey = () => `key-${Math.random().toString(36).slice(2)}-${Date.now()}`;

describe('A-008 companies list', () => {
  let msp: TTestMsp;
  let admin: TestClient;

  beforeAll(async () => {
    ({ msp, admin } = await connectedMsp());
    await seedCopies(msp, [
      ...Array.from({ length: 35 }, (_, index) => ({ externalId: String(1000 + index), name: `Acme ${String(index).padStart(2, '0')}`, types: index % 5 === 0 ? ['Prospect'] : ['Client'] })),
      { externalId: '2001', name: 'Big_Corp 100%', types: ['Client', 'Partner'] },
    ]);
  });

  it('pages by name with the total and the client types for the filter', async () => {
    const first = await admin.get(`/db/${msp.customDomain}/psaClients`);
    expect(first.statusCode, first.body).toBe(200);
    const page = first.json<TCompanyPage>();
    expect(page.total).toBe(36);
    expect(page.items).toHaveLength(ADMIN_PAGE_SIZE);
    expect(page.items[0]?.name).toBe('Acme 00');
    expect(page.clientTypes).toEqual(['Client', 'Partner', 'Prospect']);
    const second = (await admin.get(`/db/${msp.customDomain}/psaClients?page=2`)).json<TCompanyPage>();
    expect(second.items.map((company) => company.name)).toEqual([...Array.from({ length: 5 }, (_, index) => `Acme ${30 + index}`), 'Big_Corp 100%']);
  });

  it('filters by client type ("all" is every type) and searches literally', async () => {
    expect((await admin.get(`/db/${msp.customDomain}/psaClients?clientType=Prospect`)).json<TCompanyPage>().total).toBe(7);
    expect((await admin.get(`/db/${msp.customDomain}/psaClients?clientType=all`)).json<TCompanyPage>().total).toBe(36);
    expect((await admin.get(`/db/${msp.customDomain}/psaClients?search=acme%203`)).json<TCompanyPage>().items.map((company) => company.name)).toEqual(['Acme 30', 'Acme 31', 'Acme 32', 'Acme 33', 'Acme 34']);
    // % and _ are letters here, not patterns.
    expect((await admin.get(`/db/${msp.customDomain}/psaClients?search=100%25`)).json<TCompanyPage>().items.map((company) => company.name)).toEqual(['Big_Corp 100%']);
    expect((await admin.get(`/db/${msp.customDomain}/psaClients?search=_`)).json<TCompanyPage>().total).toBe(1);
  });

  it('explains bad paging in plain words', async () => {
    const zero = await admin.get(`/db/${msp.customDomain}/psaClients?page=0`);
    expect(zero.statusCode).toBe(400);
    expect(zero.body).toContain('Page must be 1 or more.');
    const big = await admin.get(`/db/${msp.customDomain}/psaClients?pageSize=1000`);
    expect(big.statusCode).toBe(400);
    expect(big.body).toContain('Page size is at most 100.');
  });

  it('is 401 without a session, 403 without the permission, 404 for another MSP', async () => {
    expect((await new TestClient(t.app).get(`/db/${msp.customDomain}/psaClients`)).statusCode).toBe(401);
    const technician = await signedInClient(t, await buildUser(t, msp, { role: 'Technician' }));
    expect((await technician.get(`/db/${msp.customDomain}/psaClients`)).statusCode).toBe(403);
    const other = await buildMsp(t);
    expect((await admin.get(`/db/${other.customDomain}/psaClients`)).statusCode).toBe(404);
    // The other MSP's admin sees none of this MSP's companies.
    const otherAdmin = await signedInClient(t, await buildUser(t, other, { role: 'Admin' }));
    expect((await otherAdmin.get(`/db/${other.customDomain}/psaClients`)).json<TCompanyPage>().total).toBe(0);
  });

  it('shows a client user with clientUserManagement only their own company', async () => {
    const roleId = (await insertCustomRole(t.deps.database.db, msp.id, 'Client manager', permissionMap(['clientUserManagement']))).id;
    const client = await signedInClient(t, await buildUser(t, msp, { kind: 'client', roleId, psaCompanyId: '1003' }));
    const page = (await client.get(`/db/${msp.customDomain}/psaClients`)).json<TCompanyPage>();
    expect(page.items.map((company) => company.name)).toEqual(['Acme 03']);
    expect((await client.get(`/db/${msp.customDomain}/psaContactsByClientId?psaCompanyId=1004`)).statusCode).toBe(404);
  });
});

describe('A-009 company contacts, the Contacts view and the tickets views', () => {
  let msp: TTestMsp;
  let admin: TestClient;

  beforeAll(async () => {
    ({ msp, admin } = await connectedMsp());
    await seedCopies(msp, [
      {
        externalId: '501',
        name: 'Contoso',
        contacts: [
          { externalId: '9001', firstName: 'Ada', lastName: 'Lovelace' },
          { externalId: '9002', firstName: 'Alan', lastName: 'Turing' },
          { externalId: '9003', firstName: 'Former', lastName: 'Person', isActive: false },
        ],
      },
      { externalId: '502', name: 'Fabrikam', contacts: [{ externalId: '9010', firstName: 'Grace', lastName: 'Hopper' }] },
    ]);
    const now = t.deps.now();
    await t.deps.database.db.insert(psaTickets).values([
      { mspId: msp.id, psaType: 'CONNECTWISE', externalId: '7001', summary: 'Printer jam', companyExternalId: '501', companyName: 'Contoso', contactExternalId: '9001', contactName: 'Ada Lovelace', psaCreatedAt: new Date(now.getTime() - 60_000) },
      { mspId: msp.id, psaType: 'CONNECTWISE', externalId: '7002', summary: 'VPN down', companyExternalId: '501', companyName: 'Contoso', contactExternalId: '9002', contactName: 'Alan Turing', isClosed: true, psaCreatedAt: now },
      { mspId: msp.id, psaType: 'CONNECTWISE', externalId: '7003', summary: 'New laptop', companyExternalId: '502', companyName: 'Fabrikam', contactExternalId: '9010', psaCreatedAt: now },
    ]);
  });

  it('lists one company\'s Active contacts by last name, and the others with the toggle', async () => {
    const active = await admin.get(`/db/${msp.customDomain}/psaContactsByClientId?psaCompanyId=501`);
    expect(active.statusCode, active.body).toBe(200);
    const page = active.json<TContactPage>();
    expect(page.items.map((contact) => `${contact.firstName} ${contact.lastName}`)).toEqual(['Ada Lovelace', 'Alan Turing']);
    expect(page.items[0]).toMatchObject({ psaContactId: '9001', psaClientName: 'Contoso', psaCompanyId: '501', status: 'synced' });
    const other = (await admin.get(`/db/${msp.customDomain}/psaContactsByClientId?psaCompanyId=501&active=false`)).json<TContactPage>();
    expect(other.items.map((contact) => contact.firstName)).toEqual(['Former']);
    expect((await admin.get(`/db/${msp.customDomain}/psaContactsByClientId?psaCompanyId=501&search=tur`)).json<TContactPage>().items.map((contact) => contact.lastName)).toEqual(['Turing']);
    // "first last" matches the two names; one word matches either name or the e-mail.
    expect((await admin.get(`/db/${msp.customDomain}/psaContactsByClientId?psaCompanyId=501&search=ada%20love`)).json<TContactPage>().items.map((contact) => contact.lastName)).toEqual(['Lovelace']);
    expect((await admin.get(`/db/${msp.customDomain}/psaContactsByClientId?psaCompanyId=501&search=alan%40`)).json<TContactPage>().items.map((contact) => contact.lastName)).toEqual(['Turing']);
  });

  it('refuses a missing or malformed company id and an unknown company', async () => {
    const missing = await admin.get(`/db/${msp.customDomain}/psaContactsByClientId`);
    expect(missing.statusCode).toBe(400);
    const malformed = await admin.get(`/db/${msp.customDomain}/psaContactsByClientId?psaCompanyId=abc`);
    expect(malformed.statusCode).toBe(400);
    expect(malformed.body).toContain('Use the PSA id of the record (a whole number).');
    expect((await admin.get(`/db/${msp.customDomain}/psaContactsByClientId?psaCompanyId=999`)).statusCode).toBe(404);
  });

  it('the Contacts view lists every contact with its company', async () => {
    const roleId = (await insertCustomRole(t.deps.database.db, msp.id, 'Contacts keeper', permissionMap(['clientUserManagement', 'boardView']))).id;
    const keeper = await signedInClient(t, await buildUser(t, msp, { roleId }));
    const page = (await keeper.get(`/db/${msp.customDomain}/psaContacts`)).json<TContactPage>();
    expect(page.items.map((contact) => `${contact.firstName} ${contact.psaClientName ?? ''}`)).toEqual(['Grace Fabrikam', 'Ada Contoso', 'Alan Contoso']);
    expect(page.total).toBe(3);
  });

  it('the tickets views: a company\'s, a contact\'s, open only', async () => {
    const company = (await admin.get(`/db/${msp.customDomain}/psaTickets?psaCompanyId=501`)).json<TCompanyTicketPage>();
    expect(company.items.map((ticket) => ticket.summary)).toEqual(['VPN down', 'Printer jam']);
    const contact = (await admin.get(`/db/${msp.customDomain}/psaTickets?psaCompanyId=501&psaContactId=9001`)).json<TCompanyTicketPage>();
    expect(contact.items.map((ticket) => ticket.summary)).toEqual(['Printer jam']);
    const open = (await admin.get(`/db/${msp.customDomain}/psaTickets?psaCompanyId=501&open=open`)).json<TCompanyTicketPage>();
    expect(open.items.map((ticket) => ticket.summary)).toEqual(['Printer jam']);
    expect((await admin.get(`/db/${msp.customDomain}/psaTickets?psaCompanyId=999`)).statusCode).toBe(404);
  });

  it('the Contacts view answers only whom the admin menu offers it (01 §6, decisions 12: no technicianUserManagement, with clientUserManagement)', async () => {
    // Bug: the menu offered Contacts to a Technician who then met a 403, while an Admin without the option could read it.
    expect((await admin.get(`/db/${msp.customDomain}/psaContacts`)).statusCode).toBe(403);
    const technician = await signedInClient(t, await buildUser(t, msp, { role: 'Technician' }));
    expect((await technician.get(`/db/${msp.customDomain}/psaContacts`)).statusCode).toBe(403);
    const bothRoleId = (await insertCustomRole(t.deps.database.db, msp.id, 'Both managers', permissionMap(['clientUserManagement', 'technicianUserManagement']))).id;
    const both = await signedInClient(t, await buildUser(t, msp, { roleId: bothRoleId }));
    expect((await both.get(`/db/${msp.customDomain}/psaContacts`)).statusCode).toBe(403);
  });

  it('a client user sees only their company\'s contacts and tickets', async () => {
    const roleId = (await insertCustomRole(t.deps.database.db, msp.id, 'Client admin', permissionMap(['clientUserManagement']))).id;
    const client = await signedInClient(t, await buildUser(t, msp, { kind: 'client', roleId, psaCompanyId: '502' }));
    expect((await client.get(`/db/${msp.customDomain}/psaContacts`)).json<TContactPage>().items.map((contact) => contact.firstName)).toEqual(['Grace']);
    expect((await client.get(`/db/${msp.customDomain}/psaTickets`)).json<TCompanyTicketPage>().items.map((ticket) => ticket.summary)).toEqual(['New laptop']);
    expect((await client.get(`/db/${msp.customDomain}/psaTickets?psaCompanyId=501`)).statusCode).toBe(404);
  });

  it('A-003 and A-005 open a company by its client database id, within the tenant', async () => {
    const contoso = (await admin.get(`/db/${msp.customDomain}/psaClients?search=contoso`)).json<TCompanyPage>().items[0];
    if (!contoso) throw new Error('Contoso missing');
    const byId = await admin.get(`/db/${msp.customDomain}/getClientsByPSAAutopilotId?psaAutopilotId=${contoso.id}`);
    expect(byId.json()).toEqual({ items: [contoso] });
    const cards = await admin.get(`/db/${msp.customDomain}/clientIntegrations/client?clientId=${contoso.id}`);
    expect(cards.json()).toEqual({ clientId: contoso.id, companyName: 'Contoso', cards: CLIENT_CATALOGUE });
    expect((await admin.get(`/db/${msp.customDomain}/clientIntegrations/client?clientId=nope`)).body).toContain('Choose a client company.');
    const other = await buildMsp(t);
    const otherAdmin = await signedInClient(t, await buildUser(t, other, { role: 'Admin' }));
    expect((await otherAdmin.get(`/db/${other.customDomain}/clientIntegrations/client?clientId=${contoso.id}`)).statusCode).toBe(404);
    expect((await otherAdmin.get(`/db/${other.customDomain}/getClientsByPSAAutopilotId?psaAutopilotId=${contoso.id}`)).statusCode).toBe(404);
    const technician = await signedInClient(t, await buildUser(t, msp, { role: 'Technician' }));
    expect((await technician.get(`/db/${msp.customDomain}/clientIntegrations/client?clientId=${contoso.id}`)).statusCode).toBe(403);
  });

  // Bug: the Client integrations screen (clientIntegrations, 01 §6) chooses its client company from A-008, which
  // needed technicianUserManagement or clientUserManagement: a role with clientIntegrations alone got a 403 there,
  // so its company selector stayed empty and no client card could ever be opened (R-232).
  it('lets a role with clientIntegrations alone list the companies its selector offers, and open one company\'s cards', async () => {
    const roleId = (await insertCustomRole(t.deps.database.db, msp.id, `Client integrations only ${rndKey()}`, permissionMap(['clientIntegrations']))).id;
    const integrator = await signedInClient(t, await buildUser(t, msp, { roleId }));
    const companies = await integrator.get(`/db/${msp.customDomain}/psaClients?search=contoso`);
    expect(companies.statusCode, companies.body).toBe(200);
    const contoso = companies.json<TCompanyPage>().items[0];
    expect(contoso?.name).toBe('Contoso');
    const cards = await integrator.get(`/db/${msp.customDomain}/clientIntegrations/client?clientId=${contoso?.id ?? ''}`);
    expect(cards.json()).toMatchObject({ companyName: 'Contoso', cards: CLIENT_CATALOGUE });
    // The companies' contacts stay behind decision 12's permissions.
    expect((await integrator.get(`/db/${msp.customDomain}/psaContactsByClientId?psaCompanyId=${contoso?.psaCompanyId ?? ''}`)).statusCode).toBe(403);
  });
});

describe('contact lists at scale: capped count, page cap, short searches by prefix', () => {
  it('counts up to 10,000 and says so, refuses a page past the cap in a sentence, and matches one or two letters at the start', async () => {
    const { msp } = await connectedMsp();
    await seedCopies(msp, [{ externalId: '801', name: 'Bigco', contacts: [{ externalId: '1', firstName: 'Donald', lastName: 'Alvarez' }] }]);
    const rows = Array.from({ length: CONTACT_LIST_CAP + 5 }, (_, index) => ({
      mspId: msp.id,
      psaType: 'CONNECTWISE' as const,
      externalId: String(100_000 + index),
      externalCompanyId: '801',
      firstName: 'Zed',
      lastName: `Person${index}`,
      email: `person${index}@bigco.example`,
      isActive: true,
    }));
    for (let start = 0; start < rows.length; start += 2_000) await t.deps.database.db.insert(psaContacts).values(rows.slice(start, start + 2_000));
    const roleId = (await insertCustomRole(t.deps.database.db, msp.id, 'Contacts keeper', permissionMap(['clientUserManagement']))).id;
    const keeper = await signedInClient(t, await buildUser(t, msp, { roleId }));

    const first = (await keeper.get(`/db/${msp.customDomain}/psaContacts`)).json<TContactPage>();
    expect(first).toMatchObject({ total: CONTACT_LIST_CAP, isTotalCapped: true });
    const exact = (await keeper.get(`/db/${msp.customDomain}/psaContacts?search=person1000`)).json<TContactPage>();
    expect(exact).toMatchObject({ total: 6, isTotalCapped: false }); // Person1000 and Person10000…Person10004

    const lastPage = CONTACT_LIST_CAP / 100;
    expect((await keeper.get(`/db/${msp.customDomain}/psaContacts?pageSize=100&page=${lastPage}`)).statusCode).toBe(200);
    const past = await keeper.get(`/db/${msp.customDomain}/psaContacts?pageSize=100&page=${lastPage + 1}`);
    expect(past.statusCode).toBe(400);
    expect(past.body).toContain(CONTACT_PAGE_CAP_MESSAGE);
    expect((await keeper.get(`/db/${msp.customDomain}/psaContactsByClientId?psaCompanyId=801&page=${lastPage * 4}`)).statusCode).toBe(400);

    // "al" starts Alvarez, not Donald; three letters still match inside a word.
    expect((await keeper.get(`/db/${msp.customDomain}/psaContacts?search=al`)).json<TContactPage>().items.map((contact) => contact.lastName)).toEqual(['Alvarez']);
    expect((await keeper.get(`/db/${msp.customDomain}/psaContacts?search=nal`)).json<TContactPage>().items.map((contact) => contact.firstName)).toEqual(['Donald']);
  });
});

describe('A-044 / A-045 add a contact at the PSA', () => {
  let msp: TTestMsp;
  let admin: TestClient;
  let company: TPsaCompany;

  beforeAll(async () => {
    ({ msp, admin } = await connectedMsp());
    const chosen = simCompanies.find((candidate) => candidate.isActive);
    if (!chosen) throw new Error('the demo simulator has no active company');
    company = chosen;
    await seedCopies(msp, [{ externalId: String(company.id), name: company.name }]);
  });

  const contactsAtPsa = async (lastName: string) => {
    const found = [];
    for await (const contact of direct.streamContacts({ companyId: company.id })) if (contact.lastName === lastName) found.push(contact);
    return found;
  };

  it('creates the contact at the PSA and in the synchronized copy (201)', async () => {
    const response = await admin.post(`/psa/psa/${msp.customDomain}/addPSAContact`, { psaType: 'CONNECTWISE', psaCompanyId: String(company.id), firstName: 'Nina', lastName: 'Simone', email: 'nina@example.com', phone: '3035550199', emailTypeId: null, phoneTypeId: null });
    expect(response.statusCode, response.body).toBe(201);
    const { contact } = response.json<{ contact: { psaContactId: string; status: string } }>();
    expect(contact.status).toBe('synced');
    const atPsa = await contactsAtPsa('Simone');
    expect(atPsa.map((found) => String(found.id))).toEqual([contact.psaContactId]);
    expect(atPsa[0]?.email).toBe('nina@example.com');
    const listed = (await admin.get(`/db/${msp.customDomain}/psaContactsByClientId?psaCompanyId=${company.id}&search=simone`)).json<TContactPage>();
    expect(listed.items.map((found) => found.psaContactId)).toEqual([contact.psaContactId]);
    const [audit] = await t.deps.database.db.select().from(auditEvents).where(and(eq(auditEvents.mspId, msp.id), eq(auditEvents.action, 'contact.add')));
    expect(audit?.outcome).toBe('success');
  });

  it('A-045 is the same handler with companyId, and answers a lost create without a duplicate', async () => {
    sim.faults.failNext({ kind: 502, phase: 'after', method: 'POST', pathPrefix: '/v4_6_release/apis/3.0/company/contacts' });
    const response = await admin.post(`/psa/addConnectWiseContact?mspCustomDomain=${msp.customDomain}`, { companyId: company.id, firstName: 'Miles', lastName: 'Davis', email: 'miles@example.com' });
    expect(response.statusCode, response.body).toBe(201);
    expect(sim.faults.pendingCount()).toBe(0);
    expect(await contactsAtPsa('Davis')).toHaveLength(1);
  });

  // Regression (review 2026-11-29, finding 6): the add looked a contact up by company and names before its first send,
  // with no active filter, so "Chris Lee" without an e-mail answered 201 with an old, deactivated Chris Lee and created
  // nobody.
  it('adds "Chris Lee" without an e-mail although a deactivated Chris Lee is in the company: a new contact', async () => {
    const { companyId, publicKey, privateKey, clientId } = sim.connectWise;
    const raw = await fetch(`${sim.url}/v4_6_release/apis/3.0/company/contacts`, {
      method: 'POST',
      headers: { Authorization: `Basic ${Buffer.from(`${companyId}+${publicKey}:${privateKey}`).toString('base64')}`, clientId, 'Content-Type': 'application/json' },
      body: JSON.stringify({ firstName: 'Chris', lastName: 'Lee', company: { id: company.id }, inactiveFlag: true }),
    });
    const inactive = (await raw.json()) as { id: number };
    const response = await admin.post(`/psa/psa/${msp.customDomain}/addPSAContact`, { psaType: 'CONNECTWISE', psaCompanyId: String(company.id), firstName: 'Chris', lastName: 'Lee' });
    expect(response.statusCode, response.body).toBe(201);
    const { contact } = response.json<{ contact: { psaContactId: string; isActive: boolean } }>();
    expect(contact.psaContactId).not.toBe(String(inactive.id));
    const atPsa = await contactsAtPsa('Lee');
    expect(atPsa.map((found) => String(found.id)).sort()).toEqual([String(inactive.id), contact.psaContactId].sort());
    expect(atPsa.find((found) => String(found.id) === contact.psaContactId)?.isActive).toBe(true);
  });

  // Regression (review 2026-11-29, finding 7): a 408 was a refusal for good (422, the add thrown away) although the
  // request may have landed; it is retried, and the contact it made is found, not made twice.
  it('retries a create answered 408 after the PSA stored it: 201, one contact', async () => {
    sim.faults.failNext({ kind: 408, phase: 'after', method: 'POST', path: '/v4_6_release/apis/3.0/company/contacts' });
    const response = await admin.post(`/psa/psa/${msp.customDomain}/addPSAContact`, { psaType: 'CONNECTWISE', psaCompanyId: String(company.id), firstName: 'Billie', lastName: 'Holiday', email: 'billie@example.com' });
    expect(response.statusCode, response.body).toBe(201);
    expect(sim.faults.pendingCount()).toBe(0);
    const atPsa = await contactsAtPsa('Holiday');
    expect(atPsa.map((found) => String(found.id))).toEqual([response.json<{ contact: { psaContactId: string } }>().contact.psaContactId]);
  });

  it('shows the PSA\'s field message when the PSA refuses, and keeps nothing', async () => {
    const response = await admin.post(`/psa/psa/${msp.customDomain}/addPSAContact`, { psaType: 'CONNECTWISE', psaCompanyId: String(company.id), firstName: 'Long', lastName: 'x'.repeat(40) });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ code: 'psa_validation', invalidParams: [{ name: 'lastName', reason: 'lastName must be at most 30 characters.' }] });
    expect(await t.deps.database.db.select().from(psaOutbox).where(eq(psaOutbox.mspId, msp.id)).then((rows) => rows.filter((row) => row.status !== 'done'))).toEqual([]);
  });

  it('validates the form in plain words', async () => {
    const url = `/psa/psa/${msp.customDomain}/addPSAContact`;
    const base = { psaType: 'CONNECTWISE', psaCompanyId: String(company.id), firstName: 'A', lastName: 'B' };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...base, firstName: ' ' }, 'First name is required.'],
      [{ ...base, lastName: '' }, 'Last name is required.'],
      // The error handler words zod's format checks plainly (plainIssueMessage), naming the field.
      [{ ...base, email: 'not-an-email' }, 'Email must be a valid email address.'],
      [{ ...base, phone: 'call me' }, 'Phone contains characters that are not allowed.'],
      [{ ...base, psaCompanyId: 'x' }, 'Use the PSA id of the record (a whole number).'],
      [{ ...base, emailTypeId: -1 }, 'Choose a communication type.'],
    ];
    for (const [body, message] of cases) {
      const response = await admin.post(url, body);
      expect(response.statusCode, message).toBe(400);
      expect(response.body).toContain(message);
    }
    const wrongPsa = await admin.post(url, { ...base, psaType: 'AUTOTASK' });
    expect(wrongPsa.statusCode).toBe(400);
    expect(wrongPsa.body).toContain("This MSP's PSA is ConnectWise");
    expect((await admin.post(url, { ...base, psaCompanyId: '987654' })).statusCode).toBe(404);
  });

  // Review s29, finding 5: the same key sent again with a changed e-mail answered "Contact added" with the old values.
  it('refuses the same add-contact key with another e-mail or phone (409 in plain words); the same values again are the same add', async () => {
    const url = `/psa/psa/${msp.customDomain}/addPSAContact`;
    const body = { psaType: 'CONNECTWISE', psaCompanyId: String(company.id), firstName: 'Etta', lastName: 'James', email: 'etta@example.com', phone: '3035550140', idempotencyKey: rndKey() };
    expect((await admin.post(url, body)).statusCode).toBe(201);
    for (const changed of [{ email: 'etta.james@example.com' }, { phone: '3035550141' }, { email: undefined }]) {
      const response = await admin.post(url, { ...body, ...changed });
      expect(response.json(), JSON.stringify(changed)).toMatchObject({ status: 409, code: 'conflict', detail: 'This add-contact request was already used for another contact. Reload the form and try again.' });
    }
    expect((await admin.post(url, body)).statusCode).toBe(201);
    expect((await contactsAtPsa('James')).map((found) => found.email)).toEqual(['etta@example.com']);
  });

  it('is 401 without a session, 403 without the permission or CSRF header, 404 for another MSP', async () => {
    const body = { psaType: 'CONNECTWISE', psaCompanyId: String(company.id), firstName: 'No', lastName: 'Body' };
    expect((await new TestClient(t.app).post(`/psa/psa/${msp.customDomain}/addPSAContact`, body)).statusCode).toBe(401);
    expect((await admin.post(`/psa/psa/${msp.customDomain}/addPSAContact`, body, { csrf: false })).statusCode).toBe(403);
    const technician = await signedInClient(t, await buildUser(t, msp, { role: 'Technician' }));
    expect((await technician.post(`/psa/psa/${msp.customDomain}/addPSAContact`, body)).statusCode).toBe(403);
    const other = await buildMsp(t);
    expect((await admin.post(`/psa/psa/${other.customDomain}/addPSAContact`, body)).statusCode).toBe(404);
    expect((await admin.post(`/psa/addConnectWiseContact?mspCustomDomain=${other.customDomain}`, { ...body, companyId: company.id })).statusCode).toBe(404);
    expect(await contactsAtPsa('Body')).toEqual([]);
  });

  it('loses nothing while the PSA is down: 202 pending, then the retry loop creates it once', async () => {
    const idempotencyKey = rndKey();
    const body = { psaType: 'CONNECTWISE', psaCompanyId: String(company.id), firstName: 'Ella', lastName: 'Fitzgerald', email: 'ella@example.com', idempotencyKey };
    sim.faults.set({ errorRate: 1 });
    let response;
    try {
      response = await admin.post(`/psa/psa/${msp.customDomain}/addPSAContact`, body);
    } finally {
      sim.faults.set({ errorRate: 0 });
    }
    expect(response.statusCode, response.body).toBe(202);
    expect(response.json()).toMatchObject({ contact: { firstName: 'Ella', status: 'pending' } });
    const listed = (await admin.get(`/db/${msp.customDomain}/psaContactsByClientId?psaCompanyId=${company.id}`)).json<TContactPage>();
    expect(listed.pending.map((contact) => `${contact.firstName} ${contact.status}`)).toEqual(['Ella pending']);
    expect(await contactsAtPsa('Fitzgerald')).toEqual([]);
    // Review finding 6 (regression): the Contacts screen listed the pending add under Inactive too; a new contact is active.
    const keeperRole = (await insertCustomRole(t.deps.database.db, msp.id, `Contacts keeper ${rndKey()}`, permissionMap(['clientUserManagement']))).id;
    const keeper = await signedInClient(t, await buildUser(t, msp, { roleId: keeperRole }));
    const contactsScreen = (active: boolean) => keeper.get(`/db/${msp.customDomain}/psaContacts?active=${active}&psaOnly=false`).then((page) => page.json<TContactPage>());
    expect((await contactsScreen(true)).pending.map((contact) => contact.firstName)).toEqual(['Ella']);
    expect((await contactsScreen(false)).pending).toEqual([]);

    // The same form sent again is the same add, not a second one.
    expect((await admin.post(`/psa/psa/${msp.customDomain}/addPSAContact`, body)).statusCode).toBe(202);

    // The PSA outbox's retry loop (one pass here; the app's own loop is off in tests).
    expect(await runPsaOutboxPass(t.deps)).toBe(0); // not due yet: the backoff holds it
    t.advanceClock(PSA_WRITE_LEASE_MS + 60_000);
    expect(await runPsaOutboxPass(t.deps)).toBe(1);
    const [write] = await t.deps.database.db.select().from(psaOutbox).where(and(eq(psaOutbox.mspId, msp.id), eq(psaOutbox.kind, 'contact.create'), eq(psaOutbox.idempotencyKey, `contact.create:${idempotencyKey}`)));
    expect(write?.status).toBe('done');
    const atPsa = await contactsAtPsa('Fitzgerald');
    expect(atPsa).toHaveLength(1);
    const after = (await admin.get(`/db/${msp.customDomain}/psaContactsByClientId?psaCompanyId=${company.id}&search=fitz`)).json<TContactPage>();
    expect(after.pending).toEqual([]);
    expect(after.items.map((contact) => contact.psaContactId)).toEqual([String(atPsa[0]?.id)]);
    t.advanceClock(24 * 60 * 60_000);
    expect(await runPsaOutboxPass(t.deps)).toBe(0);
    expect(await contactsAtPsa('Fitzgerald')).toHaveLength(1);
    // Answered now from the finished row, still one contact.
    const again = await admin.post(`/psa/psa/${msp.customDomain}/addPSAContact`, body);
    expect(again.statusCode).toBe(201);
    expect(await contactsAtPsa('Fitzgerald')).toHaveLength(1);
  });
});
