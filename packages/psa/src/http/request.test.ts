import { describe, expect, it } from 'vitest';
import { mapConnectWiseError } from '../connectwise/connectwise-http';
import { PsaError } from '../errors';
import { RequestBudget } from './budget';
import { createFakeClock } from './fake-clock';
import { HttpTransport } from './request';
import { defaultRetryPolicy } from './retry';

type TScripted = { status: number; body?: unknown; headers?: Record<string, string> } | 'drop';

function scriptedFetch(script: TScripted[]) {
  const calls: { url: string; method: string; headers: Record<string, string> }[] = [];
  const fetchImpl: typeof fetch = (input, init) => {
    calls.push({ url: input instanceof Request ? input.url : input.toString(), method: init?.method ?? 'GET', headers: (init?.headers ?? {}) as Record<string, string> });
    const next = script.shift() ?? { status: 200, body: [] };
    if (next === 'drop') return Promise.reject(new TypeError('fetch failed', { cause: new Error('other side closed') }));
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

  it('looks a create up by its idempotency key before sending it again', async () => {
    const { fetchImpl, calls } = scriptedFetch(['drop']);
    const { transport } = transportFor(fetchImpl);
    let lookups = 0;
    const created = await transport.send({ ...get, method: 'POST', body: { summary: 's' } }, () => 'fresh', {
      findExisting: () => {
        lookups += 1;
        return Promise.resolve('found-after-drop');
      },
    });
    expect(created).toBe('found-after-drop');
    expect(lookups).toBe(1);
    expect(calls).toHaveLength(1);
  });

  it('sends a create again only when the lookup finds nothing', async () => {
    const { fetchImpl, calls } = scriptedFetch([{ status: 500 }, { status: 201, body: { id: 9 } }]);
    const { transport } = transportFor(fetchImpl);
    const created = await transport.send({ ...get, method: 'POST' }, (response) => response.body, { findExisting: () => Promise.resolve(null) });
    expect(created).toEqual({ id: 9 });
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
