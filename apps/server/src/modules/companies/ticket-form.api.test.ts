import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { permissionMap, TICKET_FORM_OPTIONS_MAX, type TTicketFormCompanyOptions, type TTicketFormContactOptions } from '@switchboard/contracts';
import { auditEvents } from '@switchboard/db';
import { createTestApp, TestClient, type TTestApp } from '../../../test/test-app';
import { buildMsp, buildUser, signedInClient, type TTestMsp } from '../../../test/factories';
import { insertCustomRole } from '../roles/roles.repository';
import { upsertPsaDirectory } from '../psa-directory/psa-directory.repository';

/*
 * Decision 028: the ticket form's read-only lookups. A technician with the built-in Technician role
 * (no user-management permission, so answer 403 — decision 12) still chooses the
 * company and contact of a ticket they create (02 §4, R-266).
 */

let t: TTestApp;
let msp: TTestMsp;
let technician: TestClient;

beforeAll(async () => {
  t = await createTestApp();
  msp = await buildMsp(t);
  await upsertPsaDirectory(
    t.deps.database.db,
    msp.id,
    'CONNECTWISE',
    {
      companies: [
        { externalId: '501', name: 'Contoso', identifier: 'Contoso', companyTypes: ['Client'] },
        { externalId: '502', name: 'Fabrikam', identifier: 'Fabrikam', companyTypes: ['Client'] },
        { externalId: '503', name: 'Closed Corp', identifier: 'ClosedCorp', companyTypes: ['Client'], isActive: false },
        ...Array.from({ length: TICKET_FORM_OPTIONS_MAX + 5 }, (_, index) => ({ externalId: String(2000 + index), name: `Zeta ${String(index).padStart(2, '0')}`, identifier: `Zeta${index}`, companyTypes: ['Client'] })),
      ],
      contacts: [
        { externalId: '9001', externalCompanyId: '501', firstName: 'Ada', lastName: 'Lovelace', email: 'ada@contoso.example', phone: '3035550101', isActive: true },
        { externalId: '9002', externalCompanyId: '501', firstName: 'Alan', lastName: 'Turing', email: 'alan@contoso.example', phone: null, isActive: true },
        { externalId: '9003', externalCompanyId: '501', firstName: 'Gone', lastName: 'Away', email: 'gone@contoso.example', phone: null, isActive: false },
        { externalId: '9101', externalCompanyId: '502', firstName: 'Grace', lastName: 'Hopper', email: 'grace@fabrikam.example', phone: null, isActive: true },
      ],
    },
    t.deps.now(),
  );
  technician = await signedInClient(t, await buildUser(t, msp, { role: 'Technician' }));
});
afterAll(async () => t.close());

const companiesUrl = (query = '') => `/db/${msp.customDomain}/ticketForm/companies${query}`;
const contactsUrl = (query: string) => `/db/${msp.customDomain}/ticketForm/contacts${query}`;

describe('GET /db/{msp}/ticketForm/companies', () => {
  it('gives a built-in Technician the active companies by name, id and name only, while A-008 stays closed to them', async () => {
    expect((await technician.get(`/db/${msp.customDomain}/psaClients`)).statusCode).toBe(403);
    const response = await technician.get(companiesUrl('?search=o'));
    expect(response.statusCode, response.body).toBe(200);
    const options = response.json<TTicketFormCompanyOptions>();
    // "o" matches Contoso and Closed Corp; the inactive one is left out.
    expect(options).toEqual({ items: [{ psaCompanyId: '501', name: 'Contoso' }], hasMore: false });
  });

  it('answers at most 50 and says more match; a limit narrows it', async () => {
    const all = (await technician.get(companiesUrl())).json<TTicketFormCompanyOptions>();
    expect(all.items).toHaveLength(TICKET_FORM_OPTIONS_MAX);
    expect(all.items.slice(0, 2).map((company) => company.name)).toEqual(['Contoso', 'Fabrikam']);
    expect(all.hasMore).toBe(true);
    const two = (await technician.get(companiesUrl('?limit=2&search=zeta'))).json<TTicketFormCompanyOptions>();
    expect(two).toEqual({ items: [{ psaCompanyId: '2000', name: 'Zeta 00' }, { psaCompanyId: '2001', name: 'Zeta 01' }], hasMore: true });
  });

  it('explains a bad limit or search in plain words', async () => {
    const big = await technician.get(companiesUrl('?limit=500'));
    expect(big.statusCode).toBe(400);
    expect(big.json<{ detail: string }>().detail).toContain('Limit is at most 50.');
    const long = await technician.get(companiesUrl(`?search=${'x'.repeat(101)}`));
    expect(long.statusCode).toBe(400);
    expect(long.json<{ detail: string }>().detail).toContain('Search is at most 100 characters.');
  });
});

describe('GET /db/{msp}/ticketForm/contacts', () => {
  it("gives a built-in Technician one company's active contacts (name, e-mail, phone), while A-009 stays closed to them", async () => {
    expect((await technician.get(`/db/${msp.customDomain}/psaContactsByClientId?psaCompanyId=501`)).statusCode).toBe(403);
    const response = await technician.get(contactsUrl('?psaCompanyId=501'));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<TTicketFormContactOptions>()).toEqual({
      items: [
        { psaContactId: '9001', firstName: 'Ada', lastName: 'Lovelace', email: 'ada@contoso.example', phone: '3035550101' },
        { psaContactId: '9002', firstName: 'Alan', lastName: 'Turing', email: 'alan@contoso.example', phone: null },
      ],
      hasMore: false,
    });
  });

  it('searches by name or e-mail within the company and limits the answer', async () => {
    expect((await technician.get(contactsUrl('?psaCompanyId=501&search=turing'))).json<TTicketFormContactOptions>().items.map((contact) => contact.psaContactId)).toEqual(['9002']);
    // Grace works at Fabrikam: a search never reaches past the chosen company.
    expect((await technician.get(contactsUrl('?psaCompanyId=501&search=grace'))).json<TTicketFormContactOptions>().items).toEqual([]);
    expect((await technician.get(contactsUrl('?psaCompanyId=501&limit=1'))).json<TTicketFormContactOptions>()).toMatchObject({ items: [{ psaContactId: '9001' }], hasMore: true });
  });

  it('is 404 for a company the MSP does not have, and for another MSP', async () => {
    expect((await technician.get(contactsUrl('?psaCompanyId=999'))).statusCode).toBe(404);
    const other = await buildMsp(t);
    const otherTechnician = await signedInClient(t, await buildUser(t, other, { role: 'Technician' }));
    // Another MSP's technician: this MSP's path is not theirs, and in their own MSP the company does not exist.
    expect((await otherTechnician.get(contactsUrl('?psaCompanyId=501'))).statusCode).toBe(404);
    const own = await otherTechnician.get(`/db/${other.customDomain}/ticketForm/contacts?psaCompanyId=501`);
    expect(own.statusCode).toBe(404);
    expect(own.body).not.toContain('Lovelace');
    expect((await otherTechnician.get(`/db/${other.customDomain}/ticketForm/companies`)).json<TTicketFormCompanyOptions>().items).toEqual([]);
  });

  it('needs a valid PSA company id', async () => {
    for (const query of ['', '?psaCompanyId=', '?psaCompanyId=abc', '?psaCompanyId=0', '?psaCompanyId=-5']) {
      const response = await technician.get(contactsUrl(query));
      expect(response.statusCode, query).toBe(400);
    }
    expect((await technician.get(contactsUrl('?psaCompanyId=abc'))).json<{ detail: string }>().detail).toContain('Use the PSA id of the record (a whole number).');
  });
});

describe('ticket form lookups: who may call them', () => {
  it('is 401 without a session', async () => {
    const anonymous = new TestClient(t.app);
    expect((await anonymous.get(companiesUrl())).statusCode).toBe(401);
    expect((await anonymous.get(contactsUrl('?psaCompanyId=501'))).statusCode).toBe(401);
  });

  it('is 403 for a client user, even one with clientUserManagement, and the refusal is audited', async () => {
    const roleId = (await insertCustomRole(t.deps.database.db, msp.id, 'Client manager', permissionMap(['clientUserManagement']))).id;
    const client = await signedInClient(t, await buildUser(t, msp, { kind: 'client', roleId, psaCompanyId: '501' }));
    const companies = await client.get(companiesUrl());
    expect(companies.statusCode).toBe(403);
    expect(companies.body).not.toContain('Contoso');
    const contacts = await client.get(contactsUrl('?psaCompanyId=501'));
    expect(contacts.statusCode).toBe(403);
    expect(contacts.body).not.toContain('Lovelace');
    // The refusal is audited in the onResponse hook, which may finish just after the answer arrives.
    await vi.waitFor(async () => {
      const refusals = await t.deps.database.db.select().from(auditEvents).where(and(eq(auditEvents.mspId, msp.id), eq(auditEvents.action, 'access.refused')));
      expect(refusals.map((event) => event.target)).toEqual(expect.arrayContaining(['GET /db/:mspCustomDomain/ticketForm/companies', 'GET /db/:mspCustomDomain/ticketForm/contacts']));
    });
  });
});
