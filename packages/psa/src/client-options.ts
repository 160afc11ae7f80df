import type { RequestBudget } from './http/budget';
import type { TPsaClock } from './http/clock';
import type { TRetryPolicy } from './http/retry';

/** What every adapter can be given; tests inject fetch, clock and randomness to stay fast and deterministic. */
export interface TPsaClientOptions {
  /** The tenant (MSP) this client acts for; budgets are shared by every client with the same key. */
  tenantKey: string;
  fetch?: typeof fetch;
  clock?: TPsaClock;
  timeoutMs?: number;
  retry?: Partial<TRetryPolicy>;
  budget?: RequestBudget;
  random?: () => number;
  /**
   * Called with every base URL before credentials are sent to it (the site, zone-discovery and discovered API
   * URLs), so the server can refuse private or loopback addresses (SSRF guard); throw to refuse.
   */
  assertUrlAllowed?: (url: string) => Promise<void>;
}

export const defaultTimeoutMs = 20_000;
