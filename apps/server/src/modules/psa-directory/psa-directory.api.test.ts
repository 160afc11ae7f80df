import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { TProgressiveClient, TTicketFormCompanyOptions } from '@switchboard/contracts';
import { psaCompanies, psaContacts } from '@switchboard/db';
import type { TPsaSimulator } from '@switchboard/psa-sim';
import type { TestClient, TTestApp } from '../../../test/test-app';
import { buildMsp, type TTestMsp } from '../../../test/factories';
import { buildConnectedMsp, simulatorPsaClient, withSimulatorApp } from '../../../test/psa-simulator';
import { upsertPsaDirectory } from './psa-directory.repository';

let t: TTestApp;
let sim: TPsaSimulator;
withSimulatorApp({}, (ready) => ({ t, sim } = ready));

const FULL_COMPANY = { externalId: '7', name: 'Brightwater Family Dental', identifier: 'BWFD', companyTypes: ['Client'], phone: '3035550111', website: 'https://brightwater.example', city: 'Denver', state: 'CO' };
const CONTACT = { externalId: '70', externalCompanyId: '7', firstName: 'Helen', lastName: 'Marchetti', email: 'helen@brightwater.example', phone: '3035550112', title: 'Office Manager', isActive: true };

describe('upsertPsaDirectory (the one writer of the synchronized PSA copies: activation lookup, imports and demo seed)', () => {
  it('inserts new records, links contacts to their company, and reports them as new', async () => {
    const msp = await buildMsp(t);
    const copied = await upsertPsaDirectory(t.deps.database.db, msp.id, 'CONNECTWISE', { companies: [FULL_COMPANY], contacts: [CONTACT], members: [] }, new Date());
    expect(copied.companies.map((row) => [row.externalId, row.isNew])).toEqual([['7', true]]);
    expect(copied.contacts[0]).toMatchObject({ externalId: '70', isNew: true, companyRowId: copied.companies[0]?.id, title: 'Office Manager' });
  });

  it('updates known records in place, keeps details a lookup does not know, and never changes a company status from a lookup', async () => {
    const msp = await buildMsp(t);
    const db = t.deps.database.db;
    await upsertPsaDirectory(db, msp.id, 'CONNECTWISE', { companies: [FULL_COMPANY], contacts: [CONTACT] }, new Date());
    await db.update(psaCompanies).set({ isActive: false }).where(eq(psaCompanies.mspId, msp.id));

    // What the activation lookup sees: a company reference and a contact without a title.
    const again = await upsertPsaDirectory(
      db,
      msp.id,
      'CONNECTWISE',
      { companies: [{ externalId: '7', name: 'Brightwater Dental Group', identifier: 'BWDG', isActive: true }], keepCompanyStatus: true, contacts: [{ ...CONTACT, title: undefined, lastName: 'Marchetti-Shaw' }] },
      new Date(),
    );
    expect(again.companies[0]?.isNew).toBe(false);
    expect(again.contacts[0]?.isNew).toBe(false);
    const [company] = await db.select().from(psaCompanies).where(eq(psaCompanies.mspId, msp.id));
    expect(company).toMatchObject({ name: 'Brightwater Dental Group', identifier: 'BWDG', companyTypes: ['Client'], phone: '3035550111', website: 'https://brightwater.example', city: 'Denver', state: 'CO', isActive: false });
    const contacts = await db.select().from(psaContacts).where(and(eq(psaContacts.mspId, msp.id), eq(psaContacts.externalId, '70')));
    expect(contacts).toHaveLength(1);
    expect(contacts[0]).toMatchObject({ lastName: 'Marchetti-Shaw', title: 'Office Manager', companyRowId: company?.id });
    // A source that does not give the status (the demo directory) leaves it as stored too.
    await upsertPsaDirectory(db, msp.id, 'CONNECTWISE', { companies: [{ externalId: '7', name: 'Brightwater Dental Group', identifier: 'BWDG' }] }, new Date());
    expect((await db.select().from(psaCompanies).where(eq(psaCompanies.mspId, msp.id)))[0]?.isActive).toBe(false);
  });

  it('a source that read the client types replaces them, even with none (a type removed in the PSA goes); one that did not keeps them', async () => {
    const msp = await buildMsp(t);
    const db = t.deps.database.db;
    const typesNow = async () => (await db.select().from(psaCompanies).where(eq(psaCompanies.mspId, msp.id)))[0]?.companyTypes;
    await upsertPsaDirectory(db, msp.id, 'CONNECTWISE', { companies: [FULL_COMPANY] }, new Date());
    await upsertPsaDirectory(db, msp.id, 'CONNECTWISE', { companies: [{ ...FULL_COMPANY, companyTypes: ['Client', 'Partner'] }] }, new Date());
    expect(await typesNow()).toEqual(['Client', 'Partner']);
    await upsertPsaDirectory(db, msp.id, 'CONNECTWISE', { companies: [{ externalId: '7', name: FULL_COMPANY.name, identifier: 'BWFD' }] }, new Date());
    expect(await typesNow()).toEqual(['Client', 'Partner']);
    await upsertPsaDirectory(db, msp.id, 'CONNECTWISE', { companies: [{ ...FULL_COMPANY, companyTypes: [] }] }, new Date());
    expect(await typesNow()).toEqual([]);
  });

  it('links a contact to a company stored earlier when the source does not return the company', async () => {
    const msp = await buildMsp(t);
    const db = t.deps.database.db;
    const first = await upsertPsaDirectory(db, msp.id, 'CONNECTWISE', { companies: [FULL_COMPANY] }, new Date());
    const copied = await upsertPsaDirectory(db, msp.id, 'CONNECTWISE', { contacts: [CONTACT] }, new Date());
    expect(copied.contacts[0]?.companyRowId).toBe(first.companies[0]?.id);
    expect(copied.companiesByExternalId.get('7')).toEqual({ id: first.companies[0]?.id, name: 'Brightwater Family Dental' });
  });
});

describe('a company’s status follows the PSA when companies are saved (A-056) or synced (A-043) again', () => {
  /** Sets the company active or not in Autotask, as someone does in its own screens. */
  async function setActiveInAutotask(companyId: number, isActive: boolean): Promise<void> {
    const { username, secret, integrationCode } = sim.autotask;
    const response = await fetch(`${sim.url}/ATServicesRest/V1.0/Companies`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json', UserName: username, Secret: secret, ApiIntegrationCode: integrationCode },
      body: JSON.stringify({ id: companyId, isActive }),
    });
    expect(response.status).toBe(200);
  }

  /** Whether the ticket form offers the company, as a technician sees the list. */
  async function isOffered(admin: TestClient, msp: TTestMsp, company: { id: number; name: string }): Promise<boolean> {
    const response = await admin.get(`/db/${msp.customDomain}/ticketForm/companies?search=${encodeURIComponent(company.name)}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<TTicketFormCompanyOptions>().items.some((item) => item.psaCompanyId === String(company.id));
  }

  /** The company's row of the clients import stream (A-059), as the browser gets it. */
  async function streamedRow(admin: TestClient, msp: TTestMsp, companyId: number): Promise<TProgressiveClient> {
    const response = await admin.get(`/psa/psa/progressive/clients/fetchStream?mspCustomDomain=${msp.customDomain}`);
    expect(response.statusCode, response.body).toBe(200);
    const rows = [...response.body.matchAll(/^event: data\ndata: (.*)$/gm)].flatMap((match) => JSON.parse(match[1] ?? '[]') as TProgressiveClient[]);
    const row = rows.find((candidate) => candidate.id === companyId);
    if (!row) throw new Error(`company ${companyId} was not streamed`);
    return row;
  }

  it('a company imported inactive and reactivated in the PSA is offered again, and the reverse (regression: is_active was set on insert only)', async () => {
    const { msp, admin } = await buildConnectedMsp(t, sim, 'autotask');
    let company: { id: number; name: string; type?: { id: number; name: string } } | undefined;
    for await (const candidate of simulatorPsaClient(sim, 'autotask', 'directory-status-at').streamCompanies()) {
      company = { id: candidate.id, name: candidate.name, type: candidate.types[0] };
      break;
    }
    if (!company?.type) throw new Error('the simulator has no company with a client type');
    // A-043 copies the client type chosen in the wizard's finish step (A-042); the PSA has types, so one is chosen.
    expect((await admin.get(`/db/${msp.customDomain}/updateClientSync?clientTypeId=${company.type.id}&clientTypeName=${encodeURIComponent(company.type.name)}`)).statusCode).toBe(200);
    const sync = async () => expect((await admin.get(`/psa/syncClientsContacts?mspCustomDomain=${msp.customDomain}`)).statusCode).toBe(200);
    const save = async (row: TProgressiveClient) =>
      expect((await admin.post('/psa/psa/progressive/clients/save-selected', { mspCustomDomain: msp.customDomain, selectedClients: [row] })).json()).toMatchObject({ saved: 1, created: 0 });

    try {
      await setActiveInAutotask(company.id, false);
      await sync();
      expect(await isOffered(admin, msp, company)).toBe(false);

      // A-043: reactivated in the PSA, synced again.
      await setActiveInAutotask(company.id, true);
      await sync();
      expect(await isOffered(admin, msp, company)).toBe(true);

      // A-056: deactivated in the PSA, the streamed row saved again; then reactivated and saved.
      await setActiveInAutotask(company.id, false);
      const inactiveRow = await streamedRow(admin, msp, company.id);
      expect(inactiveRow.isActive).toBe(false);
      await save(inactiveRow);
      expect(await isOffered(admin, msp, company)).toBe(false);
      await setActiveInAutotask(company.id, true);
      await save(await streamedRow(admin, msp, company.id));
      expect(await isOffered(admin, msp, company)).toBe(true);
    } finally {
      await setActiveInAutotask(company.id, true);
    }
  });

  /** Deletes the company in ConnectWise (its `deletedFlag`), or brings it back, as someone does in its own screens. */
  async function setDeletedInConnectWise(companyId: number, isDeleted: boolean): Promise<void> {
    const { companyId: site, publicKey, privateKey, clientId } = sim.connectWise;
    const response = await fetch(`${sim.url}/v4_6_release/apis/3.0/company/companies/${companyId}`, {
      method: 'PATCH',
      headers: { Authorization: `Basic ${Buffer.from(`${site}+${publicKey}:${privateKey}`).toString('base64')}`, clientId, 'Content-Type': 'application/json' },
      body: JSON.stringify([{ op: 'replace', path: 'deletedFlag', value: isDeleted }]),
    });
    expect(response.status).toBe(200);
  }

  // Review s29, finding 2: ConnectWise companies were read with `deletedFlag=false`, so a deleted one was never read
  // again and its copy stayed active (and offered by the ticket form) after a second load or the wizard's Finish sync.
  it('a ConnectWise company deleted in the PSA turns inactive on the next load (A-056) and the next sync (A-043), and leaves the ticket form', async () => {
    const { msp, admin } = await buildConnectedMsp(t, sim, 'connectwise');
    let company: { id: number; name: string; type?: { id: number; name: string } } | undefined;
    for await (const candidate of simulatorPsaClient(sim, 'connectwise', 'directory-status-cw').streamCompanies()) {
      company = { id: candidate.id, name: candidate.name, type: candidate.types[0] };
      break;
    }
    if (!company?.type) throw new Error('the simulator has no company with a client type');
    const save = async (row: TProgressiveClient) =>
      expect((await admin.post('/psa/psa/progressive/clients/save-selected', { mspCustomDomain: msp.customDomain, selectedClients: [row] })).statusCode).toBe(200);
    const sync = async () => expect((await admin.get(`/psa/syncClientsContacts?mspCustomDomain=${msp.customDomain}`)).statusCode).toBe(200);
    try {
      await save(await streamedRow(admin, msp, company.id));
      expect(await isOffered(admin, msp, company)).toBe(true);

      await setDeletedInConnectWise(company.id, true);
      const deletedRow = await streamedRow(admin, msp, company.id);
      expect(deletedRow.isActive).toBe(false);
      await save(deletedRow);
      expect(await isOffered(admin, msp, company)).toBe(false);

      // The wizard's Finish sync (A-042 then A-043) follows the PSA both ways too.
      expect((await admin.get(`/db/${msp.customDomain}/updateClientSync?clientTypeId=${company.type.id}&clientTypeName=${encodeURIComponent(company.type.name)}`)).statusCode).toBe(200);
      await setDeletedInConnectWise(company.id, false);
      await sync();
      expect(await isOffered(admin, msp, company)).toBe(true);
      await setDeletedInConnectWise(company.id, true);
      await sync();
      expect(await isOffered(admin, msp, company)).toBe(false);
    } finally {
      await setDeletedInConnectWise(company.id, false);
    }
  });
});
