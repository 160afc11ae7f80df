import { ConditionsSyntaxError, evaluateConditions, parseConditions, resolveObjectPath } from '../conditions-parser';
import type { TConditionNode } from '../conditions-parser';
import type { TSimContext } from '../context';
import { headerValue, isRecord, json } from '../http';
import type { TSimRequest, TSimResponse } from '../http';

export const CW_API_PREFIX = '/v4_6_release/apis/3.0';
export const CW_MAX_PAGE_SIZE = 1000;
const CW_DEFAULT_PAGE_SIZE = 25;

export type TCwRecord = Record<string, unknown>;

export interface TCwValidationError {
  code: string;
  message: string;
  resource: string;
  field: string;
}

export function cwError(status: number, code: string, message: string, errors?: TCwValidationError[]): TSimResponse {
  return json(status, errors ? { code, message, errors } : { code, message });
}

export function cwInvalidObject(resource: string, errors: TCwValidationError[]): TSimResponse {
  return cwError(400, 'InvalidObject', `${resource} object is invalid`, errors);
}

export function cwNotFound(resource: string, id: number): TSimResponse {
  return cwError(404, 'NotFound', `${resource} recordId: ${id} not found.`);
}

/** ConnectWise timestamps carry no milliseconds: 2025-05-27T14:37:38Z. */
export function cwDate(time: number | null): string | undefined {
  return time === null ? undefined : new Date(time).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function cwInfo(createdAt: number, updatedAt: number, updatedBy = 'SimAPI'): Record<string, string> {
  const info: Record<string, string> = { lastUpdated: cwDate(updatedAt) ?? '', updatedBy };
  info.dateEntered = cwDate(createdAt) ?? '';
  info.enteredBy = updatedBy;
  return info;
}

/** Basic `companyId+publicKey:privateKey` plus the clientId header (psa-apis.md §1.2). */
export function authenticateConnectWise(context: TSimContext, request: TSimRequest): TSimResponse | null {
  const expected = context.credentials.connectWise;
  const authorization = headerValue(request.headers, 'authorization') ?? '';
  const match = /^Basic\s+(.+)$/i.exec(authorization.trim());
  const decoded = match?.[1] ? Buffer.from(match[1], 'base64').toString('utf8') : '';
  // The company id is matched case-insensitively, as ConnectWise does at login; the keys are exact.
  const separator = decoded.indexOf(':');
  const [companyId = '', publicKey = ''] = decoded.slice(0, Math.max(0, separator)).split('+');
  const privateKey = decoded.slice(separator + 1);
  const isValid = separator > 0 && companyId.toLowerCase() === expected.companyId.toLowerCase() && publicKey === expected.publicKey && privateKey === expected.privateKey;
  if (!isValid) return cwError(401, 'Unauthorized', 'Authentication failed: invalid company, public key or private key.');
  const clientId = headerValue(request.headers, 'clientid');
  if (!clientId) return cwError(401, 'Unauthorized', 'A clientId header is required. See https://developer.connectwise.com/ClientID');
  if (clientId.toLowerCase() !== expected.clientId.toLowerCase()) return cwError(401, 'Unauthorized', `clientId ${clientId} is not valid.`);
  return null;
}

/** The rules ConnectWise appends to conditions errors (quoted in the connectwise-rest README). */
const CONDITIONS_RULES =
  'String values should be enclosed with double or single quotes; DateTime values should be enclosed in square brackets; numbers should consist of only digits, and optionally a decimal point and a negation sign; boolean values should be indicated with the keywords true or false; null values should be indicated by the keyword null.';

function parseOptionalConditions(source: string | null, name: string): TConditionNode | null | TSimResponse {
  if (source === null || source.trim() === '') return null;
  try {
    return parseConditions(source);
  } catch (error) {
    if (error instanceof ConditionsSyntaxError) {
      return cwError(400, 'InvalidObject', `${name}: ${error.message}. ${CONDITIONS_RULES}`);
    }
    throw error;
  }
}

function isResponse(value: unknown): value is TSimResponse {
  return typeof value === 'object' && value !== null && 'status' in value && typeof value.status === 'number';
}

function childArrayNames(node: TConditionNode, names: Set<string>): Set<string> {
  if (node.kind === 'and' || node.kind === 'or') {
    childArrayNames(node.left, names);
    childArrayNames(node.right, names);
  } else if (node.kind === 'not') childArrayNames(node.operand, names);
  else if (node.kind === 'compare' || node.kind === 'in') {
    const [head] = node.field.split('/');
    if (head) names.add(head);
  }
  return names;
}

/** childConditions hold when one element of the named array satisfies them all, e.g. communicationItems/value. */
function matchesChildConditions(record: TCwRecord, node: TConditionNode): boolean {
  const [arrayName] = [...childArrayNames(node, new Set())];
  if (arrayName === undefined) return true;
  const elements = resolveObjectPath(record, arrayName);
  if (!Array.isArray(elements)) return false;
  return elements.some((element) =>
    evaluateConditions(node, (path) => {
      const [head, ...rest] = path.split('/');
      if (head?.toLowerCase() !== arrayName.toLowerCase() || typeof element !== 'object' || element === null) return undefined;
      return resolveObjectPath(element as TCwRecord, rest.join('/'));
    }),
  );
}

function compareValues(left: unknown, right: unknown): number {
  const isLeftEmpty = left === null || left === undefined;
  const isRightEmpty = right === null || right === undefined;
  if (isLeftEmpty || isRightEmpty) return isLeftEmpty === isRightEmpty ? 0 : isLeftEmpty ? 1 : -1;
  if (typeof left === 'number' && typeof right === 'number') return left - right;
  if (typeof left === 'boolean' && typeof right === 'boolean') return Number(left) - Number(right);
  const text = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));
  return text(left).localeCompare(text(right), 'en', { sensitivity: 'base' });
}

function parseOrderBy(source: string | null): { path: string; direction: 1 | -1 }[] {
  if (!source || source.trim() === '') return [];
  return source.split(',').map((part) => {
    const [path = 'id', direction = 'asc'] = part.trim().split(/\s+/);
    return { path, direction: direction.toLowerCase() === 'desc' ? -1 : 1 };
  });
}

/** Keeps only the listed fields; nested paths (`board/name`) keep the nested value. */
export function selectFields(record: TCwRecord, fields: string[]): TCwRecord {
  const selected: TCwRecord = {};
  for (const field of fields) {
    const segments = field.split('/').filter((segment) => segment !== '');
    const value = resolveObjectPath(record, segments.join('/'));
    if (value === undefined || segments.length === 0) continue;
    let target = selected;
    segments.forEach((segment, index) => {
      if (index === segments.length - 1) {
        target[segment] = value;
        return;
      }
      const next = target[segment];
      if (typeof next === 'object' && next !== null && !Array.isArray(next)) target = next as TCwRecord;
      else {
        const created: TCwRecord = {};
        target[segment] = created;
        target = created;
      }
    });
  }
  return selected;
}

function pageUrl(request: TSimRequest, changes: Record<string, string>): string {
  const url = new URL(request.path, request.origin);
  for (const [key, value] of request.url.searchParams) if (!(key.toLowerCase() in changes)) url.searchParams.append(key, value);
  for (const [key, value] of Object.entries(changes)) url.searchParams.set(key, value);
  return url.toString();
}

function readIntegerParam(request: TSimRequest, name: string): number | undefined | TSimResponse {
  const key = [...request.url.searchParams.keys()].find((candidate) => candidate.toLowerCase() === name.toLowerCase());
  if (key === undefined) return undefined;
  const raw = request.url.searchParams.get(key) ?? '';
  const value = Number(raw);
  if (!Number.isInteger(value)) return cwError(400, 'InvalidObject', `The ${name} parameter must be an integer, not '${raw}'.`);
  return value;
}

function queryParam(request: TSimRequest, name: string): string | null {
  const key = [...request.url.searchParams.keys()].find((candidate) => candidate.toLowerCase() === name.toLowerCase());
  return key === undefined ? null : request.url.searchParams.get(key);
}

/** Marks a field the fast accessor cannot answer, so the full presented record is consulted. */
export const SLOW_FIELD = Symbol('slow-field');

/**
 * Rows of one resource: `present` renders the ConnectWise JSON, and `fastField` answers common condition paths
 * (lower-cased) straight from the row so filtering large tables does not render every row.
 */
export interface TCwSource<TRow> {
  rows: Iterable<TRow>;
  present: (row: TRow) => TCwRecord;
  fastField?: (row: TRow, lowerPath: string) => unknown;
}

type TFilterOverride = { conditions?: string | null; childConditions?: string | null; orderBy?: string | null };

function recordSource(rows: Iterable<TCwRecord>): TCwSource<TCwRecord> {
  return { rows, present: (row) => row };
}

function createResolver<TRow>(source: TCwSource<TRow>, row: TRow): (path: string) => unknown {
  let presented: TCwRecord | undefined;
  return (path) => {
    if (source.fastField) {
      const value = source.fastField(row, path.toLowerCase());
      if (value !== SLOW_FIELD) return value;
    }
    presented ??= source.present(row);
    return resolveObjectPath(presented, path);
  };
}

/** Filters and orders rows by the conditions/childConditions/orderBy query parameters (or a search body's). */
export function filterSourceRows<TRow>(request: TSimRequest, source: TCwSource<TRow>, filterOverride?: TFilterOverride): TRow[] | TSimResponse {
  const conditions = parseOptionalConditions(filterOverride?.conditions ?? queryParam(request, 'conditions'), 'conditions');
  if (isResponse(conditions)) return conditions;
  const childConditions = parseOptionalConditions(filterOverride?.childConditions ?? queryParam(request, 'childConditions'), 'childConditions');
  if (isResponse(childConditions)) return childConditions;
  const matches: TRow[] = [];
  for (const row of source.rows) {
    if (conditions && !evaluateConditions(conditions, createResolver(source, row))) continue;
    if (childConditions && !matchesChildConditions(source.present(row), childConditions)) continue;
    matches.push(row);
  }
  const orderBy = parseOrderBy(filterOverride?.orderBy ?? queryParam(request, 'orderBy'));
  if (orderBy.length > 0) {
    const keyed = matches.map((row) => {
      const resolve = createResolver(source, row);
      return { row, id: resolve('id'), keys: orderBy.map(({ path }) => resolve(path)) };
    });
    keyed.sort((left, right) => {
      for (const [index, { direction }] of orderBy.entries()) {
        const difference = compareValues(left.keys[index], right.keys[index]);
        if (difference !== 0) return difference * direction;
      }
      return compareValues(left.id, right.id);
    });
    return keyed.map((entry) => entry.row);
  }
  return matches;
}

/**
 * A ConnectWise list: conditions, orderBy, fields, and page/pageSize paging with a Link header
 * (rel next/prev/first/last), or forward-only paging with pageId when `pagination-type: forward-only` is sent.
 */
export function listSourceResponse<TRow>(request: TSimRequest, source: TCwSource<TRow>, filterOverride?: TFilterOverride): TSimResponse {
  const filtered = filterSourceRows(request, source, filterOverride);
  if (isResponse(filtered)) return filtered;
  const pageSizeParam = readIntegerParam(request, 'pageSize');
  if (isResponse(pageSizeParam)) return pageSizeParam;
  const pageParam = readIntegerParam(request, 'page');
  if (isResponse(pageParam)) return pageParam;
  const pageIdParam = readIntegerParam(request, 'pageId');
  if (isResponse(pageIdParam)) return pageIdParam;
  const pageSize = Math.min(CW_MAX_PAGE_SIZE, Math.max(1, pageSizeParam ?? CW_DEFAULT_PAGE_SIZE));
  const fieldsParam = queryParam(request, 'fields');
  const fields = fieldsParam ? fieldsParam.split(',').map((field) => field.trim()).filter((field) => field !== '') : [];
  const render = (row: TRow): TCwRecord => (fields.length > 0 ? selectFields(source.present(row), fields) : source.present(row));
  const isForwardOnly = (headerValue(request.headers, 'pagination-type') ?? '').toLowerCase() === 'forward-only';
  const links: string[] = [];
  let pageRows: TRow[];
  if (isForwardOnly || pageIdParam !== undefined) {
    const afterId = pageIdParam ?? 0;
    const idOf = (row: TRow): number => Number(createResolver(source, row)('id'));
    const remaining = filtered.map((row) => ({ row, id: idOf(row) })).filter((entry) => entry.id > afterId);
    remaining.sort((left, right) => left.id - right.id);
    pageRows = remaining.slice(0, pageSize).map((entry) => entry.row);
    const lastId = remaining[Math.min(pageSize, remaining.length) - 1]?.id;
    if (remaining.length > pageSize && lastId !== undefined) links.push(`<${pageUrl(request, { pageSize: String(pageSize), pageId: String(lastId) })}>; rel="next"`);
  } else {
    const page = Math.max(1, pageParam ?? 1);
    const lastPage = Math.max(1, Math.ceil(filtered.length / pageSize));
    pageRows = filtered.slice((page - 1) * pageSize, page * pageSize);
    const link = (target: number, rel: string): string => `<${pageUrl(request, { pageSize: String(pageSize), page: String(target) })}>; rel="${rel}"`;
    if (page > 1) links.push(link(Math.min(page - 1, lastPage), 'prev'), link(1, 'first'));
    if (page < lastPage) links.push(link(page + 1, 'next'), link(lastPage, 'last'));
  }
  const headers: Record<string, string> = {};
  if (links.length > 0) headers.Link = links.join(', ');
  return { ...json(200, pageRows.map(render), headers), listTotal: filtered.length };
}

export function listResponse(request: TSimRequest, rows: Iterable<TCwRecord>, filterOverride?: TFilterOverride): TSimResponse {
  return listSourceResponse(request, recordSource(rows), filterOverride);
}

export function itemResponse(request: TSimRequest, record: TCwRecord): TSimResponse {
  const fieldsParam = queryParam(request, 'fields');
  const fields = fieldsParam ? fieldsParam.split(',').map((field) => field.trim()).filter((field) => field !== '') : [];
  return json(200, fields.length > 0 ? selectFields(record, fields) : record);
}

export function readObjectBody(request: TSimRequest, resource: string): { body: Record<string, unknown> } | { response: TSimResponse } {
  if (request.hasInvalidJson || !isRecord(request.body)) {
    return { response: cwInvalidObject(resource, [{ code: 'InvalidField', message: 'The request body must be a JSON object.', resource, field: 'body' }]) };
  }
  return { body: request.body };
}

export { isResponse };
