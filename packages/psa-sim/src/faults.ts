// Deterministic fault injection and rate limiting, so client retry logic can be tested against known failures.

export type TFaultKind = number | 'drop' | 'timeout';

export interface TFaultSettings {
  latencyMs?: number;
  errorRate?: number;
  dropRate?: number;
  /** The Retry-After a 429 fault answers with, in seconds (fractions allowed, for fast tests); default 1. */
  retryAfterSeconds?: number;
}

/**
 * When a fault strikes: 'before' the request is handled (nothing it asked for happens), or 'after' it was handled
 * (its writes landed, then the answer is replaced) — the case a retrying client must not turn into a duplicate.
 */
export type TFaultPhase = 'before' | 'after';

export interface TFailNext {
  kind: TFaultKind;
  count?: number;
  pathPrefix?: string;
  /** Only this exact path (case-insensitive), e.g. a create without the `/query` beside it. */
  path?: string;
  /** Default 'before'. */
  phase?: TFaultPhase;
  /** Only requests with this method (e.g. 'POST'); any method when absent. */
  method?: string;
}

/**
 * Random faults of mixed kinds on the requests one route matches, e.g. 20 % of POSTs under `/time/entries`. A 429 always
 * strikes before the request is handled (a PSA that limits a request does not process it); other kinds strike before or
 * after as `phase` says, 'either' picking one at random per fault.
 */
export interface TRandomFaults {
  /** Share of matching requests that fail, 0 to 1. */
  rate: number;
  /** The kinds drawn from, evenly; default 429, 500, 'timeout' and 'drop'. */
  kinds?: TFaultKind[];
  pathPrefix?: string;
  path?: string;
  method?: string;
  /** Default 'either'. */
  phase?: TFaultPhase | 'either';
}

interface TRandomRule {
  rate: number;
  kinds: TFaultKind[];
  pathPrefix: string | undefined;
  path: string | undefined;
  method: string | undefined;
  phase: TFaultPhase | 'either';
}

export const DEFAULT_RANDOM_FAULT_KINDS: readonly TFaultKind[] = [429, 500, 'timeout', 'drop'];

export type TFaultDecision = ({ kind: 'none' } | { kind: 'status'; status: number } | { kind: 'drop' } | { kind: 'timeout' }) & { phase: TFaultPhase };

interface TQueuedFault {
  kind: TFaultKind;
  remaining: number;
  pathPrefix: string | undefined;
  path: string | undefined;
  phase: TFaultPhase;
  method: string | undefined;
}

/** mulberry32: a tiny seeded PRNG so random faults repeat run to run. */
export function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

export class FaultController {
  latencyMs = 0;
  errorRate = 0;
  dropRate = 0;
  retryAfterSeconds = 1;
  private queue: TQueuedFault[] = [];
  private rules: TRandomRule[] = [];
  private struck = 0;
  private random = createRandom(1);

  set(settings: TFaultSettings): void {
    if (settings.latencyMs !== undefined) this.latencyMs = Math.max(0, settings.latencyMs);
    if (settings.errorRate !== undefined) this.errorRate = Math.min(1, Math.max(0, settings.errorRate));
    if (settings.dropRate !== undefined) this.dropRate = Math.min(1, Math.max(0, settings.dropRate));
    if (settings.retryAfterSeconds !== undefined) this.retryAfterSeconds = Math.max(0, settings.retryAfterSeconds);
  }

  /** Adds a rule of random mixed faults; rules stay until reset(). */
  addRandomFaults(rule: TRandomFaults): void {
    const kinds = rule.kinds && rule.kinds.length > 0 ? [...rule.kinds] : [...DEFAULT_RANDOM_FAULT_KINDS];
    this.rules.push({
      rate: Math.min(1, Math.max(0, rule.rate)),
      kinds,
      pathPrefix: rule.pathPrefix?.toLowerCase(),
      path: rule.path?.toLowerCase(),
      method: rule.method?.toUpperCase(),
      phase: rule.phase ?? 'either',
    });
  }

  /** Faults that struck since the last reset (queued, random and rate-based), so a test can show its faults were real. */
  struckCount(): number {
    return this.struck;
  }

  failNext(fault: TFailNext): void {
    this.queue.push({
      kind: fault.kind,
      remaining: Math.max(1, fault.count ?? 1),
      pathPrefix: fault.pathPrefix?.toLowerCase(),
      path: fault.path?.toLowerCase(),
      phase: fault.phase ?? 'before',
      method: fault.method?.toUpperCase(),
    });
  }

  /** failNext faults not yet used up, so a test can show its fault really struck. */
  pendingCount(): number {
    return this.queue.reduce((total, fault) => total + fault.remaining, 0);
  }

  reset(): void {
    this.latencyMs = 0;
    this.errorRate = 0;
    this.dropRate = 0;
    this.retryAfterSeconds = 1;
    this.queue = [];
    this.rules = [];
    this.struck = 0;
    this.random = createRandom(1);
  }

  /** Decides the fate of one request; queued failNext faults win over random rules, which win over the rates. */
  decide(method: string, path: string): TFaultDecision {
    const decision = this.pick(method.toUpperCase(), path.toLowerCase());
    if (decision.kind !== 'none') this.struck += 1;
    return decision;
  }

  private pick(upperMethod: string, lowerPath: string): TFaultDecision {
    const matches = (fault: { pathPrefix: string | undefined; path: string | undefined; method: string | undefined }): boolean =>
      (fault.pathPrefix === undefined || lowerPath.startsWith(fault.pathPrefix)) && (fault.path === undefined || lowerPath === fault.path) && (fault.method === undefined || fault.method === upperMethod);
    const queued = this.queue.find(matches);
    if (queued) {
      queued.remaining -= 1;
      if (queued.remaining <= 0) this.queue = this.queue.filter((fault) => fault !== queued);
      return faultOf(queued.kind, queued.phase);
    }
    for (const rule of this.rules) {
      if (!matches(rule) || this.random() >= rule.rate) continue;
      const kind = rule.kinds[Math.floor(this.random() * rule.kinds.length)] ?? 500;
      const phase = rule.phase === 'either' ? (this.random() < 0.5 ? 'before' : 'after') : rule.phase;
      return faultOf(kind, kind === 429 ? 'before' : phase);
    }
    if (this.dropRate > 0 && this.random() < this.dropRate) return { kind: 'drop', phase: 'before' };
    if (this.errorRate > 0 && this.random() < this.errorRate) return { kind: 'status', status: 500, phase: 'before' };
    return { kind: 'none', phase: 'before' };
  }
}

function faultOf(kind: TFaultKind, phase: TFaultPhase): TFaultDecision {
  if (kind === 'drop') return { kind: 'drop', phase };
  if (kind === 'timeout') return { kind: 'timeout', phase };
  return { kind: 'status', status: kind, phase };
}

/** A sliding one-minute window per PSA, answering how many seconds until the next request would be allowed. */
export class RateLimiter {
  private perMinute: number | null = null;
  private readonly windows = new Map<string, number[]>();

  constructor(private readonly now: () => number) {}

  configure(limit: { perMinute: number } | false): void {
    this.perMinute = limit === false ? null : Math.max(1, Math.floor(limit.perMinute));
    this.windows.clear();
  }

  reset(): void {
    this.windows.clear();
  }

  /** Returns 0 when the request is allowed (and counts it), else the Retry-After seconds. */
  take(bucket: string): number {
    if (this.perMinute === null) return 0;
    const now = this.now();
    const window = (this.windows.get(bucket) ?? []).filter((time) => time > now - 60_000);
    if (window.length >= this.perMinute) {
      this.windows.set(bucket, window);
      const oldest = window[0] ?? now;
      return Math.max(1, Math.ceil((oldest + 60_000 - now) / 1000));
    }
    window.push(now);
    this.windows.set(bucket, window);
    return 0;
  }
}

/** Autotask's thread limit: at most 3 requests in flight per object endpoint (psa-apis.md §3.9). */
export class ThreadLimiter {
  private readonly inFlight = new Map<string, number>();

  constructor(readonly limit = 3) {}

  tryEnter(endpoint: string): boolean {
    const current = this.inFlight.get(endpoint) ?? 0;
    if (current >= this.limit) return false;
    this.inFlight.set(endpoint, current + 1);
    return true;
  }

  leave(endpoint: string): void {
    const current = this.inFlight.get(endpoint) ?? 0;
    if (current <= 1) this.inFlight.delete(endpoint);
    else this.inFlight.set(endpoint, current - 1);
  }
}
