import { afterAll, beforeAll, expect } from 'vitest';
import { psaConnectionKeyOf } from '@switchboard/contracts';
import { createPsaClient, type PsaClient, type TPsaType } from '@switchboard/psa';
import { startPsaSimulator, type TPsaSimulator, type TPsaSimulatorOptions } from '@switchboard/psa-sim';
import { createTestApp, type TestClient, type TTestApp, type TTestAppOverrides } from './test-app';
import { buildMsp, buildUser, signedInClient, type TTestMsp, type TTestUser } from './factories';

/**
 * The PSA client's own retries for tests that make the simulator fail on purpose: as many attempts as in production,
 * milliseconds apart instead of up to seconds (`deps.psaRetry`), so a test waits on what it checks, not on backoff.
 */
export const FAST_PSA_RETRY = { baseDelayMs: 5, maxDelayMs: 40 } as const;

/** A test app and the PSA simulator it may reach. */
export interface TSimulatorApp {
  t: TTestApp;
  sim: TPsaSimulator;
}

export interface TSimulatorAppOptions {
  /** Options of the simulator (default: the demo seed on a free port, no rate limit). */
  simulator?: TPsaSimulatorOptions;
  /** Overrides of the test app; `config` is merged over the simulator's allow-listed host. */
  app?: TTestAppOverrides | ((sim: TPsaSimulator) => TTestAppOverrides);
  /** `false` starts nothing (for a file whose tests are skipped on this database). */
  enabled?: boolean;
}

/** Starts the simulator and a test app allowed to call it (plain http on loopback passes the SSRF guard only when allow-listed). */
export async function startSimulatorApp(options: Omit<TSimulatorAppOptions, 'enabled'> = {}): Promise<TSimulatorApp> {
  const sim = await startPsaSimulator({ port: 0, seed: 'demo', rateLimit: false, ...options.simulator });
  const overrides = typeof options.app === 'function' ? options.app(sim) : (options.app ?? {});
  try {
    const t = await createTestApp({ ...overrides, config: { outboundAllowList: [new URL(sim.url).host], ...overrides.config } });
    return { t, sim };
  } catch (error) {
    await sim.close();
    throw error;
  }
}

/**
 * One simulator and one test app for the test file (or describe block) that calls it: started in
 * `beforeAll`, handed to `onReady` (typically `({ t, sim } = ready)`), closed in `afterAll`.
 */
export function withSimulatorApp(options: TSimulatorAppOptions, onReady: (ready: TSimulatorApp) => unknown): void {
  let started: TSimulatorApp | undefined;
  beforeAll(async () => {
    if (options.enabled === false) return;
    started = await startSimulatorApp(options);
    await onReady(started);
  });
  afterAll(async () => {
    if (!started) return;
    await started.t.close();
    await started.sim.close();
  });
}

/** A test app connected to nothing yet that may reach two ConnectWise sites: MSPs are connected to site A first, then switched to site B. */
export interface TTwoSiteApp {
  t: TTestApp;
  /** The ConnectWise site an MSP is connected to first. */
  siteA: TPsaSimulator;
  /** Another ConnectWise site (another address, the same company id and keys): the PSA type alone does not tell them apart. */
  siteB: TPsaSimulator;
  /** The connection key (decision 042) of the simulator's ConnectWise site, as `psaConnectionKeyOf` makes it from saved keys. */
  keyOf: (sim: TPsaSimulator) => string;
  /** Saves site B's keys as the admin does on the integrations screen: the MSP's data of site A starts over. */
  connectSiteB: (admin: TestClient, msp: TTestMsp) => Promise<void>;
  /** Closes the app and both simulators. */
  close: () => Promise<void>;
}

/** Starts two demo simulators (sites A and B) and a test app whose outbound allow-list names both. */
export async function startTwoSiteApp(): Promise<TTwoSiteApp> {
  const siteB = await startPsaSimulator({ port: 0, seed: 'demo', rateLimit: false });
  let started: TSimulatorApp;
  try {
    started = await startSimulatorApp({ app: (siteA) => ({ config: { outboundAllowList: [new URL(siteA.url).host, new URL(siteB.url).host] } }) });
  } catch (error) {
    await siteB.close();
    throw error;
  }
  const { t, sim: siteA } = started;
  return {
    t,
    siteA,
    siteB,
    keyOf: (sim) => psaConnectionKeyOf({ psaType: 'CONNECTWISE', psaUrl: sim.connectWise.siteUrl, companyId: sim.connectWise.companyId }),
    async connectSiteB(admin, msp) {
      const saved = await admin.post(`/db/${msp.customDomain}/integrations/update`, simulatorIntegrationBody(siteB, 'connectwise'));
      expect(saved.statusCode, saved.body).toBe(200);
    },
    async close() {
      await t.close();
      await siteA.close();
      await siteB.close();
    },
  };
}

/** `startTwoSiteApp` for the test file that calls it: started in `beforeAll`, handed to `onReady`, closed in `afterAll`. */
export function withTwoSiteApp(onReady: (ready: TTwoSiteApp) => unknown): void {
  let started: TTwoSiteApp | undefined;
  beforeAll(async () => {
    started = await startTwoSiteApp();
    await onReady(started);
  });
  afterAll(async () => {
    await started?.close();
  });
}

/** The body of `POST /db/{msp}/integrations/update` that connects an MSP to the simulator's PSA of this type. */
export function simulatorIntegrationBody(sim: TPsaSimulator, psaType: TPsaType, connectWise: { privateKey?: string } = {}) {
  const { connectWise: cw, autotask: at } = sim;
  return psaType === 'connectwise'
    ? { connectWiseManageIntegration: { companyId: cw.companyId, publicKey: cw.publicKey, privateKey: connectWise.privateKey ?? cw.privateKey, psaUrl: cw.siteUrl, clientId: cw.clientId } }
    : { autotaskIntegration: { username: at.username, secret: at.secret, integrationCode: at.integrationCode, zoneDiscoveryUrl: at.zoneDiscoveryUrl } };
}

/** The simulator read directly, not through the app: what the PSA really holds after a call. */
export function simulatorPsaClient(sim: TPsaSimulator, psaType: TPsaType, tenantKey: string): PsaClient {
  if (psaType === 'connectwise') {
    const { companyId, publicKey, privateKey, clientId, siteUrl } = sim.connectWise;
    return createPsaClient({ psaType, siteUrl, companyId, publicKey, privateKey, clientId }, { tenantKey });
  }
  const { username, secret, integrationCode, zoneDiscoveryUrl } = sim.autotask;
  return createPsaClient({ psaType, username, secret, integrationCode, zoneDiscoveryUrl }, { tenantKey });
}

export interface TConnectedMsp {
  msp: TTestMsp;
  adminUser: TTestUser;
  admin: TestClient;
}

/**
 * A new MSP whose signed-in technician (Admin role unless `user` says otherwise) connected it to the
 * simulator's PSA through the API, as an admin does on the integrations screen (`privateKey` saves
 * other ConnectWise keys than the simulator's).
 */
export async function buildConnectedMsp(
  t: TTestApp,
  sim: TPsaSimulator,
  psaType: TPsaType,
  options: { user?: Parameters<typeof buildUser>[2]; ip?: string; privateKey?: string } = {},
): Promise<TConnectedMsp> {
  const msp = await buildMsp(t);
  const adminUser = await buildUser(t, msp, { role: 'Admin', ...options.user });
  const admin = await signedInClient(t, adminUser, options.ip);
  const connected = await admin.post(`/db/${msp.customDomain}/integrations/update`, simulatorIntegrationBody(sim, psaType, { privateKey: options.privateKey }));
  expect(connected.statusCode, connected.body).toBe(200);
  return { msp, adminUser, admin };
}
