import type { IncomingHttpHeaders } from 'node:http';

export interface TSimRequest {
  method: string;
  url: URL;
  /** The request path as sent (before case folding), without the query string. */
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
  /** True when a body was sent but was not valid JSON. */
  hasInvalidJson: boolean;
  /** The body's bytes as sent (a multipart upload is read from these). */
  rawBody: Buffer;
  /** Scheme, host and port the client used, e.g. http://127.0.0.1:41234. */
  origin: string;
}

export interface TSimResponse {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** A plain-text body (ConnectWise answers some routing failures with text). */
  text?: string;
  /** Set by every ConnectWise list: the rows matching its conditions before paging, which answers `{list}/count`. Not sent. */
  listTotal?: number;
}

export type TRouteHandler = (request: TSimRequest, params: string[]) => TSimResponse | Promise<TSimResponse>;

export interface TRoute {
  method: string;
  /** The path as written, e.g. `/v4_6_release/apis/3.0/service/boards/{id}/statuses`. */
  template: string;
  pattern: RegExp;
  handler: TRouteHandler;
}

/** Builds a case-insensitive route; `{id}` matches digits and `{name}` any path segment. */
export function route(method: string, template: string, handler: TRouteHandler): TRoute {
  const source = template
    .split('/')
    .map((segment) => (segment === '{id}' || segment === '{parentId}' ? '(\\d+)' : segment.startsWith('{') ? '([^/]+)' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return { method, template, pattern: new RegExp(`^${source}/?$`, 'i'), handler };
}

export function matchRoute(routes: TRoute[], method: string, path: string): { route: TRoute; params: string[] } | { isMethodMismatch: boolean } {
  let isMethodMismatch = false;
  for (const candidate of routes) {
    const match = candidate.pattern.exec(path);
    if (!match) continue;
    if (candidate.method !== method) {
      isMethodMismatch = true;
      continue;
    }
    return { route: candidate, params: match.slice(1).map((value) => decodeURIComponent(value)) };
  }
  return { isMethodMismatch };
}

export function json(status: number, body: unknown, headers?: Record<string, string>): TSimResponse {
  return headers ? { status, body, headers } : { status, body };
}

export function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/** Integer path parameter; routes only match digits, so this cannot fail for `{id}` segments. */
export function idParam(params: string[], index = 0): number {
  return Number(params[index] ?? Number.NaN);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
