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

/** The demo seed's first board and first company: where a test's tickets go. */
export async function firstBoardAndCompany(client: PsaClient): Promise<{ boardId: number; companyId: number }> {
  const [board] = await client.listBoards();
  if (!board) throw new Error('the demo seed has no board');
  for await (const company of client.streamCompanies()) return { boardId: board.id, companyId: company.id };
  throw new Error('the demo seed has no company');
}

/** A ConnectWise GET sent without the adapter, to see a record as the PSA itself shows it. */
export async function rawConnectWise(sim: TSimulator, path: string): Promise<unknown> {
  const { companyId, publicKey, privateKey, clientId } = sim.connectWise;
  const response = await fetch(`${sim.url}/v4_6_release/apis/3.0${path}`, {
    headers: { Authorization: `Basic ${Buffer.from(`${companyId}+${publicKey}:${privateKey}`).toString('base64')}`, clientId },
  });
  if (!response.ok) throw new Error(`ConnectWise GET ${path} answered ${response.status}`);
  return response.json();
}

/** An Autotask request sent without the adapter (a GET, or a POST query with `body`). */
export async function rawAutotask(sim: TSimulator, path: string, body?: unknown): Promise<unknown> {
  const { username, secret, integrationCode } = sim.autotask;
  const response = await fetch(`${sim.url}/ATServicesRest/V1.0${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { UserName: username, Secret: secret, ApiIntegrationCode: integrationCode, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`Autotask ${path} answered ${response.status}`);
  return response.json();
}
