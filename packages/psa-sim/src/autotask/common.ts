import { matchesAutotaskFilterWith, parseAutotaskQuery, readFieldCaseInsensitive } from '../autotask-filter';
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

/** Marks a field the fast accessor cannot answer, so the presented item is consulted. */
export const AT_SLOW_FIELD = Symbol('at-slow-field');

/** Rows of one entity; `fastField` answers common filter fields (lower-cased) without rendering the item. */
export interface TAtSource<TRow> {
  rows: Iterable<TRow>;
  id: (row: TRow) => number;
  present: (row: TRow) => TAtRecord;
  fastField?: (row: TRow, lowerField: string) => unknown;
}

function recordSource(rows: Iterable<TAtRecord>): TAtSource<TAtRecord> {
  return { rows, id: (row) => Number(row.id), present: (row) => row };
}

function matchingRows<TRow>(source: TAtSource<TRow>, token: TPagingToken): TRow[] {
  const matches: TRow[] = [];
  for (const row of source.rows) {
    const id = source.id(row);
    if (token.afterId !== undefined && id <= token.afterId) continue;
    if (token.beforeId !== undefined && id >= token.beforeId) continue;
    let presented: TAtRecord | undefined;
    const resolve = (field: string): unknown => {
      if (source.fastField) {
        const value = source.fastField(row, field.toLowerCase());
        if (value !== AT_SLOW_FIELD) return value;
      }
      presented ??= source.present(row);
      return readFieldCaseInsensitive(presented, field);
    };
    if (token.query.filter.every((filter) => matchesAutotaskFilterWith(resolve, filter))) matches.push(row);
  }
  return matches;
}

/** Runs a query: results in id order, at most MaxRecords (≤500) per page, with full next/prev page URLs carrying a paging token. */
export function querySourceResponse<TRow>(request: TSimRequest, entityPath: string, fields: TAtFieldDefinition[], source: TAtSource<TRow>): TSimResponse {
  const token = readQuery(request);
  if (isResponse(token)) return token;
  const unknown = unknownFields(token.query, fields);
  if (unknown.length > 0) return atErrors(500, `Unable to find ${unknown.join(', ')} in the ${entityPath} entity.`);
  const pageSize = token.query.maxRecords ?? AT_MAX_RECORDS;
  const matches = matchingRows(source, token);
  matches.sort((left, right) => source.id(left) - source.id(right));
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
  const nextPageUrl = hasMore && last !== undefined ? pageUrl({ query: token.query, afterId: source.id(last) }, 'next') : null;
  const prevPageUrl = hasPrevious && first !== undefined ? pageUrl({ query: token.query, beforeId: source.id(first) }, 'prev') : null;
  return json(200, {
    items: page.map((row) => project(source.present(row), token.query.includeFields)),
    pageDetails: { count: page.length, requestCount: pageSize, prevPageUrl, nextPageUrl },
  });
}

export function queryResponse(request: TSimRequest, entityPath: string, fields: TAtFieldDefinition[], rows: Iterable<TAtRecord>): TSimResponse {
  return querySourceResponse(request, entityPath, fields, recordSource(rows));
}

export function countQuerySourceResponse<TRow>(request: TSimRequest, entityPath: string, fields: TAtFieldDefinition[], source: TAtSource<TRow>): TSimResponse {
  const token = readQuery(request);
  if (isResponse(token)) return token;
  const unknown = unknownFields(token.query, fields);
  if (unknown.length > 0) return atErrors(500, `Unable to find ${unknown.join(', ')} in the ${entityPath} entity.`);
  return json(200, { queryCount: matchingRows(source, { query: token.query }).length });
}

export function countQueryResponse(request: TSimRequest, entityPath: string, fields: TAtFieldDefinition[], rows: Iterable<TAtRecord>): TSimResponse {
  return countQuerySourceResponse(request, entityPath, fields, recordSource(rows));
}

/** Reads a body property regardless of case, as Autotask binds JSON properties case-insensitively. */
export function bodyField(body: Record<string, unknown>, name: string): unknown {
  return readFieldCaseInsensitive(body, name);
}

export { isResponse };
