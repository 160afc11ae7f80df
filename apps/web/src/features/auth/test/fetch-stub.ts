import { vi } from 'vitest';

export interface TRecordedCall {
  method: string;
  path: string;
  search: URLSearchParams;
  headers: Headers;
  body: unknown;
}

export type TStubAnswer = { status: number; body?: unknown };
type TStubHandler = TStubAnswer | ((call: TRecordedCall) => TStubAnswer);

/** A problem+json body as the server sends it. */
export function problem(status: number, code: string, detail: string, flags?: Record<string, unknown>): TStubAnswer {
  return { status, body: { type: 'about:blank', title: code, status, detail, code, requestId: 'req-test', ...(flags ? { flags } : {}) } };
}

/**
 * Replaces `fetch` (the network boundary) with answers keyed by "METHOD /path"; every call is
 * recorded, and an unexpected call fails loudly with a 599 so a test cannot pass by accident.
 */
export function stubFetch(handlers: Record<string, TStubHandler>) {
  const calls: TRecordedCall[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost');
      const method = init?.method ?? 'GET';
      const rawBody = init?.body;
      const body = typeof rawBody === 'string' ? (JSON.parse(rawBody) as unknown) : rawBody;
      const call: TRecordedCall = { method, path: url.pathname, search: url.searchParams, headers: new Headers(init?.headers), body };
      calls.push(call);
      const handler = handlers[`${method} ${url.pathname}`];
      const answer = handler === undefined ? { status: 599, body: { unexpected: `${method} ${url.pathname}` } } : typeof handler === 'function' ? handler(call) : handler;
      return Promise.resolve(
        new Response(answer.body === undefined ? '' : JSON.stringify(answer.body), {
          status: answer.status,
          headers: { 'content-type': 'application/json' },
        }),
      );
    }),
  );
  return { calls, callsTo: (method: string, path: string) => calls.filter((call) => call.method === method && call.path === path) };
}
