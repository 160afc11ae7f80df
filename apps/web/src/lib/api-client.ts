import type { z } from 'zod';
import { CSRF_HEADER, CORE_MESSAGES } from '@switchboard/contracts';
import type * as TSchemaModule from './schemas';

/** The module of every schema the browser validates with (lib/schemas.ts), loaded on first use. */
export type TSchemas = typeof TSchemaModule;

let schemasLoading: Promise<TSchemas> | undefined;
/** Loads zod and the schemas once, the first time an answer is validated (issue #6 §5: not on the sign-in route's first load). */
export function loadSchemas(): Promise<TSchemas> {
  schemasLoading ??= import('./schemas').catch((cause: unknown) => {
    // A failed chunk load (e.g. offline) is tried again next time.
    schemasLoading = undefined;
    throw cause;
  });
  return schemasLoading;
}

/** Picks the schema an answer must match from the lazily loaded schema module: `(s) => s.ZRoleList`. */
export type TSchemaPicker<TSchema extends z.ZodType = z.ZodType> = (schemas: TSchemas) => TSchema;

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

/** The text a failed call shows: the API error's `detail` (the spec's exact string), or the generic message for anything else. */
export function errorDetail(error: unknown): string {
  return isApiError(error) ? error.detail : CORE_MESSAGES.unexpectedError;
}

export type TQueryValue = string | number | boolean | null | undefined;

export type TApiFetchOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** A plain value is sent as JSON; FormData is sent as multipart. */
  body?: unknown;
  query?: Record<string, TQueryValue>;
  /** Extra request headers (e.g. the MSP sign-up's bootstrap token); the CSRF header is always sent. */
  headers?: Record<string, string>;
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

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function readInvalidParams(value: unknown): TInvalidParam[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item) => (isRecord(item) && typeof item.name === 'string' && typeof item.reason === 'string' ? [{ name: item.name, reason: item.reason }] : []));
}

/**
 * The problem+json fields an error shows (DESIGN §3). Read by hand rather than with ZProblem so a
 * failed sign-in never waits for the schema chunk.
 */
function toApiError(status: number, body: unknown, fallbackText: string): ApiError {
  if (isRecord(body) && typeof body.code === 'string' && typeof body.detail === 'string') {
    return new ApiError({
      status,
      code: body.code,
      detail: body.detail,
      flags: isRecord(body.flags) ? body.flags : {},
      invalidParams: readInvalidParams(body.invalidParams),
      requestId: typeof body.requestId === 'string' ? body.requestId : null,
    });
  }
  // A proxy or a crashed upstream can answer without problem+json; keep what it said.
  const detail = typeof body === 'string' && body.trim() !== '' ? body.trim().slice(0, 300) : fallbackText;
  return new ApiError({ status, code: status >= 500 ? 'internal' : 'unknown', detail });
}

type TRefusalListener = (error: ApiError) => void;
const refusalListeners = new Set<TRefusalListener>();

/**
 * Subscribes to every answer the server refused (an error status: a 401 `unauthenticated` when the session expired
 * or was revoked, a 403 `forbidden` when a permission was taken away, …); the call still throws. The listener
 * branches on the code. Returns the unsubscribe.
 */
export function onRefusal(listener: TRefusalListener): () => void {
  refusalListeners.add(listener);
  return () => {
    refusalListeners.delete(listener);
  };
}

/**
 * Calls the Switchboard API with the session cookie and the CSRF header, parses the JSON answer,
 * validates it with the schema `schema` picks when given, and throws `ApiError` on any failure.
 * The schema module loads while the request is under way.
 */
export async function apiFetch<TSchema extends z.ZodType>(
  path: string,
  options: TApiFetchOptions & { schema: TSchemaPicker<TSchema> },
): Promise<z.infer<TSchema>>;
export async function apiFetch<TResult = unknown>(path: string, options?: TApiFetchOptions): Promise<TResult>;
export async function apiFetch(
  path: string,
  options: TApiFetchOptions & { schema?: TSchemaPicker } = {},
): Promise<unknown> {
  const schemas = options.schema ? loadSchemas() : undefined;
  // Awaited only on success; a failed call must not leave a rejected load unhandled.
  schemas?.catch(() => undefined);
  const headers: Record<string, string> = { ...options.headers, [CSRF_HEADER]: '1', accept: 'application/json' };
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
    throw new ApiError({ status: 0, code: 'network', detail: CORE_MESSAGES.networkError });
  }

  const parsed = await readBody(response);
  if (!response.ok) {
    const error = toApiError(response.status, parsed, response.statusText || `HTTP ${response.status}`);
    for (const listener of refusalListeners) listener(error);
    throw error;
  }
  if (!options.schema || !schemas) return parsed;
  const result = options.schema(await schemas).safeParse(parsed);
  if (!result.success) {
    throw new ApiError({ status: response.status, code: 'invalid_response', detail: CORE_MESSAGES.unexpectedResponse });
  }
  return result.data;
}
