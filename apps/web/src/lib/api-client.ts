import type { z } from 'zod';
import { CSRF_HEADER, MESSAGES, ZProblem } from '@switchboard/contracts';

export type TInvalidParam = { name: string; reason: string };

/** A failed API call: the server's problem+json, or code `network` when no answer arrived. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly detail: string;
  readonly flags: Record<string, unknown>;
  readonly invalidParams: TInvalidParam[];
  readonly requestId: string | null;

  constructor(init: {
    status: number;
    code: string;
    detail: string;
    flags?: Record<string, unknown>;
    invalidParams?: TInvalidParam[];
    requestId?: string | null;
  }) {
    super(init.detail);
    this.name = 'ApiError';
    this.status = init.status;
    this.code = init.code;
    this.detail = init.detail;
    this.flags = init.flags ?? {};
    this.invalidParams = init.invalidParams ?? [];
    this.requestId = init.requestId ?? null;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

export type TQueryValue = string | number | boolean | null | undefined;

export type TApiFetchOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** A plain value is sent as JSON; FormData is sent as multipart. */
  body?: unknown;
  query?: Record<string, TQueryValue>;
  signal?: AbortSignal;
};

export function buildApiUrl(path: string, query?: Record<string, TQueryValue>): string {
  if (!query) return path;
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) search.set(key, String(value));
  }
  const queryString = search.toString();
  if (queryString === '') return path;
  return `${path}${path.includes('?') ? '&' : '?'}${queryString}`;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function toApiError(status: number, body: unknown, fallbackText: string): ApiError {
  const problem = ZProblem.safeParse(body);
  if (problem.success) {
    return new ApiError({
      status,
      code: problem.data.code,
      detail: problem.data.detail,
      flags: problem.data.flags,
      invalidParams: problem.data.invalidParams,
      requestId: problem.data.requestId,
    });
  }
  // A proxy or a crashed upstream can answer without problem+json; keep what it said.
  const detail = typeof body === 'string' && body.trim() !== '' ? body.trim().slice(0, 300) : fallbackText;
  return new ApiError({ status, code: status >= 500 ? 'internal' : 'unknown', detail });
}

/**
 * Calls the Switchboard API with the session cookie and the CSRF header, parses the JSON answer,
 * validates it with `schema` when given, and throws `ApiError` on any failure.
 */
export async function apiFetch<TSchema extends z.ZodType>(
  path: string,
  options: TApiFetchOptions & { schema: TSchema },
): Promise<z.infer<TSchema>>;
export async function apiFetch<TResult = unknown>(path: string, options?: TApiFetchOptions): Promise<TResult>;
export async function apiFetch(
  path: string,
  options: TApiFetchOptions & { schema?: z.ZodType } = {},
): Promise<unknown> {
  const headers: Record<string, string> = { [CSRF_HEADER]: '1', accept: 'application/json' };
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) {
    body = options.body;
  } else if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }

  let response: Response;
  try {
    response = await fetch(buildApiUrl(path, options.query), {
      method: options.method ?? (body === undefined ? 'GET' : 'POST'),
      headers,
      body,
      credentials: 'include',
      signal: options.signal,
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw new ApiError({ status: 0, code: 'network', detail: MESSAGES.networkError });
  }

  const parsed = await readBody(response);
  if (!response.ok) throw toApiError(response.status, parsed, response.statusText || `HTTP ${response.status}`);
  if (!options.schema) return parsed;
  const result = options.schema.safeParse(parsed);
  if (!result.success) {
    throw new ApiError({ status: response.status, code: 'invalid_response', detail: MESSAGES.unexpectedResponse });
  }
  return result.data;
}
