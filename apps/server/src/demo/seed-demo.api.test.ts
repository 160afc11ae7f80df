import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { integrations, msps, psaCompanies, psaContacts, psaMembers, roles, users } from '@switchboard/db';
import { decryptSecret } from '../lib/crypto';
import { createTestApp, TestClient, type TTestApp } from '../../test/test-app';
import { DEMO_PASSWORD, DEMO_SIGN_INS, seedDemoMsp } from './seed-demo';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const SIMULATOR_URL = 'http://127.0.0.1:3100';

async function countRows() {
  const db = t.deps.database.db;
  const tally = async (table: typeof users | typeof roles | typeof psaCompanies | typeof psaContacts | typeof psaMembers | typeof integrations | typeof msps) =>
    (await db.select({ total: count() }).from(table))[0]?.total ?? 0;
  return {
    msps: await tally(msps),
    roles: await tally(roles),
    users: await tally(users),
    companies: await tally(psaCompanies),
    contacts: await tally(psaContacts),
    members: await tally(psaMembers),
    integrations: await tally(integrations),
  };
}

describe('seedDemoMsp', () => {
  it('seeds northwind with roles, PSA copies, linked users and the simulator integration', async () => {
    const result = await seedDemoMsp(t.deps, { simulatorUrl: SIMULATOR_URL });
    expect(result.created).toMatchObject({ msp: true, companies: 24, contacts: 178, members: 14, users: 5, customRole: true, integration: true, knowledgeArticles: 45 });
    const db = t.deps.database.db;
    const [msp] = await db.select().from(msps).where(eq(msps.customDomain, 'northwind'));
    expect(msp).toMatchObject({ name: 'Northwind IT Partners', bootstrapTokenHash: null });

    const roleNames = (await db.select().from(roles).where(eq(roles.mspId, result.mspId))).map((role) => role.name).sort();
    expect(roleNames).toEqual(['Admin', 'Client', 'Dispatcher', 'Technician']);

    const seededUsers = await db.select().from(users).where(eq(users.mspId, result.mspId));
    const admin = seededUsers.find((user) => user.email === 'samuel.whitaker@northwind-it.example');
    expect(admin).toMatchObject({ kind: 'technician', tierLevel: 'Tier3', psaMemberId: '14' });
    expect(admin?.psaMemberRowId).not.toBeNull();
    const tiers = seededUsers.filter((user) => user.kind === 'technician').map((user) => user.tierLevel).sort();
    expect(tiers).toEqual(['Tier1', 'Tier2', 'Tier3']);
    const clients = seededUsers.filter((user) => user.kind === 'client');
    expect(clients).toHaveLength(2);
    expect(new Set(clients.map((client) => client.psaCompanyId))).toEqual(new Set(['1']));
    expect(clients.every((client) => client.companyRowId !== null && client.psaContactRowId !== null)).toBe(true);
    expect(clients.map((client) => client.psaContactId).sort()).toEqual(['1', '2']);

    const [integration] = await db.select().from(integrations).where(eq(integrations.mspId, result.mspId));
    expect(integration).toMatchObject({ psaType: 'CONNECTWISE', keyHint: '••••Key1', connectWiseManageIntegrator: true, settings: { companyId: 'northwind', psaUrl: SIMULATOR_URL, clientId: '00000000-0000-4000-8000-000000000001' } });
    expect(JSON.parse(decryptSecret(t.deps.config.encryptionKey, integration?.secretCiphertext ?? ''))).toEqual({ psaType: 'CONNECTWISE', publicKey: 'SimPublicKey1', privateKey: 'SimPrivateKey1' });
  });

  it('lets the demo admin sign in with the documented password (the password step asks for 2FA)', async () => {
    const adminSignIn = DEMO_SIGN_INS[0];
    expect(adminSignIn).toMatchObject({ kind: 'technician', mspCustomDomain: 'northwind' });
    const response = await new TestClient(t.app).post('/db/northwind/technicianUsers/signin', { emailId: adminSignIn?.email, password: DEMO_PASSWORD });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ twoFactorRequired: true });
  });

  it('lets a demo client user sign in too', async () => {
    const clientSignIn = DEMO_SIGN_INS.find((signIn) => signIn.kind === 'client');
    const response = await new TestClient(t.app).post('/db/northwind/clientUsers/signin', { emailId: clientSignIn?.email, password: DEMO_PASSWORD });
    expect(response.json()).toMatchObject({ twoFactorRequired: true });
  });

  it('changes nothing on a second run', async () => {
    const before = await countRows();
    const started = Date.now();
    const again = await seedDemoMsp(t.deps, { simulatorUrl: SIMULATOR_URL });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(again.created).toEqual({ msp: false, companies: 0, contacts: 0, members: 0, users: 0, customRole: false, integration: false, knowledgeArticles: 0 });
    expect(await countRows()).toEqual(before);
  });

  it('follows the simulator to a new address without duplicating anything', async () => {
    const before = await countRows();
    const moved = await seedDemoMsp(t.deps, { simulatorUrl: 'http://127.0.0.1:3999' });
    expect(moved.created.integration).toBe(true);
    const [integration] = await t.deps.database.db.select().from(integrations).where(eq(integrations.mspId, moved.mspId));
    expect(integration?.settings.psaUrl).toBe('http://127.0.0.1:3999');
    expect(await countRows()).toEqual(before);
  });
});
