import type { TPsaClock } from './clock';

export interface TBudgetLimits {
  /** Requests allowed per window for one tenant. */
  requestsPerWindow: number;
  windowMs: number;
  /** Requests in flight at once for one tenant and endpoint. */
  concurrentPerEndpoint: number;
}

export const autotaskBudgetLimits: TBudgetLimits = {
  // Autotask shares 10,000/hour across every integration of the tenant; keep headroom for the others.
  requestsPerWindow: 8_000,
  windowMs: 3_600_000,
  concurrentPerEndpoint: 3,
};

export const connectWiseBudgetLimits: TBudgetLimits = {
  // ConnectWise publishes no quota; this keeps one tenant from starving the others on the shared server.
  requestsPerWindow: 3_000,
  windowMs: 60_000,
  concurrentPerEndpoint: 6,
};

class TokenBucket {
  private tokens: number;
  private refilledAt: number;

  constructor(
    private readonly capacity: number,
    private readonly refillPerMs: number,
    now: number,
  ) {
    this.tokens = capacity;
    this.refilledAt = now;
  }

  /** Takes a token and returns 0, or returns how long to wait for the next one. */
  take(now: number): number {
    this.tokens = Math.min(this.capacity, this.tokens + (now - this.refilledAt) * this.refillPerMs);
    this.refilledAt = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return 0;
    }
    return Math.ceil((1 - this.tokens) / this.refillPerMs);
  }
}

class Semaphore {
  private inFlight = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  async acquire(): Promise<() => void> {
    if (this.inFlight >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.inFlight += 1;
    let isReleased = false;
    return () => {
      if (isReleased) return;
      isReleased = true;
      this.inFlight -= 1;
      this.waiting.shift()?.();
    };
  }
}

/** Per-tenant token bucket plus per-endpoint semaphore, shared by every client built for that tenant. */
export class RequestBudget {
  private readonly buckets = new Map<string, TokenBucket>();
  private readonly semaphores = new Map<string, Semaphore>();

  constructor(
    private readonly limits: TBudgetLimits,
    private readonly clock: TPsaClock,
  ) {}

  /** Waits for a token and a slot; the returned function frees the slot. */
  async acquire(tenantKey: string, endpointKey: string, signal?: AbortSignal): Promise<() => void> {
    let bucket = this.buckets.get(tenantKey);
    if (!bucket) {
      bucket = new TokenBucket(this.limits.requestsPerWindow, this.limits.requestsPerWindow / this.limits.windowMs, this.clock.now());
      this.buckets.set(tenantKey, bucket);
    }
    for (let waitMs = bucket.take(this.clock.now()); waitMs > 0; waitMs = bucket.take(this.clock.now())) {
      await this.clock.sleep(waitMs, signal);
    }
    const semaphoreKey = `${tenantKey}\u0000${endpointKey}`;
    let semaphore = this.semaphores.get(semaphoreKey);
    if (!semaphore) {
      semaphore = new Semaphore(this.limits.concurrentPerEndpoint);
      this.semaphores.set(semaphoreKey, semaphore);
    }
    return semaphore.acquire();
  }
}
