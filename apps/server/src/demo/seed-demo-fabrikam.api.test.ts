import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { integrations, msps, users } from '@switchboard/db';
import { decryptSecret } from '../lib/crypto';
import { createTestApp, TestClient, type TTestApp } from '../../test/test-app';
import { DEMO_PASSWORD } from './seed-demo';
import { FABRIKAM_SIGN_INS, seedFabrikamMsp } from './seed-demo-fabrikam';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('seedFabrikamMsp (the Autotask demo MSP)', () => {
  it('is connected to the simulator’s Autotask but not onboarded: one admin, no PSA copies', async () => {
    const mspId = await seedFabrikamMsp(t.deps, { simulatorUrl: 'http://127.0.0.1:3100' });
    const db = t.deps.database.db;
    const [integration] = await db.select().from(integrations).where(eq(integrations.mspId, mspId));
    expect(integration).toMatchObject({ psaType: 'AUTOTASK', connectWiseManageIntegrator: true, settings: { username: 'api@northwind.sim', zoneDiscoveryUrl: 'http://127.0.0.1:3100/atservicesrest/v1.0/zoneInformation' } });
    expect(JSON.parse(decryptSecret(t.deps.config.encryptionKey, integration?.secretCiphertext ?? ''))).toMatchObject({ psaType: 'AUTOTASK', secret: 'SimSecret1' });
    expect((await db.select({ total: count() }).from(users).where(eq(users.mspId, mspId)))[0]?.total).toBe(1);
  });

  it('lets its admin sign in with the documented password, as the start banner says', async () => {
    const [admin] = FABRIKAM_SIGN_INS;
    expect(admin?.mspCustomDomain).toBe('fabrikam');
    const response = await new TestClient(t.app).post('/db/fabrikam/technicianUsers/signin', { emailId: admin?.email, password: DEMO_PASSWORD });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ twoFactorRequired: true });
  });

  it('changes nothing on a second run and follows the simulator to a new port', async () => {
    const first = await seedFabrikamMsp(t.deps, { simulatorUrl: 'http://127.0.0.1:3100' });
    const second = await seedFabrikamMsp(t.deps, { simulatorUrl: 'http://127.0.0.1:3999' });
    expect(second).toBe(first);
    const db = t.deps.database.db;
    expect((await db.select({ total: count() }).from(msps).where(eq(msps.customDomain, 'fabrikam')))[0]?.total).toBe(1);
    expect((await db.select({ total: count() }).from(users).where(eq(users.mspId, first)))[0]?.total).toBe(1);
    const [integration] = await db.select().from(integrations).where(eq(integrations.mspId, first));
    expect(integration?.settings.zoneDiscoveryUrl).toBe('http://127.0.0.1:3999/atservicesrest/v1.0/zoneInformation');
  });
});
