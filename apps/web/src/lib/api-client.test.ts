import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { MESSAGES } from '@switchboard/contracts';
import { ApiError, apiFetch, buildApiUrl, errorDetail, onRefusal } from './api-client';

function respondWith(status: number, body: unknown, contentType = 'application/problem+json') {
  const fetchMock = vi.fn(async () => new Response(typeof body === 'string' ? body : JSON.stringify(body), { status, headers: { 'content-type': contentType } }));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

afterEach(() => vi.unstubAllGlobals());

describe('apiFetch', () => {
  it('sends the CSRF header and the session cookie on every request, and JSON bodies as JSON', async () => {
    const fetchMock = respondWith(200, { ok: true }, 'application/json');
    await apiFetch('/db/northwind/roles/create', { method: 'POST', body: { name: 'Dispatcher' } });
    await apiFetch('/auth/api/auth/microsoft-user');
    for (const call of fetchMock.mock.calls as unknown as Array<[string, RequestInit]>) {
      const [, init] = call;
      expect(init.credentials).toBe('include');
      expect((init.headers as Record<string, string>)['x-switchboard-csrf']).toBe('1');
    }
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/db/northwind/roles/create');
    expect(init.method).toBe('POST');
    expect(init.body).toBe('{"name":"Dispatcher"}');
    expect((init.headers as Record<string, string>)['content-type']).toBe('application/json');
  });

  it('sends FormData as multipart without forcing a JSON content type', async () => {
    const fetchMock = respondWith(201, { mspCustomDomain: 'acme' }, 'application/json');
    const form = new FormData();
    form.set('mspName', 'Acme');
    await apiFetch('/db/msp', { method: 'POST', body: form });
    const [, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(init.body).toBe(form);
    expect((init.headers as Record<string, string>)['content-type']).toBeUndefined();
  });

  it('throws ApiError carrying the problem+json status, code, detail, flags and request id', async () => {
    respondWith(401, {
      type: 'about:blank',
      title: 'Unauthorized',
      status: 401,
      detail: MESSAGES.invalidCredentials,
      code: 'invalid_credentials',
      requestId: 'req-42',
      flags: { emailCheck: true },
      invalidParams: [{ name: 'password', reason: 'wrong' }],
    });
    const error = await apiFetch('/db/northwind/technicianUsers/signin', { method: 'POST', body: {} }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 401,
      code: 'invalid_credentials',
      detail: 'Invalid username or password.',
      flags: { emailCheck: true },
      requestId: 'req-42',
      invalidParams: [{ name: 'password', reason: 'wrong' }],
    });
  });

  it('turns a non-problem error body into an ApiError that keeps the text', async () => {
    respondWith(502, 'Bad gateway from proxy', 'text/plain');
    await expect(apiFetch('/health')).rejects.toMatchObject({ status: 502, code: 'internal', detail: 'Bad gateway from proxy', flags: {} });
  });

  it('reports a network failure as ApiError code "network"', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    await expect(apiFetch('/health')).rejects.toMatchObject({ status: 0, code: 'network', detail: MESSAGES.networkError });
  });

  it('validates the answer with the given schema', async () => {
    respondWith(200, { deleted: 'yes' }, 'application/json');
    await expect(apiFetch('/x', { schema: () => z.object({ deleted: z.literal(true) }) })).rejects.toMatchObject({ code: 'invalid_response' });
    respondWith(200, { deleted: true }, 'application/json');
    await expect(apiFetch('/x', { schema: () => z.object({ deleted: z.literal(true) }) })).resolves.toEqual({ deleted: true });
  });
});

describe('buildApiUrl', () => {
  it('adds defined query values and skips empty ones', () => {
    expect(buildApiUrl('/db/x/roles/delete', { id: 'a b', skip: undefined, none: null })).toBe('/db/x/roles/delete?id=a+b');
    expect(buildApiUrl('/db/x', {})).toBe('/db/x');
  });
});

describe('errorDetail', () => {
  it("shows an API error's detail, and the generic message for anything else", () => {
    expect(errorDetail(new ApiError({ status: 409, code: 'conflict', detail: 'That name is taken.' }))).toBe('That name is taken.');
    expect(errorDetail(new ApiError({ status: 0, code: 'network', detail: MESSAGES.networkError }))).toBe(MESSAGES.networkError);
    expect(errorDetail(new Error('boom'))).toBe(MESSAGES.unexpectedError);
    expect(errorDetail('boom')).toBe(MESSAGES.unexpectedError);
    expect(errorDetail(null)).toBe(MESSAGES.unexpectedError);
  });
});

// Bug: a session that ended mid-work was never noticed; every action only said "Please sign in.".
describe('onRefusal', () => {
  const problemOf = (status: number, code: string, detail: string) => ({ type: 'about:blank', title: code, status, detail, code, requestId: 'req-1' });

  it('tells its listeners of a 401 `unauthenticated` answer, and the call still throws it', async () => {
    const listener = vi.fn();
    const stop = onRefusal(listener);
    respondWith(401, problemOf(401, 'unauthenticated', MESSAGES.sessionRequired));
    const error = await apiFetch('/db/northwind/roles').catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 401, code: 'unauthenticated', detail: MESSAGES.sessionRequired });
    expect(listener).toHaveBeenCalledTimes(1);
    expect(listener).toHaveBeenCalledWith(error);
    stop();
    await apiFetch('/db/northwind/roles').catch(() => undefined);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  // Review s29: a 403 now tells the session watcher too (a permission taken away); it branches on the code.
  it('tells of a wrong password and a 403 with their own codes, and of nothing when no answer arrived', async () => {
    const listener = vi.fn<(error: ApiError) => void>();
    const stop = onRefusal(listener);
    respondWith(401, problemOf(401, 'invalid_credentials', MESSAGES.invalidCredentials));
    await apiFetch('/db/northwind/technicianUsers/signin', { method: 'POST', body: {} }).catch(() => undefined);
    respondWith(403, problemOf(403, 'forbidden', MESSAGES.forbidden));
    await apiFetch('/db/northwind/roles').catch(() => undefined);
    expect(listener.mock.calls.map(([error]) => error.code)).toEqual(['invalid_credentials', 'forbidden']);
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    await apiFetch('/db/northwind/roles').catch(() => undefined);
    expect(listener).toHaveBeenCalledTimes(2);
    stop();
  });
});
