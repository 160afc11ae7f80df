import { PsaError, redactSecrets } from '../errors';
import type { RequestBudget } from './budget';
import { currentPsaDeadline, remainingPsaDeadlineMs, type TPsaCallDeadline } from './call-deadline';
import type { TPsaClock } from './clock';
import type { TPsaResend } from '../psa-client';
import { backoffDelayMs, parseRetryAfterMs, type TRetryPolicy } from './retry';

export type THttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

interface THttpRequestBase {
  url: string;
  /** Sent as JSON; a FormData is sent as multipart/form-data (fetch writes the boundary into its Content-Type). */
  body?: unknown;
  headers?: Record<string, string>;
  /** Groups requests for the per-endpoint concurrency limit (Autotask counts threads per entity). */
  endpointKey: string;
}

/**
 * A request that may be sent again whatever became of the first attempt: a read (GET, or an Autotask query, which is
 * a POST that changes nothing) or a write that sets values (PATCH/PUT with the same body lands the same way twice).
 */
export type TRepeatableRequest = THttpRequestBase & ({ method: 'GET' | 'PATCH' | 'PUT' | 'DELETE' } | { method: 'POST'; isQuery: true });

/** A POST that creates a record: sending it twice creates two, so it goes through `HttpTransport.create`. */
export type TCreateRequest = THttpRequestBase & { method: 'POST' };

export type THttpRequest = TRepeatableRequest | TCreateRequest;

export interface THttpResponse {
  status: number;
  headers: Headers;
  body: unknown;
}

/**
 * Looks a create's record up by its natural key (name in its parent, external reference); null when it is not there.
 * `createdSince` is the earliest creation date (the PSA's) a record of this very write can carry: a lookup by content
 * (a note's text, a contact's name) takes nothing older, so an earlier identical record is never taken for this one.
 * A lookup by a key only this write has (an external id we set) may ignore it.
 */
export type TFindExisting<T> = (createdSince: Date) => Promise<T | null>;

/**
 * How far the PSA's clock may be behind ours when `createdSince` is compared with the dates it gives its records
 * (ConnectWise also drops the milliseconds). Too short, a resend would miss its own record and add a second; too long,
 * an identical record made just before the write could be taken for it.
 */
export const psaClockSkewMs = 2 * 60_000;

export interface TCreateOptions {
  /**
   * Look the record up before the first send too, every time: only for creates whose lookup finds this write's own
   * record, not an identical one someone made before (by the idempotency key it carries; create-options.ts lists them).
   * A durable outbox may send such a write again after an earlier call threw, and finding it beats creating a second.
   */
  lookUpFirst?: boolean;
  /**
   * This call sends again a write an earlier call may have created (TPsaResend): the record is looked up before the
   * first send, and `createdSince` goes back to when the write was first tried. Absent, it is the call's own start.
   */
  resend?: TPsaResend | null;
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
  /** `wasSent` is false only when the connection was refused or the host not found, so the PSA never saw the request. */
  | { type: 'network'; reason: string; wasSent: boolean };

/** Network failures that happen before a single byte reaches the PSA. */
const notSentCodes = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

/**
 * The shared HTTP core of both adapters: budget, timeout, retries with backoff and safe create recovery.
 *
 * Retry rule: a 429, or a connection refused before sending, is retried as it is. Any other failure after the request
 * may have reached the PSA (a 5xx, a timeout, a dropped connection) leaves its outcome unknown: a repeatable request is
 * sent again, and a create is sent again only after its lookup shows it did not land (the found record is returned).
 */
export class HttpTransport {
  private sentRequests = 0;

  constructor(private readonly options: THttpTransportOptions) {}

  requestCount(): number {
    return this.sentRequests;
  }

  /** Sends a read or an idempotent write, retrying what can safely be retried. */
  send<T>(request: TRepeatableRequest, parse: (response: THttpResponse) => T): Promise<T> {
    return this.run(request, parse, null);
  }

  /** Sends a create; when its outcome is unknown, `findExisting` decides between returning the record and sending again. */
  create<T>(request: TCreateRequest, parse: (response: THttpResponse) => T, findExisting: TFindExisting<T>, options: TCreateOptions = {}): Promise<T> {
    const resend = options.resend ?? null;
    const triedMsAgo = resend !== null && Number.isFinite(resend.firstTriedMsAgo) ? Math.max(0, resend.firstTriedMsAgo) : 0;
    const createdSince = new Date(this.options.clock.now() - triedMsAgo - psaClockSkewMs);
    return this.run(request, parse, () => findExisting(createdSince), options.lookUpFirst === true || resend !== null);
  }

  private async run<T>(request: THttpRequest, parse: (response: THttpResponse) => T, findExisting: (() => Promise<T | null>) | null, isLandedAlreadyPossible = false): Promise<T> {
    const { retry, clock } = this.options;
    let lastError: PsaError | null = null;
    let isOutcomeUnknown = isLandedAlreadyPossible;
    const deadline = currentPsaDeadline();
    for (let attempt = 0; attempt < retry.maxAttempts; attempt += 1) {
      if (remainingPsaDeadlineMs(deadline) <= 0) throw deadlinePassed(deadline, lastError);
      if (isOutcomeUnknown && findExisting) {
        const existing = await this.lookUp(findExisting);
        if (existing !== null) return existing;
      }
      const outcome = await this.attempt(request, deadline);
      let waitMs: number;
      if (outcome.type === 'network') {
        lastError = new PsaError('unavailable', `The PSA did not answer (${outcome.reason}).`);
        if (outcome.wasSent) isOutcomeUnknown = true;
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
        // A rate-limited request was refused unprocessed; an unavailable one may have been processed before failing.
        if (mapped.kind === 'unavailable') isOutcomeUnknown = true;
        const retryAfterMs = parseRetryAfterMs(outcome.response.headers.get('retry-after'), clock.now());
        if (retryAfterMs !== null && retryAfterMs > retry.maxRetryAfterMs) throw lastError;
        waitMs = retryAfterMs ?? backoffDelayMs(attempt, retry, this.options.random);
      }
      if (attempt + 1 >= retry.maxAttempts) break;
      // No wait that would outlast the call's deadline: the caller (the outbox) tries again later, looking a create up first.
      if (waitMs >= remainingPsaDeadlineMs(deadline)) throw deadlinePassed(deadline, lastError);
      await clock.sleep(waitMs);
    }
    if (isOutcomeUnknown && findExisting) {
      const existing = await this.lookUp(findExisting);
      if (existing !== null) return existing;
    }
    throw lastError ?? new PsaError('unavailable', 'The PSA did not answer.');
  }

  /** A failed lookup leaves the create's outcome unknown, so nothing is sent again; the caller sees unavailable. */
  private async lookUp<T>(findExisting: () => Promise<T | null>): Promise<T | null> {
    try {
      return await findExisting();
    } catch (error) {
      const reason = error instanceof Error ? `: ${redactSecrets(error.message, this.options.secrets)}` : '';
      throw new PsaError('unavailable', `The PSA did not confirm the create, and checking whether it was made failed${reason}`, { cause: error });
    }
  }

  private async attempt(request: THttpRequest, deadline: TPsaCallDeadline | undefined): Promise<TAttemptOutcome> {
    let release: () => void;
    try {
      release = await this.options.budget.acquire(this.options.tenantKey, request.endpointKey, deadline?.signal);
    } catch {
      // The deadline passed while waiting for the tenant's budget: nothing was sent.
      return { type: 'network', reason: `the call's ${String(deadline?.milliseconds ?? 0)} ms ran out before it was sent`, wasSent: false };
    }
    const timeout = AbortSignal.timeout(this.options.timeoutMs);
    const signal = deadline ? AbortSignal.any([timeout, deadline.signal]) : timeout;
    try {
      this.sentRequests += 1;
      const headers: Record<string, string> = { ...this.options.authHeaders(), ...request.headers };
      if (request.body !== undefined && !(request.body instanceof FormData)) headers['Content-Type'] = 'application/json';
      const response = await this.options.fetch(request.url, {
        method: request.method,
        headers,
        body: request.body === undefined ? undefined : request.body instanceof FormData ? request.body : JSON.stringify(request.body),
        signal,
        redirect: 'manual',
      });
      const text = await response.text();
      return { type: 'response', response: { status: response.status, headers: response.headers, body: parseBody(text) } };
    } catch (error) {
      const isDeadlinePassed = deadline?.signal.aborted === true;
      const reason = timeout.aborted
        ? `no answer within ${this.options.timeoutMs} ms`
        : isDeadlinePassed
          ? `no answer within the call's ${String(deadline.milliseconds)} ms`
          : describeNetworkError(error);
      return { type: 'network', reason: redactSecrets(reason, this.options.secrets), wasSent: timeout.aborted || isDeadlinePassed || !isNotSent(error) };
    } finally {
      release();
    }
  }
}

/** The call ran out of time: unavailable (so retried later), naming what the PSA last answered. */
function deadlinePassed(deadline: TPsaCallDeadline | undefined, lastError: PsaError | null): PsaError {
  const last = lastError ? ` Last answer: ${lastError.message}` : '';
  return new PsaError('unavailable', `The PSA did not finish within ${String(deadline?.milliseconds ?? 0)} ms.${last}`, {
    status: lastError?.status ?? null,
    retryAfterSeconds: lastError?.retryAfterSeconds ?? null,
  });
}

/** True when fetch failed before the request left (connection refused, unknown host); undici puts the code on `cause`. */
function isNotSent(error: unknown): boolean {
  const cause = error instanceof Error ? error.cause : undefined;
  const codes = [codeOf(cause), ...(cause instanceof AggregateError ? cause.errors.map(codeOf) : [])].filter((code): code is string => code !== null);
  return codes.length > 0 && codes.every((code) => notSentCodes.has(code));
}

function codeOf(value: unknown): string | null {
  if (value === null || typeof value !== 'object' || !('code' in value)) return null;
  return typeof value.code === 'string' ? value.code : null;
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
