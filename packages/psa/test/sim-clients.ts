import { startPsaSimulator, type TPsaSimulator } from '@switchboard/psa-sim';
import { createPsaClient, type PsaClient, type TPsaClientOptions, type TPsaConfig, type TPsaType } from '../src/index';

export type TSimulator = TPsaSimulator;

/** Fast retries so recovery tests take milliseconds; the policy shape is the production one. */
export const fastRetry = { maxAttempts: 4, baseDelayMs: 5, maxDelayMs: 20, maxRetryAfterMs: 5_000 };

export function configFor(psaType: TPsaType, sim: TSimulator, overrides: { privateKey?: string; secret?: string } = {}): TPsaConfig {
  if (psaType === 'connectwise') {
    const { companyId, publicKey, privateKey, clientId, siteUrl } = sim.connectWise;
    return { psaType, siteUrl, companyId, publicKey, privateKey: overrides.privateKey ?? privateKey, clientId };
  }
  const { username, secret, integrationCode, zoneDiscoveryUrl } = sim.autotask;
  return { psaType, username, secret: overrides.secret ?? secret, integrationCode, zoneDiscoveryUrl };
}

export function clientFor(psaType: TPsaType, sim: TSimulator, options: Partial<TPsaClientOptions> = {}, overrides: { privateKey?: string; secret?: string } = {}): PsaClient {
  return createPsaClient(configFor(psaType, sim, overrides), { tenantKey: `tenant-${psaType}`, retry: fastRetry, timeoutMs: 2_000, ...options });
}

export { startPsaSimulator };
