import { afterAll, beforeAll, expect } from 'vitest';
import { createPsaClient, type PsaClient, type TPsaType } from '@switchboard/psa';
import { startPsaSimulator, type TPsaSimulator, type TPsaSimulatorOptions } from '@switchboard/psa-sim';
import { createTestApp, type TestClient, type TTestApp, type TTestAppOverrides } from './test-app';
import { buildMsp, buildUser, signedInClient, type TTestMsp, type TTestUser } from './factories';

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
