import type { FaultController, RateLimiter, ThreadLimiter } from './faults';
import type { SimStore } from './store';

export interface TConnectWiseCredentials {
  companyId: string;
  publicKey: string;
  privateKey: string;
  clientId: string;
}

export interface TAutotaskCredentials {
  username: string;
  secret: string;
  integrationCode: string;
}

export const DEMO_CREDENTIALS: { connectWise: TConnectWiseCredentials; autotask: TAutotaskCredentials } = {
  connectWise: { companyId: 'northwind', publicKey: 'SimPublicKey1', privateKey: 'SimPrivateKey1', clientId: '00000000-0000-4000-8000-000000000001' },
  autotask: { username: 'api@northwind.sim', secret: 'SimSecret1', integrationCode: 'SIMINTEGRATIONCODE1' },
};

export interface TSimStats {
  requests: number;
  byPath: Map<string, number>;
  creates: number;
  webhookDeliveries: number;
}

export interface TSimContext {
  store: SimStore;
  credentials: typeof DEMO_CREDENTIALS;
  faults: FaultController;
  rateLimiter: RateLimiter;
  threadLimiter: ThreadLimiter;
  stats: TSimStats;
  /** Arrival times of Autotask API calls in the last hour, for ThresholdInformation. */
  autotaskCallTimes: number[];
  /** Signs Autotask webhooks that were created without a secretKey. */
  webhookSecret: string;
  now: () => number;
}

export function countCreate(context: TSimContext): void {
  context.stats.creates += 1;
}
