import { matchesAutotaskFilters, parseAutotaskQuery, readFieldCaseInsensitive } from '../autotask-filter';
import type { TAutotaskQuery } from '../autotask-filter';
import type { TSimContext } from '../context';
import { headerValue, json } from '../http';
import type { TSimRequest, TSimResponse } from '../http';

export const AT_API_PREFIX = '/ATServicesRest/V1.0';
export const AT_MAX_RECORDS = 500;

export type TAtRecord = Record<string, unknown>;

export function atErrors(status: number, ...messages: string[]): TSimResponse {
  return json(status, { errors: messages });
}

/** Autotask dates: ISO 8601 in UTC with milliseconds. */
export function atDate(time: number | null): string | null {
  return time === null ? null : new Date(time).toISOString();
}

/** The three headers every call but zone discovery needs (psa-apis.md §3.2); header names are case-insensitive. */
export function authenticateAutotask(context: TSimContext, request: TSimRequest): TSimResponse | null {
  const expected = context.credentials.autotask;
  const username = headerValue(request.headers, 'username') ?? '';
  const secret = headerValue(request.headers, 'secret') ?? '';
  const integrationCode = headerValue(request.headers, 'apiintegrationcode') ?? '';
  if (integrationCode === '') return atErrors(401, 'The ApiIntegrationCode header is required.');
  if (username.toLowerCase() !== expected.username.toLowerCase() || secret !== expected.secret) {
    return atErrors(401, 'Unauthorized: the UserName and Secret do not match an active API user.');
  }
  if (integrationCode !== expected.integrationCode) return atErrors(401, 'Unauthorized: the ApiIntegrationCode is not valid for this API user.');
  return null;
}

export interface TAtFieldDefinition {
  name: string;
  dataType: 'integer' | 'long' | 'string' | 'datetime' | 'boolean' | 'double' | 'short';
  length?: number;
  isRequired?: boolean;
  isReadOnly?: boolean;
  referenceEntityType?: string;
  picklist?: (context: TSimContext) => TAtPicklistValue[];
  picklistParentValueField?: string;
}

export interface TAtPicklistValue {
  value: string;
  label: string;
  isDefaultValue: boolean;
  sortOrder: number;
  parentValue: string;
  isActive: boolean;
  isSystem: boolean;
}

export function picklistValue(value: number, label: string, sortOrder: number, extra: Partial<TAtPicklistValue> = {}): TAtPicklistValue {
  return { value: String(value), label, isDefaultValue: false, sortOrder, parentValue: '', isActive: true, isSystem: false, ...extra };
}

export function presentFieldDefinitions(context: TSimContext, fields: TAtFieldDefinition[]): TAtRecord {
  return {
    fields: fields.map((field) => ({
      name: field.name,
      dataType: field.dataType,
      length: field.length ?? 0,
      isRequired: field.isRequired === true,
      isReadOnly: field.isReadOnly === true,
      isQueryable: true,
      isReference: field.referenceEntityType !== undefined,
      referenceEntityType: field.referenceEntityType ?? '',
      isPickList: field.picklist !== undefined,
      picklistValues: field.picklist ? field.picklist(context) : null,
      picklistParentValueField: field.picklistParentValueField ?? '',
      isSupportedWebhookField: true,
    })),
  };
}

interface TPagingToken {
  query: TAutotaskQuery;
  afterId?: number;
  beforeId?: number;
}

function encodeToken(token: TPagingToken): string {
  return Buffer.from(JSON.stringify(token), 'utf8').toString('base64url');
}

function decodeToken(text: string): TPagingToken | null {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (typeof parsed !== 'object' || parsed === null || !('query' in parsed)) return null;
    const candidate = parsed as { query: unknown; afterId?: unknown; beforeId?: unknown };
    const query = parseAutotaskQuery(candidate.query);
    if (!query.ok) return null;
    return {
      query: query.query,
      afterId: typeof candidate.afterId === 'number' ? candidate.afterId : undefined,
      beforeId: typeof candidate.beforeId === 'number' ? candidate.beforeId : undefined,
    };
  } catch {
    return null;
  }
}

/** Reads a query from a POST body, `?search=` JSON, or a paging token from a nextPageUrl/prevPageUrl. */
export function readQuery(request: TSimRequest): TPagingToken | TSimResponse {
  const paging = request.url.searchParams.get('paging');
  if (paging !== null) {
    const token = decodeToken(paging);
    return token ?? atErrors(500, 'The paging token is not valid.');
  }
  const search = request.url.searchParams.get('search');
  let body: unknown = request.body;
  if (search !== null) {
    try {
      body = JSON.parse(search);
    } catch {
      return atErrors(500, 'The search parameter is not valid JSON.');
    }
  } else if (request.hasInvalidJson) return atErrors(500, 'The request body is not valid JSON.');
  const parsed = parseAutotaskQuery(body);
  return parsed.ok ? { query: parsed.query } : atErrors(500, parsed.message);
}

function isResponse(value: unknown): value is TSimResponse {
  return typeof value === 'object' && value !== null && 'status' in value && typeof value.status === 'number';
}

function unknownFields(query: TAutotaskQuery, fields: TAtFieldDefinition[]): string[] {
  const known = new Set(fields.map((field) => field.name.toLowerCase()));
  const names: string[] = [];
  const visit = (filters: TAutotaskQuery['filter']): void => {
    for (const filter of filters) {
      if ('items' in filter) visit(filter.items);
      else if (filter.udf !== true && !known.has(filter.field.toLowerCase())) names.push(filter.field);
    }
  };
  visit(query.filter);
  for (const field of query.includeFields ?? []) if (!known.has(field.toLowerCase())) names.push(field);
  return names;
}

function project(record: TAtRecord, includeFields: string[] | undefined): TAtRecord {
  if (!includeFields || includeFields.length === 0) return record;
  const projected: TAtRecord = { id: record.id };
  for (const field of includeFields) {
    const key = Object.keys(record).find((candidate) => candidate.toLowerCase() === field.toLowerCase());
    if (key !== undefined) projected[key] = record[key];
  }
  return projected;
}

/** Runs a query: results in id order, at most MaxRecords (≤500) per page, with full next/prev page URLs carrying a paging token. */
export function queryResponse(request: TSimRequest, entityPath: string, fields: TAtFieldDefinition[], rows: Iterable<TAtRecord>): TSimResponse {
  const token = readQuery(request);
  if (isResponse(token)) return token;
  const unknown = unknownFields(token.query, fields);
  if (unknown.length > 0) return atErrors(500, `Unable to find ${unknown.join(', ')} in the ${entityPath} entity.`);
  const pageSize = token.query.maxRecords ?? AT_MAX_RECORDS;
  const matches: TAtRecord[] = [];
  for (const row of rows) {
    const id = Number(row.id);
    if (token.afterId !== undefined && id <= token.afterId) continue;
    if (token.beforeId !== undefined && id >= token.beforeId) continue;
    if (matchesAutotaskFilters(row, token.query.filter)) matches.push(row);
  }
  matches.sort((left, right) => Number(left.id) - Number(right.id));
  const page = token.beforeId !== undefined ? matches.slice(Math.max(0, matches.length - pageSize)) : matches.slice(0, pageSize);
  const first = page[0];
  const last = page[page.length - 1];
  const pageUrl = (next: TPagingToken, direction: 'next' | 'prev'): string => {
    const url = new URL(`${AT_API_PREFIX}/${entityPath}/query/${direction}`, request.origin);
    url.searchParams.set('paging', encodeToken(next));
    return url.toString();
  };
  const hasMore = token.beforeId !== undefined ? true : matches.length > page.length;
  const hasPrevious = token.beforeId !== undefined ? matches.length > page.length : token.afterId !== undefined;
  const nextPageUrl = hasMore && last ? pageUrl({ query: token.query, afterId: Number(last.id) }, 'next') : null;
  const prevPageUrl = hasPrevious && first ? pageUrl({ query: token.query, beforeId: Number(first.id) }, 'prev') : null;
  return json(200, {
    items: page.map((row) => project(row, token.query.includeFields)),
    pageDetails: { count: page.length, requestCount: pageSize, prevPageUrl, nextPageUrl },
  });
}

export function countQueryResponse(request: TSimRequest, entityPath: string, fields: TAtFieldDefinition[], rows: Iterable<TAtRecord>): TSimResponse {
  const token = readQuery(request);
  if (isResponse(token)) return token;
  const unknown = unknownFields(token.query, fields);
  if (unknown.length > 0) return atErrors(500, `Unable to find ${unknown.join(', ')} in the ${entityPath} entity.`);
  let queryCount = 0;
  for (const row of rows) if (matchesAutotaskFilters(row, token.query.filter)) queryCount += 1;
  return json(200, { queryCount });
}

/** Reads a body property regardless of case, as Autotask binds JSON properties case-insensitively. */
export function bodyField(body: Record<string, unknown>, name: string): unknown {
  return readFieldCaseInsensitive(body, name);
}

export { isResponse };
