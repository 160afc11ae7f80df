import { AutotaskClient, type TAutotaskConfig } from './autotask/autotask-adapter';
import type { TPsaClientOptions } from './client-options';
import { ConnectWiseClient, type TConnectWiseConfig } from './connectwise/connectwise-adapter';
import type { PsaClient } from './psa-client';

export type TPsaConfig = TConnectWiseConfig | TAutotaskConfig;

/** Builds the adapter for a tenant's PSA; pass a shared `budget` so every client of a tenant draws on one allowance. */
export function createPsaClient(config: TPsaConfig, options: TPsaClientOptions): PsaClient {
  return config.psaType === 'connectwise' ? new ConnectWiseClient(config, options) : new AutotaskClient(config, options);
}

export type * from './psa-client';
export type { TPsaClientOptions } from './client-options';
export type { TConnectWiseConfig } from './connectwise/connectwise-adapter';
export type { TAutotaskConfig } from './autotask/autotask-adapter';
export { requireCapability } from './capabilities';
export { PsaError, isPsaError, type TPsaErrorKind, type TPsaFieldMessage } from './errors';
export { RequestBudget, autotaskBudgetLimits, connectWiseBudgetLimits, type TBudgetLimits } from './http/budget';
export { systemClock, type TPsaClock } from './http/clock';
export { runWithPsaDeadline } from './http/call-deadline';
export type { TRetryPolicy } from './http/retry';
