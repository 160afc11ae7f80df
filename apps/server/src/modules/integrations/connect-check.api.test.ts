import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { MESSAGES } from '@switchboard/contracts';
import { integrations, psaCompanies } from '@switchboard/db';
import type { TPsaSimulator } from '@switchboard/psa-sim';
import type { TTestApp } from '../../../test/test-app';
import { buildUser, signedInClient } from '../../../test/factories';
import { buildConnectedMsp, simulatorIntegrationBody, withSimulatorApp } from '../../../test/psa-simulator';

// Review s29 (connecting a PSA). No `psaRetry` here: the PSA client retries as in production, so these tests show what
// an admin who presses Connect waits for. The key check's bound is shortened (`psaKeyCheckMs`, 20 s in production).

let t: TTestApp;
let sim: TPsaSimulator;
const KEY_CHECK_MS = 2_000;
withSimulatorApp({ app: { psaKeyCheckMs: KEY_CHECK_MS } }, (ready) => ({ t, sim } = ready));

const BOARDS_PATH = '/v4_6_release/apis/3.0/service/boards';
const connectUrl = (domain: string) => `/db/${domain}/integrations/updateConnectWiseManageIntegrator?status=true`;

async function flagOf(mspId: string): Promise<boolean | undefined> {
  const [row] = await t.deps.database.db.select().from(integrations).where(eq(integrations.mspId, mspId));
  return row?.connectWiseManageIntegrator;
}

describe('A-041 connect: a bounded key check', () => {
  // Bug: the check retried 4× (20 s timeout each, Retry-After up to 60 s) with no overall limit: minutes of a silent spinner.
  it('a PSA answering 503 is asked at most twice, and the admin gets the plain message', async () => {
    const { msp, admin } = await buildConnectedMsp(t, sim, 'connectwise');
    try {
      sim.faults.failNext({ kind: 503, count: 20, pathPrefix: BOARDS_PATH });
      const response = await admin.post(connectUrl(msp.customDomain));
      expect(response.statusCode, response.body).toBe(503);
      expect(response.json()).toMatchObject({ code: 'psa_unavailable', detail: MESSAGES.psa.keyCheckUnavailable });
      expect(20 - sim.faults.pendingCount()).toBe(2);
    } finally {
      sim.faults.reset();
    }
    expect(await flagOf(msp.id)).toBe(false);
  });

  it('a PSA that holds the request open is given up on within the bound', async () => {
    const { msp, admin } = await buildConnectedMsp(t, sim, 'connectwise');
    try {
      sim.faults.failNext({ kind: 'timeout', count: 20, pathPrefix: BOARDS_PATH });
      const startedAt = Date.now();
      const response = await admin.post(connectUrl(msp.customDomain));
      expect(Date.now() - startedAt).toBeLessThan(KEY_CHECK_MS + 3_000);
      expect(response.statusCode, response.body).toBe(503);
      expect(response.json()).toMatchObject({ code: 'psa_unavailable', detail: MESSAGES.psa.keyCheckUnavailable });
    } finally {
      sim.faults.reset();
    }
    expect(await flagOf(msp.id)).toBe(false);
  }, 15_000);
});

describe('A-041 connect: keys saved by someone else during the check', () => {
  // Bug: the flag was set by MSP alone after the seconds-long check, so keys another admin saved meanwhile (never
  // checked) were marked connected and the webhook registered with them.
  it('sets no flag and answers 409 when the keys changed while they were being checked', async () => {
    const { msp, admin } = await buildConnectedMsp(t, sim, 'connectwise');
    const otherAdmin = await signedInClient(t, await buildUser(t, msp, { role: 'Admin' }));
    const boardsAsked = () => sim.stats().byPath[BOARDS_PATH] ?? 0;
    const askedBefore = boardsAsked();
    try {
      sim.faults.set({ latencyMs: 600 });
      const connecting = admin.post(connectUrl(msp.customDomain));
      await expect.poll(boardsAsked, { timeout: 5_000, interval: 20 }).toBeGreaterThan(askedBefore);
      // Meanwhile: other keys for the same PSA (a mistyped private key), saved but never checked.
      const saved = await otherAdmin.post(`/db/${msp.customDomain}/integrations/update`, simulatorIntegrationBody(sim, 'connectwise', { privateKey: 'another-private-key-1234' }));
      expect(saved.statusCode, saved.body).toBe(200);
      const response = await connecting;
      expect(response.statusCode, response.body).toBe(409);
      expect(response.json()).toMatchObject({ code: 'conflict', detail: MESSAGES.psa.keysChangedDuringCheck });
    } finally {
      sim.faults.reset();
    }
    expect(await flagOf(msp.id)).toBe(false);
  });
});

describe('A-040 Autotask zone discovery URL', () => {
  it('adds https:// to an address typed without a scheme, as for the ConnectWise site', async () => {
    const { msp, admin } = await buildConnectedMsp(t, sim, 'autotask');
    const withoutScheme = sim.autotask.zoneDiscoveryUrl.replace(/^http:\/\//, '');
    const body = { autotaskIntegration: { ...simulatorIntegrationBody(sim, 'autotask').autotaskIntegration, zoneDiscoveryUrl: withoutScheme } };
    const saved = await admin.post(`/db/${msp.customDomain}/integrations/update`, body);
    expect(saved.statusCode, saved.body).toBe(200);
    const [row] = await t.deps.database.db.select().from(integrations).where(eq(integrations.mspId, msp.id));
    expect(row?.settings.zoneDiscoveryUrl).toBe(`https://${withoutScheme}`);
  });

  it('names the zone discovery URL, not the PSA address, when it refuses it', async () => {
    const { msp, admin } = await buildConnectedMsp(t, sim, 'autotask');
    const body = { autotaskIntegration: { ...simulatorIntegrationBody(sim, 'autotask').autotaskIntegration, zoneDiscoveryUrl: 'https://169.254.169.254/zone' } };
    const refused = await admin.post(`/db/${msp.customDomain}/integrations/update`, body);
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'validation', invalidParams: [{ name: 'autotaskIntegration.zoneDiscoveryUrl' }] });
    expect(refused.json<{ detail: string }>().detail).toContain('zone discovery URL');
    expect(refused.body).not.toContain('PSA address');
  });
});

describe('A-040 keys for another PSA are checked before the data starts over (decision 042)', () => {
  // Bug: the start-over ran in the save's transaction before the keys were proven, so a typo wiped the MSP's data.
  it('refuses keys the other PSA rejects and keeps the data of the PSA connected now', async () => {
    const { msp, admin } = await buildConnectedMsp(t, sim, 'connectwise');
    const db = t.deps.database.db;
    await db.insert(psaCompanies).values({ mspId: msp.id, psaType: 'CONNECTWISE', externalId: '901', name: 'Kept company' });
    const typo = { autotaskIntegration: { ...simulatorIntegrationBody(sim, 'autotask').autotaskIntegration, secret: 'mistyped-secret-0000' } };
    const refused = await admin.post(`/db/${msp.customDomain}/integrations/update`, typo);
    expect(refused.statusCode, refused.body).toBeGreaterThanOrEqual(400);
    expect(refused.statusCode).toBeLessThan(500);
    expect(refused.json<{ detail: string }>().detail).toContain(MESSAGES.psa.otherPsaKeysRefused);
    expect(refused.body).not.toContain('mistyped-secret-0000');
    const kept = await db.select().from(psaCompanies).where(and(eq(psaCompanies.mspId, msp.id), eq(psaCompanies.externalId, '901')));
    expect(kept).toHaveLength(1);
    const [row] = await db.select().from(integrations).where(eq(integrations.mspId, msp.id));
    expect(row?.psaType).toBe('CONNECTWISE');
  });
});
