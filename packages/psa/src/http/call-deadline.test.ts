import { describe, expect, it } from 'vitest';
import { mapConnectWiseError } from '../connectwise/connectwise-http';
import { RequestBudget } from './budget';
import { runWithPsaDeadline } from './call-deadline';
import { createFakeClock } from './fake-clock';
import { HttpTransport } from './request';
import { defaultRetryPolicy } from './retry';

// Issue #10: the outbox sends each PSA write under one deadline ending before the row's lease, so a
// slow or rate-limiting PSA never keeps a send alive after another worker may have taken the row over.

function transportWith(fetchImpl: typeof fetch, timeoutMs = 10_000) {
  const clock = createFakeClock();
  const transport = new HttpTransport({
    fetch: fetchImpl,
    clock,
    timeoutMs,
    retry: defaultRetryPolicy,
    budget: new RequestBudget({ requestsPerWindow: 1000, windowMs: 1000, concurrentPerEndpoint: 3 }, clock),
    tenantKey: 'msp-1',
    secrets: [],
    authHeaders: () => ({}),
    mapError: mapConnectWiseError,
    random: () => 1,
  });
  return { transport, clock };
}

const get = { method: 'GET' as const, url: 'https://psa.test/x', endpointKey: 'x' };
const post = { method: 'POST' as const, url: 'https://psa.test/x', endpointKey: 'x', body: { text: 'note' } };

/** A PSA that never answers: the request ends only when its signal aborts. */
const hangingFetch: typeof fetch = (_input, init) =>
  new Promise((_resolve, reject) => {
    init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')), { once: true });
  });

describe('runWithPsaDeadline', () => {
  it('aborts a request the PSA does not answer when the deadline passes, well before the request timeout', async () => {
    const { transport } = transportWith(hangingFetch, 10_000);
    const started = Date.now();
    const error = await runWithPsaDeadline(80, () => transport.send(get, () => 'never')).catch((caught: unknown) => caught);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(error).toMatchObject({ kind: 'unavailable', message: expect.stringMatching(/within 80 ms/) as unknown });
  });

  it('does not wait out a Retry-After longer than what is left of the deadline', async () => {
    let calls = 0;
    const limited: typeof fetch = () => {
      calls += 1;
      return Promise.resolve(new Response(null, { status: 429, headers: { 'Retry-After': '30' } }));
    };
    const { transport, clock } = transportWith(limited);
    const error = await runWithPsaDeadline(5_000, () => transport.send(get, () => 'never')).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: 'unavailable', message: expect.stringMatching(/did not finish within 5000 ms/) as unknown, retryAfterSeconds: 30 });
    expect(calls).toBe(1);
    expect(clock.sleeps).toEqual([]);
  });

  it('sends a create whose earlier outcome was unknown only after looking it up, even when time runs out', async () => {
    let posts = 0;
    const dropping: typeof fetch = () => {
      posts += 1;
      return Promise.reject(new TypeError('fetch failed', { cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }) }));
    };
    const { transport } = transportWith(dropping);
    let lookups = 0;
    // 200 ms: the first backoff (250 ms with random() = 1) does not fit, so the call ends after one send.
    const error = await runWithPsaDeadline(200, () =>
      transport.create(post, () => 'never', () => {
        lookups += 1;
        return Promise.resolve(null);
      }),
    ).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: 'unavailable' });
    expect(posts).toBe(1);
    expect(lookups).toBe(0);
  });

  it('leaves calls without a deadline as they were, and an inner longer deadline cannot extend an outer one', async () => {
    const { transport } = transportWith(() => Promise.resolve(new Response(JSON.stringify({ ok: 1 }), { status: 200 })));
    await expect(transport.send(get, (response) => response.body)).resolves.toEqual({ ok: 1 });
    const hanging = transportWith(hangingFetch, 10_000).transport;
    const started = Date.now();
    await expect(runWithPsaDeadline(60, () => runWithPsaDeadline(60_000, () => hanging.send(get, () => 'never')))).rejects.toMatchObject({ kind: 'unavailable' });
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
