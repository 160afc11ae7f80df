import { z } from 'zod';
import { PsaError, type TPsaFieldMessage } from '../errors';
import type { HttpTransport, THttpResponse } from '../http/request';
import { appendQuery, parsePsaPayload, resolveSameOrigin } from '../http/parse';
import { Condition } from './conditions';
import { connectWiseMaxPageSize, parseNextLink } from './paging';
import { streamPages, type TPage } from '../http/pages';

export const connectWiseApiVersion = '2025.16';

export function connectWiseAuthHeaders(companyId: string, publicKey: string, privateKey: string, clientId: string, apiVersion: string): Record<string, string> {
  const basic = Buffer.from(`${companyId}+${publicKey}:${privateKey}`, 'utf8').toString('base64');
  return {
    Authorization: `Basic ${basic}`,
    clientId,
    Accept: `application/vnd.connectwise.com+json; version=${apiVersion}`,
  };
}

const ZCompanyInfo = z.object({ Codebase: z.string().min(1) }).nullable();

/** Normalises what an admin types ("na.myconnectwise.net", "https://host/") into an origin. */
export function normaliseSiteUrl(siteUrl: string): string {
  const withScheme = /^https?:\/\//i.test(siteUrl.trim()) ? siteUrl.trim() : `https://${siteUrl.trim()}`;
  return new URL(withScheme).origin;
}

/** Asks the site which codebase serves this company (`/login/companyinfo/{companyId}`) and returns the API base. */
export async function discoverConnectWiseApiBase(
  transport: HttpTransport,
  siteUrl: string,
  companyId: string,
  assertUrlAllowed: (url: string) => Promise<void>,
): Promise<string> {
  const origin = normaliseSiteUrl(siteUrl);
  await assertUrlAllowed(origin);
  const info = await transport.send(
    { method: 'GET', url: `${origin}/login/companyinfo/${encodeURIComponent(companyId)}`, endpointKey: 'login/companyinfo' },
    (response) => parsePsaPayload(ZCompanyInfo, response.body, 'company info'),
  );
  if (info === null) throw new PsaError('bad_keys', 'ConnectWise does not know this company id on that site.');
  const codebase = info.Codebase.replace(/^\/+|\/+$/g, '');
  return `${origin}/${codebase}/apis/3.0`;
}

const ZCwErrorBody = z.object({
  code: z.string().optional(),
  message: z.string().optional(),
  errors: z
    .array(z.object({ code: z.string().nullish(), message: z.string().nullish(), field: z.string().nullish(), resource: z.string().nullish() }))
    .nullish(),
});

/** Maps ConnectWise's statuses and `{code, message, errors[]}` body to a PsaError kind. */
export function mapConnectWiseError(response: THttpResponse): PsaError {
  const parsed = ZCwErrorBody.safeParse(response.body);
  const body = parsed.success ? parsed.data : null;
  const psaCode = body?.code ?? null;
  const psaMessage = body?.message ?? (typeof response.body === 'string' ? response.body.slice(0, 300) : null);
  const fieldMessages: TPsaFieldMessage[] = (body?.errors ?? []).map((error) => ({
    field: error.field ?? null,
    message: error.message ?? error.code ?? 'invalid',
  }));
  const options = { status: response.status, psaCode, fieldMessages };
  const { status } = response;
  if (status === 401) return new PsaError('bad_keys', 'ConnectWise rejected the API keys.', options);
  if (status === 403) return new PsaError('bad_keys', "The ConnectWise API member's security role does not allow this.", options);
  if (status === 404 && typeof response.body === 'string' && /cannot route/i.test(response.body)) {
    return new PsaError('bad_keys', 'ConnectWise could not route this company id and codebase.', options);
  }
  if (status === 404) return new PsaError('not_found', psaMessage ?? 'ConnectWise has no such record.', options);
  if (status === 429) {
    const retryAfter = Number(response.headers.get('retry-after'));
    return new PsaError('rate_limited', 'ConnectWise is limiting requests; try again shortly.', {
      ...options,
      // At most a day: a larger ask (1e13 s) made the outbox's next try an invalid date.
      retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter > 0 ? Math.min(retryAfter, 86_400) : null,
    });
  }
  if (status >= 500) return new PsaError('unavailable', `ConnectWise answered ${status}.`, options);
  // A 408 says the server (or a gateway before it) stopped waiting, not that it refused: the request may have been
  // carried out, so it is retried as a 5xx is (a create looked up first). A 409 (conflict, record in use,
  // psa-apis.md §1.6) and the other 4xx are refusals another attempt would not change.
  if (status === 408) return new PsaError('unavailable', 'ConnectWise timed out on the request (408); it may or may not have been carried out.', options);
  return new PsaError('validation', psaMessage ?? `ConnectWise refused the request (${status}).`, options);
}

export interface TConnectWiseListQuery {
  /** Query parameters of the endpoint's own, e.g. `system/documents`' recordType and recordId. */
  params?: Record<string, string | number>;
  conditions?: Condition;
  childConditions?: Condition;
  orderBy?: string;
  fields?: string;
}

/** Reads a JSON body as an array of rows. */
export function rowsOf(response: THttpResponse): unknown[] {
  if (!Array.isArray(response.body)) throw new PsaError('unavailable', 'ConnectWise sent a list that is not an array.');
  return response.body as unknown[];
}

/**
 * Streams every row of a list endpoint, 1000 per page; `readAhead` pages may be requested before the caller reaches them
 * (http/pages.ts: the same requests, for callers that read to the end).
 *
 * A list in id order (the default, `orderBy=id asc`) is read by keyset: each next page is the same conditions AND
 * `id > <last id of the page before>`, page 1. Page numbers would count rows of a list that changes while it is read:
 * a row leaving the conditions between two pages (a ticket moved to another board) shifts the later rows down one
 * place and an unchanged row is skipped; one entering shifts them up and a row comes twice (psa-apis.md §1.4,
 * "Pitfall"). Read-ahead keeps its meaning: a page is asked for once the page before it has arrived, which is when
 * its last id is known, so with `readAhead` N the next N pages are still fetched while the caller reads this one.
 * Lists in another order (a board's statuses by sortOrder, a lookup newest first) are short and keep page numbers.
 */
export function streamConnectWiseRows(transport: HttpTransport, apiBase: string, path: string, query: TConnectWiseListQuery = {}, readAhead = 0): AsyncGenerator<unknown> {
  const orderBy = query.orderBy ?? 'id asc';
  return isIdAscending(orderBy) ? streamRowsByIdKeyset(transport, apiBase, path, query, readAhead) : streamRowsByPageNumber(transport, apiBase, path, { ...query, orderBy }, readAhead);
}

function isIdAscending(orderBy: string): boolean {
  return /^\s*id(\s+asc)?\s*$/i.test(orderBy);
}

function streamRowsByIdKeyset(transport: HttpTransport, apiBase: string, path: string, query: TConnectWiseListQuery, readAhead: number): AsyncGenerator<unknown> {
  const urlAfter = (afterId: number | null) => {
    const after = afterId === null ? undefined : Condition.compare('id', '>', afterId);
    const conditions = query.conditions && after ? Condition.and(query.conditions, after) : (query.conditions ?? after);
    return appendQuery(`${apiBase}${path}`, {
      ...query.params,
      conditions: conditions?.toString(),
      childConditions: query.childConditions?.toString(),
      orderBy: 'id asc',
      fields: query.fields,
      page: 1,
      pageSize: connectWiseMaxPageSize,
    });
  };
  const fetchPage = (afterId: number | null): Promise<TPage<number | null>> =>
    transport.send({ method: 'GET', url: urlAfter(afterId), endpointKey: path }, (response) => {
      const rows = rowsOf(response);
      // The server's Link header says whether more rows follow (its URL is not needed: the next page is `id > last`);
      // without one (older servers) a full page may have a successor and a short or empty page is the end.
      const link = response.headers.get('link');
      const hasMore = rows.length > 0 && (link === null ? rows.length === connectWiseMaxPageSize : parseNextLink(link) !== null);
      if (!hasMore) return { rows, next: null };
      const lastId = idOfRow(rows[rows.length - 1]);
      if (lastId === null) throw new PsaError('unavailable', `ConnectWise sent a ${path} row without an id, so the rows after it cannot be asked for.`);
      // A server that ignored the id condition would answer the same page for ever.
      if (afterId !== null && lastId <= afterId) throw new PsaError('unavailable', `ConnectWise answered ${path} rows after id ${afterId} with rows up to id ${lastId} only; paging stopped.`);
      return { rows, next: lastId };
    });
  return streamPages<number | null>(null, fetchPage, readAhead);
}

function idOfRow(row: unknown): number | null {
  if (typeof row !== 'object' || row === null || !('id' in row)) return null;
  const { id } = row;
  return typeof id === 'number' && Number.isSafeInteger(id) ? id : null;
}

function streamRowsByPageNumber(transport: HttpTransport, apiBase: string, path: string, query: TConnectWiseListQuery, readAhead: number): AsyncGenerator<unknown> {
  const first = {
    url: appendQuery(`${apiBase}${path}`, {
      ...query.params,
      conditions: query.conditions?.toString(),
      childConditions: query.childConditions?.toString(),
      orderBy: query.orderBy,
      fields: query.fields,
      page: 1,
      pageSize: connectWiseMaxPageSize,
    }),
    pageNumber: 1,
  };
  // A page's `link` is checked when it is followed (after the rows of the page that sent it), as before read-ahead.
  const fetchPage = async (ref: { url: string; pageNumber: number; link?: string }) => {
    const url = ref.link === undefined ? ref.url : resolveSameOrigin(ref.link, apiBase);
    return transport.send({ method: 'GET', url, endpointKey: path }, (response) => {
      const rows = rowsOf(response);
      const link = parseNextLink(response.headers.get('link'));
      const pageNumber = ref.pageNumber + 1;
      if (link !== null) return { rows, next: { url, pageNumber, link } };
      // Without a Link header a full page may still have a successor (older servers); a short page is the end.
      return { rows, next: rows.length === connectWiseMaxPageSize ? { url: appendQuery(url, { page: pageNumber }), pageNumber } : null };
    });
  };
  return streamPages(first, fetchPage, readAhead);
}

export async function listConnectWiseRows(transport: HttpTransport, apiBase: string, path: string, query: TConnectWiseListQuery = {}): Promise<unknown[]> {
  const rows: unknown[] = [];
  for await (const row of streamConnectWiseRows(transport, apiBase, path, query)) rows.push(row);
  return rows;
}
