import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { psaCompanies, psaContacts } from '@switchboard/db';
import { createTestApp, type TTestApp } from '../../../test/test-app';
import { buildMsp } from '../../../test/factories';
import { upsertPsaDirectory } from './psa-directory.repository';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const FULL_COMPANY = { externalId: '7', name: 'Brightwater Family Dental', identifier: 'BWFD', companyTypes: ['Client'], phone: '3035550111', website: 'https://brightwater.example', city: 'Denver', state: 'CO' };
const CONTACT = { externalId: '70', externalCompanyId: '7', firstName: 'Helen', lastName: 'Marchetti', email: 'helen@brightwater.example', phone: '3035550112', title: 'Office Manager', isActive: true };

describe('upsertPsaDirectory (the one writer of the synchronized PSA copies: activation lookup and demo seed)', () => {
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
      { companies: [{ externalId: '7', name: 'Brightwater Dental Group', identifier: 'BWDG', isActive: true }], contacts: [{ ...CONTACT, title: undefined, lastName: 'Marchetti-Shaw' }] },
      new Date(),
    );
    expect(again.companies[0]?.isNew).toBe(false);
    expect(again.contacts[0]?.isNew).toBe(false);
    const [company] = await db.select().from(psaCompanies).where(eq(psaCompanies.mspId, msp.id));
    expect(company).toMatchObject({ name: 'Brightwater Dental Group', identifier: 'BWDG', companyTypes: ['Client'], phone: '3035550111', website: 'https://brightwater.example', city: 'Denver', state: 'CO', isActive: false });
    const contacts = await db.select().from(psaContacts).where(and(eq(psaContacts.mspId, msp.id), eq(psaContacts.externalId, '70')));
    expect(contacts).toHaveLength(1);
    expect(contacts[0]).toMatchObject({ lastName: 'Marchetti-Shaw', title: 'Office Manager', companyRowId: company?.id });
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
