import { PsaError, redactSecrets } from '../errors';
import type { RequestBudget } from './budget';
import type { TPsaClock } from './clock';
import { backoffDelayMs, parseRetryAfterMs, type TRetryPolicy } from './retry';

export type THttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface THttpRequest {
  method: THttpMethod;
  url: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** Groups requests for the per-endpoint concurrency limit (Autotask counts threads per entity). */
  endpointKey: string;
}

export interface THttpResponse {
  status: number;
  headers: Headers;
  body: unknown;
}

export interface TSendOptions<T> {
  /**
   * Set for creates: when a create's outcome is unknown (timeout, dropped connection, 5xx) this looks
   * the record up by its idempotency key before anything is sent again, so retries never duplicate.
   */
  findExisting?: () => Promise<T | null>;
}

export interface THttpTransportOptions {
  fetch: typeof fetch;
  clock: TPsaClock;
  timeoutMs: number;
  retry: TRetryPolicy;
  budget: RequestBudget;
  tenantKey: string;
  /** Values that must never appear in an error message. */
  secrets: readonly string[];
  authHeaders: () => Record<string, string>;
  /** Turns a non-2xx response into the PSA's typed error. */
  mapError: (response: THttpResponse) => PsaError;
  random?: () => number;
}

type TAttemptOutcome =
  | { type: 'response'; response: THttpResponse }
  | { type: 'network'; reason: string };

/** The shared HTTP core of both adapters: budget, timeout, retries with backoff and safe create recovery. */
export class HttpTransport {
  private sentRequests = 0;

  constructor(private readonly options: THttpTransportOptions) {}

  requestCount(): number {
    return this.sentRequests;
  }

  async send<T>(request: THttpRequest, parse: (response: THttpResponse) => T, sendOptions: TSendOptions<T> = {}): Promise<T> {
    const { retry, clock } = this.options;
    const isCreate = request.method === 'POST' && sendOptions.findExisting !== undefined;
    let lastError: PsaError | null = null;
    for (let attempt = 0; attempt < retry.maxAttempts; attempt += 1) {
      if (attempt > 0 && isCreate && lastError?.kind === 'unavailable' && sendOptions.findExisting) {
        const existing = await sendOptions.findExisting();
        if (existing !== null) return existing;
      }
      const outcome = await this.attempt(request);
      let waitMs: number;
      if (outcome.type === 'network') {
        lastError = new PsaError('unavailable', `The PSA did not answer (${outcome.reason}).`);
        waitMs = backoffDelayMs(attempt, retry, this.options.random);
      } else if (outcome.response.status >= 200 && outcome.response.status < 300) {
        return parse(outcome.response);
      } else {
        const mapped = this.options.mapError(outcome.response);
        lastError = new PsaError(mapped.kind, redactSecrets(mapped.message, this.options.secrets), {
          status: mapped.status,
          fieldMessages: mapped.fieldMessages,
          psaCode: mapped.psaCode,
          retryAfterSeconds: mapped.retryAfterSeconds,
        });
        if (mapped.kind !== 'unavailable' && mapped.kind !== 'rate_limited') throw lastError;
        const retryAfterMs = parseRetryAfterMs(outcome.response.headers.get('retry-after'), clock.now());
        if (retryAfterMs !== null && retryAfterMs > retry.maxRetryAfterMs) throw lastError;
        waitMs = retryAfterMs ?? backoffDelayMs(attempt, retry, this.options.random);
      }
      if (attempt + 1 < retry.maxAttempts) await clock.sleep(waitMs);
    }
    if (isCreate && lastError?.kind === 'unavailable' && sendOptions.findExisting) {
      const existing = await sendOptions.findExisting();
      if (existing !== null) return existing;
    }
    throw lastError ?? new PsaError('unavailable', 'The PSA did not answer.');
  }

  private async attempt(request: THttpRequest): Promise<TAttemptOutcome> {
    const release = await this.options.budget.acquire(this.options.tenantKey, request.endpointKey);
    const timeout = AbortSignal.timeout(this.options.timeoutMs);
    try {
      this.sentRequests += 1;
      const headers: Record<string, string> = { ...this.options.authHeaders(), ...request.headers };
      if (request.body !== undefined) headers['Content-Type'] = 'application/json';
      const response = await this.options.fetch(request.url, {
        method: request.method,
        headers,
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
        signal: timeout,
        redirect: 'manual',
      });
      const text = await response.text();
      return { type: 'response', response: { status: response.status, headers: response.headers, body: parseBody(text) } };
    } catch (error) {
      const reason = timeout.aborted ? `no answer within ${this.options.timeoutMs} ms` : describeNetworkError(error);
      return { type: 'network', reason: redactSecrets(reason, this.options.secrets) };
    } finally {
      release();
    }
  }
}

function parseBody(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function describeNetworkError(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return `${error.message}${cause}`;
  }
  return 'network error';
}
