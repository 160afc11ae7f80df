import { describe, expect, it } from 'vitest';
import { mapConnectWiseError } from '../connectwise/connectwise-http';
import { PsaError } from '../errors';
import { RequestBudget } from './budget';
import { createFakeClock } from './fake-clock';
import { HttpTransport } from './request';
import { defaultRetryPolicy } from './retry';

type TScripted = { status: number; body?: unknown; headers?: Record<string, string> } | 'drop' | 'refused';

function scriptedFetch(script: TScripted[]) {
  const calls: { url: string; method: string; headers: Record<string, string> }[] = [];
  const fetchImpl: typeof fetch = (input, init) => {
    calls.push({ url: input instanceof Request ? input.url : input.toString(), method: init?.method ?? 'GET', headers: (init?.headers ?? {}) as Record<string, string> });
    const next = script.shift() ?? { status: 200, body: [] };
    if (next === 'drop') return Promise.reject(new TypeError('fetch failed', { cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }) }));
    if (next === 'refused') return Promise.reject(new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }) }));
    return Promise.resolve(new Response(next.body === undefined ? null : JSON.stringify(next.body), { status: next.status, headers: next.headers }));
  };
  return { fetchImpl, calls };
}

function transportFor(fetchImpl: typeof fetch, clock = createFakeClock()) {
  const transport = new HttpTransport({
    fetch: fetchImpl,
    clock,
    timeoutMs: 1000,
    retry: defaultRetryPolicy,
    budget: new RequestBudget({ requestsPerWindow: 1000, windowMs: 1000, concurrentPerEndpoint: 3 }, clock),
    tenantKey: 'msp-1',
    secrets: ['private-key-123'],
    authHeaders: () => ({ Authorization: 'Basic c2VjcmV0' }),
    mapError: mapConnectWiseError,
    random: () => 1,
  });
  return { transport, clock };
}

const get = { method: 'GET' as const, url: 'https://psa.test/x', endpointKey: 'x' };

describe('HttpTransport', () => {
  it('waits the Retry-After of a 429 and then succeeds', async () => {
    const { fetchImpl, calls } = scriptedFetch([{ status: 429, headers: { 'Retry-After': '7' } }, { status: 200, body: { ok: 1 } }]);
    const { transport, clock } = transportFor(fetchImpl);
    await expect(transport.send(get, (response) => response.body)).resolves.toEqual({ ok: 1 });
    expect(clock.sleeps).toEqual([7000]);
    expect(calls).toHaveLength(2);
    expect(transport.requestCount()).toBe(2);
  });

  it('retries 5xx and dropped connections with backoff, then reports unavailable', async () => {
    const { fetchImpl, calls } = scriptedFetch([{ status: 502 }, 'drop', { status: 500 }, { status: 503 }]);
    const { transport, clock } = transportFor(fetchImpl);
    await expect(transport.send(get, () => 'never')).rejects.toMatchObject({ kind: 'unavailable' });
    expect(calls).toHaveLength(defaultRetryPolicy.maxAttempts);
    expect(clock.sleeps).toEqual([250, 500, 1000]);
  });

  it('does not retry a validation error and keeps the field messages', async () => {
    const body = { code: 'InvalidObject', message: 'ticket object is invalid', errors: [{ code: 'MissingRequiredField', message: 'Summary is required.', field: 'summary' }] };
    const { fetchImpl, calls } = scriptedFetch([{ status: 400, body }]);
    const { transport } = transportFor(fetchImpl);
    const error = await transport.send(get, () => 'never').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PsaError);
    expect(error).toMatchObject({ kind: 'validation', fieldMessages: [{ field: 'summary', message: 'Summary is required.' }] });
    expect(calls).toHaveLength(1);
  });

  const post = { method: 'POST' as const, url: 'https://psa.test/x', endpointKey: 'x', body: { summary: 's' } };

  it('looks a create up by its idempotency key before sending it again', async () => {
    const { fetchImpl, calls } = scriptedFetch(['drop']);
    const { transport } = transportFor(fetchImpl);
    let lookups = 0;
    const created = await transport.create(post, () => 'fresh', () => {
      lookups += 1;
      return Promise.resolve('found-after-drop');
    });
    expect(created).toBe('found-after-drop');
    expect(lookups).toBe(1);
    expect(calls).toHaveLength(1);
  });

  it('sends a create again only when the lookup finds nothing', async () => {
    const { fetchImpl, calls } = scriptedFetch([{ status: 502 }, { status: 201, body: { id: 9 } }]);
    const { transport } = transportFor(fetchImpl);
    let lookups = 0;
    const created = await transport.create(post, (response) => response.body, () => {
      lookups += 1;
      return Promise.resolve(null);
    });
    expect(created).toEqual({ id: 9 });
    expect(lookups).toBe(1);
    expect(calls.map((call) => call.method)).toEqual(['POST', 'POST']);
  });

  it('resends a create refused with 429 or a refused connection without a lookup, since the PSA never took it', async () => {
    const { fetchImpl, calls } = scriptedFetch([{ status: 429, headers: { 'Retry-After': '1' } }, 'refused', { status: 201, body: { id: 4 } }]);
    const { transport } = transportFor(fetchImpl);
    let lookups = 0;
    const created = await transport.create(post, (response) => response.body, () => {
      lookups += 1;
      return Promise.resolve(null);
    });
    expect(created).toEqual({ id: 4 });
    expect(lookups).toBe(0);
    expect(calls).toHaveLength(3);
  });

  it('keeps looking up before every resend once an outcome was unknown, and a last time after the final attempt', async () => {
    const { fetchImpl, calls } = scriptedFetch([{ status: 500 }, { status: 429 }, { status: 503 }, 'drop']);
    const { transport } = transportFor(fetchImpl);
    let lookups = 0;
    const created = await transport.create(post, () => 'never', () => {
      lookups += 1;
      return Promise.resolve(lookups === 4 ? 'landed-late' : null);
    });
    expect(created).toBe('landed-late');
    expect(calls).toHaveLength(defaultRetryPolicy.maxAttempts);
    expect(lookups).toBe(4);
  });

  it('looks up before the first send when asked (an outbox resending), and returns what it finds without sending', async () => {
    const { fetchImpl, calls } = scriptedFetch([{ status: 201, body: { id: 5 } }]);
    const { transport } = transportFor(fetchImpl);
    const found = await transport.create(post, () => 'never', () => Promise.resolve('already-there'), { lookUpFirst: true });
    expect(found).toBe('already-there');
    expect(calls).toHaveLength(0);
    const created = await transport.create(post, (response) => response.body, () => Promise.resolve(null), { lookUpFirst: true });
    expect(created).toEqual({ id: 5 });
    expect(calls).toHaveLength(1);
  });

  it('sends nothing more when the lookup itself fails, and says the outcome is unknown', async () => {
    const { fetchImpl, calls } = scriptedFetch([{ status: 502 }]);
    const { transport } = transportFor(fetchImpl);
    const error = await transport.create(post, () => 'never', () => Promise.reject(new PsaError('unavailable', 'lookup down'))).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: 'unavailable', message: expect.stringMatching(/did not confirm the create/) as unknown });
    expect(calls).toHaveLength(1);
  });

  it('repeats an Autotask query (a POST that only reads) after a dropped connection', async () => {
    const { fetchImpl, calls } = scriptedFetch(['drop', { status: 200, body: { items: [] } }]);
    const { transport } = transportFor(fetchImpl);
    await expect(transport.send({ ...post, isQuery: true }, (response) => response.body)).resolves.toEqual({ items: [] });
    expect(calls.map((call) => call.method)).toEqual(['POST', 'POST']);
  });

  it('never puts the secret into an error, even when the PSA echoes it', async () => {
    const { fetchImpl } = scriptedFetch([{ status: 400, body: { code: 'Bad', message: 'key private-key-123 is not valid' } }]);
    const { transport } = transportFor(fetchImpl);
    const error = await transport.send(get, () => 'never').catch((caught: unknown) => caught);
    expect(JSON.stringify(error)).not.toContain('private-key-123');
    expect(String(error)).not.toContain('private-key-123');
  });

  it('gives up with rate_limited when the PSA asks for a wait longer than allowed', async () => {
    const { fetchImpl } = scriptedFetch([{ status: 429, headers: { 'Retry-After': '3600' } }]);
    const { transport } = transportFor(fetchImpl);
    await expect(transport.send(get, () => 'never')).rejects.toMatchObject({ kind: 'rate_limited', retryAfterSeconds: 3600 });
  });
});
