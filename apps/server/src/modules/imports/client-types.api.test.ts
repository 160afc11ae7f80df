import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { MESSAGES, permissionMap, type TCompanyPage, type TProgressiveClient } from '@switchboard/contracts';
import { psaContacts } from '@switchboard/db';
import type { PsaClient, TPsaNamed } from '@switchboard/psa';
import type { TPsaSimulator } from '@switchboard/psa-sim';
import type { TestClient, TTestApp } from '../../../test/test-app';
import type { TTestMsp } from '../../../test/factories';
import { buildConnectedMsp, withSimulatorApp } from '../../../test/psa-simulator';
import { createImportsService } from './imports.service';

// Regression: client company types were never stored (company_types stayed [] but for the demo seed), so the Companies
// screen's client-type filter (R-153) had no options; and A-043 ignored the type chosen in the wizard's finish step
// (A-042), copying vendors and prospects with the clients; and with no type chosen it copied them all (review finding 1).

let t: TTestApp;
let sim: TPsaSimulator;
withSimulatorApp({}, (ready) => ({ t, sim } = ready));

/** The demo seed's client types, and the vendor type each test run adds beside them. */
const DEMO_TYPES = ['Break-Fix', 'Co-Managed', 'Managed Services', 'Prospect'];
const VENDOR = { type: 'Vendor', company: 'Peak Copier Leasing', contactLastName: 'Vendorsson' };

/** Adds a vendor company with one contact in the PSA, as someone does in ConnectWise (the simulator's two APIs share it). */
async function addVendorInPsa(): Promise<void> {
  const { companyId, publicKey, privateKey, clientId } = sim.connectWise;
  const headers = { Authorization: `Basic ${Buffer.from(`${companyId}+${publicKey}:${privateKey}`).toString('base64')}`, clientId, 'Content-Type': 'application/json' };
  const post = async (path: string, body: unknown): Promise<{ id: number }> => {
    const response = await fetch(`${sim.url}/v4_6_release/apis/3.0${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    expect(response.status, path).toBe(201);
    return (await response.json()) as { id: number };
  };
  const type = await post('/company/companies/types', { name: VENDOR.type, vendorFlag: true });
  const company = await post('/company/companies', { identifier: 'PCL', name: VENDOR.company, types: [{ id: type.id }] });
  await post('/company/contacts', { firstName: 'Vera', lastName: VENDOR.contactLastName, company: { id: company.id } });
}

beforeAll(addVendorInPsa);

const companiesPage = async (admin: TestClient, msp: TTestMsp, query = ''): Promise<TCompanyPage> => {
  const response = await admin.get(`/db/${msp.customDomain}/psaClients${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<TCompanyPage>();
};

const syncAll = async (admin: TestClient, msp: TTestMsp) => {
  const response = await admin.get(`/psa/syncClientsContacts?mspCustomDomain=${msp.customDomain}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ companies: number; contacts: number }>();
};

describe.each(['connectwise', 'autotask'] as const)('%s client types', (psaType) => {
  // Review finding 1 (regression): the finish step sent no type while the types loaded (or after their load failed), and
  // A-043 then copied every PSA company and contact, vendors and prospects included.
  it('A-043 with no type chosen in the finish step is refused while the PSA has company types: nothing is copied', async () => {
    const { msp, admin } = await buildConnectedMsp(t, sim, psaType);
    const refused = await admin.get(`/psa/syncClientsContacts?mspCustomDomain=${msp.customDomain}`);
    expect(refused.json()).toMatchObject({ status: 409, detail: MESSAGES.imports.clientTypeRequired });
    expect((await companiesPage(admin, msp)).total).toBe(0);
    expect(await t.deps.database.db.select().from(psaContacts).where(eq(psaContacts.mspId, msp.id))).toEqual([]);
  });

  it('A-043 for a PSA without company types copies every company with its contacts (there is no type to choose)', async () => {
    const { msp, adminUser } = await buildConnectedMsp(t, sim, psaType);
    const real = await t.deps.psaClients.forMsp(msp.id);
    const withoutTypes = {
      listCompanyTypes: () => Promise.resolve([]),
      streamCompanies: (...args: Parameters<PsaClient['streamCompanies']>) => real.streamCompanies(...args),
      streamContacts: (...args: Parameters<PsaClient['streamContacts']>) => real.streamContacts(...args),
    } as unknown as PsaClient;
    const imports = createImportsService({ database: t.deps.database, audit: t.deps.audit, now: t.deps.now, psaClients: { forMsp: () => Promise.resolve(withoutTypes) } });
    const actor = { mspId: msp.id, mspCustomDomain: msp.customDomain, userId: adminUser.id, userKind: 'technician' as const, permissions: permissionMap(['mspIntegrations']), ip: '127.0.0.1', requestId: 'no-types' };
    const synced = await imports.syncClientsContacts(actor);
    expect(synced.companies).toBe(25);
    expect(synced.contacts).toBeGreaterThan(0);
  });

  it('A-043 with the type chosen in the finish step (A-042) copies only companies of that type and their contacts: no vendor', async () => {
    const { msp, admin } = await buildConnectedMsp(t, sim, psaType);
    const types = (await admin.get(`/psa/getCompanyTypes?mspCustomDomain=${msp.customDomain}`)).json<TPsaNamed[]>();
    const managed = types.find((type) => type.name === 'Managed Services');
    if (!managed) throw new Error('the PSA has no Managed Services type');
    expect((await admin.get(`/db/${msp.customDomain}/updateClientSync?clientTypeId=${managed.id}&clientTypeName=${encodeURIComponent(managed.name)}`)).statusCode).toBe(200);

    const synced = await syncAll(admin, msp);
    expect(synced.companies).toBe(17);
    const page = await companiesPage(admin, msp, '?pageSize=100');
    expect(page.total).toBe(17);
    expect(page.clientTypes).toEqual(['Managed Services']);
    expect(page.items.map((company) => company.name)).not.toContain(VENDOR.company);
    expect(page.items.map((company) => company.name)).not.toContain('High Plains Ag Supply');
    // The contacts copied are the chosen companies' people only (the Contacts list is not an Admin's screen, decision 12).
    const contacts = await t.deps.database.db.select({ lastName: psaContacts.lastName, companyId: psaContacts.externalCompanyId }).from(psaContacts).where(eq(psaContacts.mspId, msp.id));
    expect(contacts).toHaveLength(synced.contacts);
    expect(contacts.map((contact) => contact.lastName)).not.toContain(VENDOR.contactLastName);
    const copiedIds = new Set(page.items.map((company) => company.psaCompanyId));
    expect(contacts.filter((contact) => !copiedIds.has(contact.companyId))).toEqual([]);
  });

  it('A-059 streams each company with its client types and A-056 stores them: the Companies list filters the saved clients by type', async () => {
    const { msp, admin } = await buildConnectedMsp(t, sim, psaType);
    const response = await admin.get(`/psa/psa/progressive/clients/fetchStream?mspCustomDomain=${msp.customDomain}`);
    expect(response.statusCode, response.body).toBe(200);
    const rows = [...response.body.matchAll(/^event: data\ndata: (.*)$/gm)].flatMap((match) => JSON.parse(match[1] ?? '[]') as TProgressiveClient[]);
    expect(rows.find((row) => row.name === VENDOR.company)?.psaClientType).toEqual([VENDOR.type]);

    const selected = rows.filter((row) => row.name !== VENDOR.company);
    const saved = await admin.post('/psa/psa/progressive/clients/save-selected', { mspCustomDomain: msp.customDomain, selectedClients: selected });
    expect(saved.json()).toMatchObject({ saved: 24 });
    expect((await companiesPage(admin, msp)).clientTypes).toEqual(DEMO_TYPES);
    expect((await companiesPage(admin, msp, '?clientType=Break-Fix')).total).toBe(3);
  });
});
