import { z } from 'zod';
import { PsaError } from '../errors';
import type { HttpTransport, THttpResponse, TRepeatableRequest } from '../http/request';
import { parsePsaPayload, resolveSameOrigin } from '../http/parse';
import { streamPages } from '../http/pages';
import type { TAutotaskFilter } from './filters';

export const autotaskMaxPageSize = 500;

export function autotaskAuthHeaders(username: string, secret: string, integrationCode: string, impersonationResourceId?: number): Record<string, string> {
  const headers: Record<string, string> = { ApiIntegrationCode: integrationCode, UserName: username, Secret: secret, Accept: 'application/json' };
  if (impersonationResourceId !== undefined) headers.ImpersonationResourceId = String(impersonationResourceId);
  return headers;
}

const ZErrorBody = z.object({ errors: z.array(z.string()).nullish() });

const validationMessagePattern =
  /does not reference|is required|are required|unable to find|must|not valid|invalid|cannot|can not|when assigning|does not exist|not allowed|could not be determined|exceeds|too long/i;

const threadLimitPattern = /thread|Itgenatr005|concurrent/i;

/** Maps Autotask's statuses and `{errors: string[]}` body to a PsaError kind. */
export function mapAutotaskError(response: THttpResponse): PsaError {
  const parsed = ZErrorBody.safeParse(response.body);
  const messages = parsed.success ? (parsed.data.errors ?? []) : [];
  const options = { status: response.status, fieldMessages: messages.map((message) => ({ field: fieldNamedIn(message), message })) };
  const { status } = response;
  const summary = messages.join(' ');
  if (status === 401) return new PsaError('bad_keys', 'Autotask rejected the API username, secret or integration code.', options);
  if (status === 403) return new PsaError('bad_keys', "The Autotask API user's security level does not allow this.", options);
  if (status === 404) return new PsaError('not_found', summary || 'Autotask has no such record.', options);
  if (status === 429 || threadLimitPattern.test(summary)) {
    const retryAfter = Number(response.headers.get('retry-after'));
    return new PsaError('rate_limited', 'Autotask is limiting requests; try again shortly.', {
      ...options,
      // At most a day: a larger ask (1e13 s) made the outbox's next try an invalid date.
      retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter > 0 ? Math.min(retryAfter, 86_400) : null,
    });
  }
  // Autotask reports validation and permission problems as 500 too; only those messages are final, the rest are retried.
  if (status === 500 && messages.some((message) => validationMessagePattern.test(message))) {
    return new PsaError('validation', summary, options);
  }
  if (status >= 500) return new PsaError('unavailable', summary ? `Autotask answered ${status}: ${summary}` : `Autotask answered ${status}.`, options);
  // A 408 says the server (or a gateway before it) stopped waiting, not that it refused: the request may have been
  // carried out, so it is retried as a 5xx is (a create looked up first). Autotask documents no 409; like the other
  // 4xx, a conflict is a refusal another attempt would not change.
  if (status === 408) return new PsaError('unavailable', 'Autotask timed out on the request (408); it may or may not have been carried out.', options);
  return new PsaError('validation', summary || `Autotask refused the request (${status}).`, options);
}

/** Autotask's messages name the field at the end ("… for taskType ."), which is all the structure they carry. */
function fieldNamedIn(message: string): string | null {
  const match = /\bfor (?:field )?'?([A-Za-z][A-Za-z0-9]*)'?\s*\.?\s*$/.exec(message) ?? /^'?([A-Za-z][A-Za-z0-9]*)'? is required/i.exec(message);
  return match?.[1] ?? null;
}

const ZQueryPage = z.object({
  items: z.array(z.unknown()),
  pageDetails: z.object({ nextPageUrl: z.string().nullish() }).nullish(),
});

export interface TAutotaskQueryOptions {
  filter: TAutotaskFilter[];
  includeFields?: string[];
}

/**
 * Streams every record of `{entity}/query`, 500 per page, following `pageDetails.nextPageUrl`; `readAhead` pages may be
 * requested before the caller reaches them (http/pages.ts: the same requests, for callers that read to the end).
 */
export function streamAutotaskRows(transport: HttpTransport, apiBase: string, entity: string, query: TAutotaskQueryOptions, readAhead = 0): AsyncGenerator<unknown> {
  const body = { filter: query.filter, IncludeFields: query.includeFields, MaxRecords: autotaskMaxPageSize };
  const first: { link: string | null } = { link: null };
  // The first page is the query (a POST); the next-page URL carries the search and paging state itself (a GET), and is
  // checked when it is followed (after the rows of the page that sent it).
  const fetchPage = async (ref: { link: string | null }) => {
    const request: TRepeatableRequest =
      ref.link === null
        ? { method: 'POST', isQuery: true, url: `${apiBase}/${entity}/query`, body, endpointKey: entity }
        : { method: 'GET', url: resolveSameOrigin(ref.link, apiBase), endpointKey: entity };
    const page = await transport.send(request, (response) => parsePsaPayload(ZQueryPage, response.body, `${entity} page`));
    const link = page.pageDetails?.nextPageUrl;
    return { rows: page.items, next: link ? { link } : null };
  };
  return streamPages(first, fetchPage, readAhead);
}

export async function listAutotaskRows(transport: HttpTransport, apiBase: string, entity: string, query: TAutotaskQueryOptions): Promise<unknown[]> {
  const rows: unknown[] = [];
  for await (const row of streamAutotaskRows(transport, apiBase, entity, query)) rows.push(row);
  return rows;
}
