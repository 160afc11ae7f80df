import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { MESSAGES, permissionMap, SESSION_COOKIE } from '@switchboard/contracts';
import { auditEvents, integrations, roles } from '@switchboard/db';
import type { TPsaSimulator } from '@switchboard/psa-sim';
import { buildApp } from '../../app';
import { createAppJobQueue } from '../../app-job-queue';
import { TestClient, type TTestApp } from '../../../test/test-app';
import { withSimulatorApp } from '../../../test/psa-simulator';
import { buildMsp, buildUser, signedInClient, type TTestMsp } from '../../../test/factories';

type TSimulator = TPsaSimulator;

let t: TTestApp;
let sim: TSimulator;

withSimulatorApp({}, (ready) => ({ t, sim } = ready));

const connectWiseBody = (msp: TTestMsp, overrides: Partial<Record<string, string>> = {}) => ({
  mspCustomDomain: msp.customDomain,
  connectWiseManageIntegration: {
    companyId: sim.connectWise.companyId,
    publicKey: sim.connectWise.publicKey,
    privateKey: sim.connectWise.privateKey,
    psaUrl: sim.connectWise.siteUrl,
    clientId: sim.connectWise.clientId,
    ...overrides,
  },
});

const autotaskBody = (msp: TTestMsp) => ({
  mspCustomDomain: msp.customDomain,
  autotaskIntegration: {
    username: sim.autotask.username,
    secret: sim.autotask.secret,
    integrationCode: sim.autotask.integrationCode,
    zoneDiscoveryUrl: sim.autotask.zoneDiscoveryUrl,
  },
});

async function adminOf(msp: TTestMsp): Promise<TestClient> {
  return signedInClient(t, await buildUser(t, msp, { role: 'Admin' }));
}

describe('A-040 POST /db/{msp}/integrations/update', () => {
  it('stores the keys encrypted, and the summary shows only a hint', async () => {
    const msp = await buildMsp(t);
    const admin = await adminOf(msp);
    const saved = await admin.post(`/db/${msp.customDomain}/integrations/update`, connectWiseBody(msp));
    expect(saved.statusCode).toBe(200);
    expect(saved.body).not.toContain(sim.connectWise.privateKey);
    const [row] = await t.deps.database.db.select().from(integrations).where(eq(integrations.mspId, msp.id));
    expect(row?.psaType).toBe('CONNECTWISE');
    expect(JSON.stringify(row)).not.toContain(sim.connectWise.privateKey);
    expect(JSON.stringify(row)).not.toContain(sim.connectWise.publicKey);

    const summary = await (await signedInClient(t, await buildUser(t, msp, { kind: 'client' }))).get(`/db/${msp.customDomain}/integrations`);
    expect(summary.statusCode).toBe(200);
    expect(summary.body).not.toContain(sim.connectWise.privateKey);
    expect(summary.body).not.toContain(sim.connectWise.publicKey);
    expect(summary.json()).toMatchObject({
      psaType: 'CONNECTWISE',
      isConfigured: true,
      companyId: sim.connectWise.companyId,
      keyHint: `••••${sim.connectWise.privateKey.slice(-4)}`,
      connectWiseManageIntegrator: false,
      microsoftGraphIntegrator: false,
      emailIntegrator: false,
    });
    const audits = await t.deps.database.db.select().from(auditEvents).where(eq(auditEvents.mspId, msp.id));
    expect(audits.map((event) => event.action)).toContain('integrations.keys.save');
    expect(JSON.stringify(audits)).not.toContain(sim.connectWise.privateKey);
  });

  it('refuses a PSA address on a private network that is not allow-listed', async () => {
    const msp = await buildMsp(t);
    const response = await (await adminOf(msp)).post(`/db/${msp.customDomain}/integrations/update`, connectWiseBody(msp, { psaUrl: 'https://127.0.0.1:9/' }));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'validation', invalidParams: [{ name: 'psaUrl' }] });
    const plainHttp = await (await adminOf(msp)).post(`/db/${msp.customDomain}/integrations/update`, connectWiseBody(msp, { psaUrl: 'http://169.254.169.254' }));
    expect(plainHttp.statusCode).toBe(400);
  });

  it('answers 401 without a session, 403 without mspIntegrations, 404 for another MSP and rejects a missing CSRF header', async () => {
    const msp = await buildMsp(t);
    const other = await buildMsp(t);
    const url = `/db/${msp.customDomain}/integrations/update`;
    expect((await new TestClient(t.app).post(url, connectWiseBody(msp))).statusCode).toBe(401);

    const [limitedRole] = await t.deps.database.db
      .insert(roles)
      .values({ mspId: msp.id, name: 'No integrations', permissions: permissionMap(['boardView']), custom: true })
      .returning();
    if (!limitedRole) throw new Error('role not created');
    const technician = await signedInClient(t, await buildUser(t, msp, { roleId: limitedRole.id }));
    expect((await technician.post(url, connectWiseBody(msp))).statusCode).toBe(403);

    expect((await (await adminOf(other)).post(url, connectWiseBody(msp))).statusCode).toBe(404);
    expect((await (await adminOf(msp)).post(url, { ...connectWiseBody(msp), mspCustomDomain: other.customDomain })).statusCode).toBe(404);
    expect((await (await adminOf(msp)).post(url, connectWiseBody(msp), { csrf: false })).statusCode).toBe(403);
    const [row] = await t.deps.database.db.select().from(integrations).where(eq(integrations.mspId, msp.id));
    expect(row).toBeUndefined();
  });
});

describe('A-041 POST /db/{msp}/integrations/updateConnectWiseManageIntegrator', () => {
  it('status=true fetches boards through the adapter and sets the flag; status=false clears keys and flag', async () => {
    const msp = await buildMsp(t);
    const admin = await adminOf(msp);
    await admin.post(`/db/${msp.customDomain}/integrations/update`, connectWiseBody(msp));
    const enabled = await admin.post(`/db/${msp.customDomain}/integrations/updateConnectWiseManageIntegrator?status=true`);
    expect(enabled.statusCode).toBe(200);
    expect(enabled.json<{ boardCount: number }>().boardCount).toBeGreaterThan(0);
    expect((await admin.get(`/db/${msp.customDomain}/integrations`)).json()).toMatchObject({ connectWiseManageIntegrator: true });

    const disabled = await admin.post(`/db/${msp.customDomain}/integrations/updateConnectWiseManageIntegrator?status=false`);
    expect(disabled.statusCode).toBe(200);
    expect(disabled.json()).toMatchObject({ isConfigured: false, connectWiseManageIntegrator: false, keyHint: null });
    const [row] = await t.deps.database.db.select().from(integrations).where(eq(integrations.mspId, msp.id));
    expect(row?.secretCiphertext).toBe('');
    const boards = await admin.get(`/psa/getConnectWiseBoards?mspCustomDomain=${msp.customDomain}`);
    expect(boards.statusCode).toBe(409);
    expect(boards.json()).toMatchObject({ code: 'psa_not_configured' });
  });

  it('a second replica on the same database sees keys removed through the first at once (issue #11)', async () => {
    const msp = await buildMsp(t);
    const admin = await adminOf(msp);
    await admin.post(`/db/${msp.customDomain}/integrations/update`, connectWiseBody(msp));
    // Another app on the same database, with its own in-process PSA client cache and job queue (closing it must not stop this file's).
    const replica = await buildApp({ ...t.deps, jobQueue: createAppJobQueue(t.deps) });
    try {
      const viaReplica = () => replica.inject({ method: 'GET', url: `/psa/getConnectWiseBoards?mspCustomDomain=${msp.customDomain}`, headers: { cookie: `${SESSION_COOKIE}=${admin.sessionCookie ?? ''}` } });
      expect((await viaReplica()).statusCode).toBe(200);
      await admin.post(`/db/${msp.customDomain}/integrations/updateConnectWiseManageIntegrator?status=false`);
      const after = await viaReplica();
      expect(after.statusCode).toBe(409);
      expect(after.json()).toMatchObject({ code: 'psa_not_configured' });
    } finally {
      await replica.close();
    }
  });

  it('verifies Autotask keys the same way', async () => {
    const msp = await buildMsp(t);
    const admin = await adminOf(msp);
    expect((await admin.post(`/db/${msp.customDomain}/integrations/update`, autotaskBody(msp))).statusCode).toBe(200);
    const enabled = await admin.post(`/db/${msp.customDomain}/integrations/updateConnectWiseManageIntegrator?status=true`);
    expect(enabled.statusCode).toBe(200);
    expect(enabled.json()).toMatchObject({ psaType: 'AUTOTASK', username: sim.autotask.username, connectWiseManageIntegrator: true });
    expect(enabled.body).not.toContain(sim.autotask.secret);
  });

  it('bad keys give a clear psa_bad_keys error, leave the flag off and never echo the key', async () => {
    const msp = await buildMsp(t);
    const admin = await adminOf(msp);
    await admin.post(`/db/${msp.customDomain}/integrations/update`, connectWiseBody(msp, { privateKey: 'wrong-private-key-0000' }));
    const response = await admin.post(`/db/${msp.customDomain}/integrations/updateConnectWiseManageIntegrator?status=true`);
    expect(response.statusCode).toBe(502);
    expect(response.json()).toMatchObject({ code: 'psa_bad_keys' });
    expect(response.body).not.toContain('wrong-private-key-0000');
    expect((await admin.get(`/db/${msp.customDomain}/integrations`)).json()).toMatchObject({ connectWiseManageIntegrator: false });
  });

  // Issue #7: "Errors from the PSA (bad keys, unreachable, rate limited) reach the user as clear messages, not only flags."
  it('a PSA that limits or stops answering while connecting gives its plain message, and the flag stays off', async () => {
    const msp = await buildMsp(t);
    const admin = await adminOf(msp);
    expect((await admin.post(`/db/${msp.customDomain}/integrations/update`, connectWiseBody(msp))).statusCode).toBe(200);
    const connect = () => admin.post(`/db/${msp.customDomain}/integrations/updateConnectWiseManageIntegrator?status=true`);
    try {
      sim.faults.failNext({ kind: 429, count: 20, pathPrefix: '/v4_6_release/apis/3.0/service/boards' });
      const limited = await connect();
      expect(limited.statusCode, limited.body).toBe(429);
      expect(limited.json()).toMatchObject({ code: 'psa_rate_limited', detail: MESSAGES.psa.rateLimited });
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      sim.faults.reset();

      sim.faults.failNext({ kind: 503, count: 20, pathPrefix: '/v4_6_release/apis/3.0/service/boards' });
      const down = await connect();
      expect(down.statusCode, down.body).toBe(503);
      expect(down.json()).toMatchObject({ code: 'psa_unavailable', detail: MESSAGES.psa.keyCheckUnavailable });
    } finally {
      sim.faults.reset();
    }
    expect((await admin.get(`/db/${msp.customDomain}/integrations`)).json()).toMatchObject({ connectWiseManageIntegrator: false });
    // Once the PSA answers again, the same keys connect.
    expect((await connect()).statusCode).toBe(200);
  });

  it('needs mspIntegrations and the MSP of the session', async () => {
    const msp = await buildMsp(t);
    const other = await buildMsp(t);
    const client = await signedInClient(t, await buildUser(t, msp, { kind: 'client' }));
    expect((await client.post(`/db/${msp.customDomain}/integrations/updateConnectWiseManageIntegrator?status=false`)).statusCode).toBe(403);
    expect((await (await adminOf(other)).post(`/db/${msp.customDomain}/integrations/updateConnectWiseManageIntegrator?status=false`)).statusCode).toBe(404);
    expect((await new TestClient(t.app).get(`/db/${msp.customDomain}/integrations`)).statusCode).toBe(401);
    expect((await (await adminOf(other)).get(`/db/${msp.customDomain}/integrations`)).statusCode).toBe(404);
  });
});
