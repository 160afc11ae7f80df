import {
  autotaskBudgetLimits,
  connectWiseBudgetLimits,
  createPsaClient,
  RequestBudget,
  systemClock,
  type PsaClient,
  type TPsaConfig,
  type TRetryPolicy,
} from '@switchboard/psa';
import type { TAppDeps } from '../../app-deps';
import { decryptSecret } from '../../lib/crypto';
import { assertOutboundUrlAllowed } from '../../lib/ssrf-guard';
import { isIntegrationConfigured } from './integrations.presenter';
import { findIntegration, type TIntegrationRow } from './integrations.repository';
import { ZIntegrationSecrets } from './integrations.schemas';
import { psaNotConfigured } from './psa-errors';
import { createGuardedFetch } from '../../lib/guarded-fetch';

/** Long enough to reuse discovery and picklist caches across a screen's calls, short enough to pick up key changes made elsewhere. */
const CLIENT_CACHE_MS = 5 * 60_000;

export interface TPsaClientProvider {
  /** The signed-in MSP's client, built from its saved integration; 409 psa_not_configured when there is none. */
  forMsp(mspId: string): Promise<PsaClient>;
  /**
   * A client for keys that are not cached (used to verify keys before they are trusted, saved or not yet); `retry`
   * narrows the retries of a call someone waits for (the key check retries once).
   */
  fromIntegration(row: TPsaKeys, options?: { retry?: Partial<TRetryPolicy> }): PsaClient;
  invalidate(mspId: string): void;
}

/** The columns of an integration row a client is built from; typed keys not yet saved have these too. */
export type TPsaKeys = Pick<TIntegrationRow, 'mspId' | 'psaType' | 'settings' | 'secretCiphertext'>;

/** What the provider reads: the keys' encryption, the allow-list, the integration rows, the clock and the retry backoff. */
export type TPsaClientProviderDeps = Pick<TAppDeps, 'config' | 'database' | 'now' | 'psaRetry'>;

function configFromIntegration(deps: Pick<TAppDeps, 'config'>, row: TPsaKeys): TPsaConfig {
  const stored: unknown = JSON.parse(decryptSecret(deps.config.encryptionKey, row.secretCiphertext));
  // The row's psa_type column is authoritative: the demo seed stores the simulator's keys without it.
  const secrets = ZIntegrationSecrets.parse(typeof stored === 'object' && stored !== null ? { ...stored, psaType: row.psaType } : stored);
  if (secrets.psaType === 'CONNECTWISE') {
    const { companyId, psaUrl } = row.settings;
    const clientId = row.settings.clientId ?? deps.config.connectWiseClientId;
    if (!companyId || !psaUrl || !clientId) throw psaNotConfigured();
    return { psaType: 'connectwise', siteUrl: psaUrl, companyId, clientId, publicKey: secrets.publicKey, privateKey: secrets.privateKey };
  }
  const { username, zoneDiscoveryUrl } = row.settings;
  if (!username) throw psaNotConfigured();
  return { psaType: 'autotask', username, secret: secrets.secret, integrationCode: secrets.integrationCode, zoneDiscoveryUrl };
}

/**
 * Built once per app and injected as `deps.psaClients`: the per-tenant request budgets must be
 * shared by every request of that tenant.
 */
export function createPsaClientProvider(deps: TPsaClientProviderDeps): TPsaClientProvider {
  // Keyed by the row's updatedAt as well: keys saved through another replica take effect on the
  // next call here, not after the cache time (issue #11: no state another replica needs).
  const cache = new Map<string, { client: PsaClient; expiresAt: number; updatedAt: number }>();
  const budgets = {
    connectwise: new RequestBudget(connectWiseBudgetLimits, systemClock),
    autotask: new RequestBudget(autotaskBudgetLimits, systemClock),
  };
  const assertUrlAllowed = (url: string) => assertOutboundUrlAllowed(url, { allowList: deps.config.outboundAllowList });
  // Checked again at connect time, so a DNS answer that changes after the URL check cannot reach inside.
  const guardedFetch = createGuardedFetch({ allowList: deps.config.outboundAllowList });

  const fromIntegration = (row: TPsaKeys, options: { retry?: Partial<TRetryPolicy> } = {}): PsaClient => {
    const config = configFromIntegration(deps, row);
    const retry = { ...deps.psaRetry, ...options.retry };
    return createPsaClient(config, { tenantKey: row.mspId, budget: budgets[config.psaType], assertUrlAllowed, fetch: guardedFetch, ...(Object.keys(retry).length > 0 ? { retry } : {}) });
  };

  return {
    fromIntegration,
    async forMsp(mspId) {
      const now = deps.now().getTime();
      const row = await findIntegration(deps.database.db, mspId);
      if (!row || !isIntegrationConfigured(row)) throw psaNotConfigured();
      const cached = cache.get(mspId);
      if (cached && cached.expiresAt > now && cached.updatedAt === row.updatedAt.getTime()) return cached.client;
      const client = fromIntegration(row);
      cache.set(mspId, { client, expiresAt: now + CLIENT_CACHE_MS, updatedAt: row.updatedAt.getTime() });
      return client;
    },
    invalidate(mspId) {
      cache.delete(mspId);
    },
  };
}
