import { z } from 'zod';
import type { TRouteTableEntry } from '../src/plugins/access';

/**
 * Schema-derived inputs for the generated route matrices (access-matrix.api.test.ts): a plausible
 * request for any route in `app.routeTable`, and the malformed variants of it. Everything comes
 * from the zod schemas fastify-type-provider-zod keeps in `route.schema` (as JSON Schema through
 * `z.toJSONSchema`), so a new route is covered without touching this file.
 */

/** The subset of JSON Schema that `z.toJSONSchema` produces for request schemas. */
export interface TJsonSchema {
  type?: string | string[];
  properties?: Record<string, TJsonSchema>;
  required?: string[];
  items?: TJsonSchema;
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  exclusiveMinimum?: number;
  anyOf?: TJsonSchema[];
  oneOf?: TJsonSchema[];
}

export type TLocation = 'params' | 'querystring' | 'body' | 'headers';

/** Keys that name an MSP (the access hook holds path, query and body values of the first two to the session's tenant). */
export const TENANT_KEYS = ['mspCustomDomain', 'msp', 'customDomain'] as const;

function isZodSchema(value: unknown): value is z.ZodType {
  return typeof value === 'object' && value !== null && '_zod' in value;
}

/** The JSON Schema of one part of a route's request, or undefined when the route has none. */
export function jsonSchemaOf(route: TRouteTableEntry, location: TLocation): TJsonSchema | undefined {
  const schema = (route.schema as Record<string, unknown> | undefined)?.[location];
  if (!isZodSchema(schema)) return undefined;
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as TJsonSchema;
}

export function propertiesOf(schema: TJsonSchema | undefined): Array<[string, TJsonSchema]> {
  return Object.entries(schema?.properties ?? {});
}

function typeOf(schema: TJsonSchema): string | undefined {
  if (Array.isArray(schema.type)) return schema.type.find((type) => type !== 'null');
  if (schema.type) return schema.type;
  const branch = schema.anyOf?.[0] ?? schema.oneOf?.[0];
  return branch ? typeOf(branch) : undefined;
}

export function isUuidField(schema: TJsonSchema): boolean {
  return typeOf(schema) === 'string' && schema.format === 'uuid';
}

/** What a request's values are filled with: whose MSP it names, which id a uuid field carries. */
export interface TSampleContext {
  domain: string;
  /** The id for a uuid field (a foreign tenant's id in the cross-tenant matrix, else a fresh one). */
  idFor: (field: string) => string;
  unique: () => string;
}

const PATTERN_CANDIDATES = ['#336699', 'abc', 'ABC', '123', 'a-b', 'a1'];

function sampleString(schema: TJsonSchema, name: string, ctx: TSampleContext): string {
  if ((TENANT_KEYS as readonly string[]).includes(name)) return ctx.domain;
  if (schema.format === 'uuid') return ctx.idFor(name);
  // ISO dates (z.iso.date / z.iso.datetime) carry a pattern no short candidate matches.
  if (schema.format === 'date') return '2026-01-31';
  if (schema.format === 'date-time') return '2026-01-31T12:00:00.000Z';
  if (schema.pattern !== undefined) {
    const pattern = new RegExp(schema.pattern);
    return PATTERN_CANDIDATES.find((candidate) => pattern.test(candidate)) ?? 'x';
  }
  const lower = name.toLowerCase();
  let value = 'Matrix';
  if (lower.includes('email')) value = `matrix-${ctx.unique()}@example.com`;
  else if (lower.includes('phone')) value = '3035550123';
  else if (lower.includes('password')) value = 'Passw0rd!matrix';
  // URLs stay unusable on purpose: a probe must never make the server call out.
  else if (lower.includes('url')) value = 'not a url';
  // A time zone must be one the runtime knows (the activity log's `tz`).
  else if (lower === 'tz' || lower.includes('timezone')) value = 'UTC';
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? Number.POSITIVE_INFINITY;
  return value.padEnd(min, 'x').slice(0, max);
}

/** A plausible value for a schema (the first enum member, a realistic string, 1, true…). */
export function sampleValue(schema: TJsonSchema, name: string, ctx: TSampleContext): unknown {
  if (schema.enum && schema.enum.length > 0) return schema.enum[0];
  if (schema.const !== undefined) return schema.const;
  // An optional or nullable value (`anyOf: [X, null]`): a plausible X.
  const option = (schema.anyOf ?? schema.oneOf)?.find((candidate) => typeOf(candidate) !== 'null');
  if (option) return sampleValue(option, name, ctx);
  switch (typeOf(schema)) {
    case 'string':
      return sampleString(schema, name, ctx);
    case 'integer':
    case 'number':
      return Math.max(1, schema.minimum ?? 1, (schema.exclusiveMinimum ?? 0) + 1);
    case 'boolean':
      return true;
    case 'array':
      return schema.items ? [sampleValue(schema.items, name, ctx)] : [];
    case 'object':
      return sampleObject(schema, ctx);
    default:
      return 'Matrix';
  }
}

/** Every property of an object schema, each with a plausible value. */
export function sampleObject(schema: TJsonSchema | undefined, ctx: TSampleContext): Record<string, unknown> {
  return Object.fromEntries(propertiesOf(schema).map(([name, property]) => [name, sampleValue(property, name, ctx)]));
}

/** A route's request parts, as plain values (path and query values still to be encoded). */
export interface TRequestParts {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: Record<string, unknown> | unknown[] | undefined;
}

export function sampleRequest(route: TRouteTableEntry, ctx: TSampleContext): TRequestParts {
  const bodySchema = jsonSchemaOf(route, 'body');
  return {
    params: sampleObject(jsonSchemaOf(route, 'params'), ctx),
    query: sampleObject(jsonSchemaOf(route, 'querystring'), ctx),
    body: bodySchema && typeOf(bodySchema) === 'object' ? sampleObject(bodySchema, ctx) : bodySchema && typeOf(bodySchema) === 'array' ? [sampleValue(bodySchema.items ?? {}, 'item', ctx)] : undefined,
  };
}

const encode = (value: unknown) => encodeURIComponent(String(value));

/** The URL with `:name` segments filled from already-encoded path values, and an already-encoded query. */
export function urlOf(routeUrl: string, encodedParams: Record<string, string>, rawQuery: string): string {
  const path = routeUrl.replace(/:(\w+)/g, (_, name: string) => encodedParams[name] ?? '');
  return rawQuery === '' ? path : `${path}?${rawQuery}`;
}

export function encodeParams(params: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(params).map(([name, value]) => [name, encode(value)]));
}

export function encodeQuery(query: Record<string, unknown>): string {
  return Object.entries(query)
    .map(([name, value]) => `${encode(name)}=${encode(value)}`)
    .join('&');
}

/** The plain URL of a sampled request. */
export function plainUrl(route: TRouteTableEntry, parts: TRequestParts): string {
  return urlOf(route.url, encodeParams(parts.params), encodeQuery(parts.query));
}

/** One malformed request. `mustReject`: no reading of the schema admits it, so it must get a 4xx. */
export interface TProbe {
  label: string;
  url: string;
  payload?: string;
  contentType?: string;
  headers?: Record<string, string>;
  mustReject: boolean;
}

export const ONE_MEGABYTE = 'a'.repeat(1024 * 1024);
/** Right-to-left override; a lone surrogate; emoji with joiners; combining accent, zero-width space, BOM, NEL and a non-character. */
const ODD_UNICODE = ['\u202Eevil', 'x\uD800y', '😀🏳️‍🌈', 'e\u0301\u200B\uFEFF\u0085\uFFFF'];
/** Byte sequences that are not UTF-8 at all (an encoded surrogate, an overlong slash, stray bytes), then odd but valid UTF-8. */
const ODD_URL_VALUES = ['%ED%A0%80', '%C0%AF', '%FF%FE', '%E2%80%AE%F0%9F%98%80a%E2%80%8Bb%EF%BF%BF'];
const NUL_URL_VALUES = ['a%00b', '%00'];

/** Values that no string-transported (path or query) field of this type admits. */
function wrongUrlValues(schema: TJsonSchema): string[] {
  if (schema.enum) return ['not-a-member'];
  const type = typeOf(schema);
  if (type === 'integer' || type === 'number') return ['abc', '-1', '1.5', '1e400', '9'.repeat(400)];
  if (type === 'boolean') return ['maybe'];
  if (schema.format === 'uuid') return ['not-a-uuid', '00000000-0000-0000-0000-00000000000g'];
  return [];
}

/** Values that no JSON field of this type admits. */
/** Whether null is a value the schema takes (`type: [X, 'null']` or `anyOf: [X, { type: 'null' }]`). */
function allowsNull(schema: TJsonSchema): boolean {
  if (Array.isArray(schema.type)) return schema.type.includes('null');
  if (schema.type === 'null') return true;
  return (schema.anyOf ?? schema.oneOf ?? []).some((branch) => allowsNull(branch));
}

/** Every JSON type the schema takes: its own, and each branch's of an anyOf / oneOf ("a number or a digit string"). */
function acceptedTypes(schema: TJsonSchema): Set<string> {
  const own = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  return new Set([...own, ...(schema.anyOf ?? schema.oneOf ?? []).flatMap((branch) => [...acceptedTypes(branch)])]);
}

/** The JSON type of a value as JSON Schema names it; a whole number is an integer and a number. */
function jsonTypesOf(value: unknown): string[] {
  if (value === null) return ['null'];
  if (Array.isArray(value)) return ['array'];
  if (typeof value === 'number') return Number.isInteger(value) ? ['integer', 'number'] : ['number'];
  return [typeof value];
}

function wrongJsonValues(schema: TJsonSchema): unknown[] {
  // null is wrong only where the schema does not take it (a nullable field saved null with a 200, as it should); a value
  // of a type another branch takes is no wrong type either (a PSA id the schema takes as a number or a digit string).
  // An enum's wrong values are wrong by value ("not-a-member" is a string like its members).
  const accepted = schema.enum ? new Set<string>() : acceptedTypes(schema);
  return wrongJsonValuesOfType(schema).filter((value) => (value !== null || !allowsNull(schema)) && !jsonTypesOf(value).some((type) => accepted.has(type)));
}

function wrongJsonValuesOfType(schema: TJsonSchema): unknown[] {
  if (schema.enum) return ['not-a-member', 1, null];
  switch (typeOf(schema)) {
    case 'string':
      return [12345, null, {}, ['a']];
    case 'integer':
    case 'number':
      return ['12', 1.5, null];
    case 'boolean':
      return ['true', 1, null];
    case 'object':
      return ['text', null, [{}]];
    case 'array':
      return ['text', null, {}];
    default:
      return [];
  }
}

function urlProbes(route: TRouteTableEntry, parts: TRequestParts, location: 'params' | 'querystring'): TProbe[] {
  const schema = jsonSchemaOf(route, location);
  const probes: TProbe[] = [];
  const required = new Set(schema?.required ?? []);
  const params = encodeParams(parts.params);
  const query = encodeParams(parts.query);
  const build = (name: string, raw: string | undefined, extra = '') => {
    const nextParams = location === 'params' ? { ...params, [name]: raw ?? '' } : params;
    const nextQuery = location === 'querystring' ? { ...query } : query;
    if (location === 'querystring') {
      if (raw === undefined) delete nextQuery[name];
      else nextQuery[name] = raw;
    }
    const rawQuery = [...Object.entries(nextQuery).map(([key, value]) => `${encodeURIComponent(key)}=${value}`), ...(extra ? [extra] : [])].join('&');
    return urlOf(route.url, nextParams, rawQuery);
  };
  for (const [name, property] of propertiesOf(schema)) {
    const where = `${location}.${name}`;
    for (const value of wrongUrlValues(property)) probes.push({ label: `${where} wrong type ${value.slice(0, 20)}`, url: build(name, value), mustReject: true });
    if (required.has(name)) probes.push({ label: `${where} missing`, url: build(name, undefined), mustReject: true });
    const max = property.maxLength ?? Number.POSITIVE_INFINITY;
    probes.push({ label: `${where} 1 MB`, url: build(name, ONE_MEGABYTE), mustReject: max < ONE_MEGABYTE.length });
    for (const value of [...NUL_URL_VALUES, ...ODD_URL_VALUES]) probes.push({ label: `${where} = ${value}`, url: build(name, value), mustReject: false });
    if (location === 'querystring') {
      probes.push({ label: `${where} repeated`, url: build(name, 'a', `${encodeURIComponent(name)}=b`), mustReject: typeOf(property) !== 'array' });
    }
  }
  if (location === 'querystring') probes.push({ label: 'query: unknown key with NUL', url: build('', undefined, 'zz%00=%00&%00=1'), mustReject: false });
  return probes;
}

function bodyProbes(route: TRouteTableEntry, parts: TRequestParts): TProbe[] {
  const schema = jsonSchemaOf(route, 'body');
  const url = plainUrl(route, parts);
  const probes: TProbe[] = [];
  const json = (label: string, body: unknown, mustReject: boolean) => probes.push({ label, url, payload: JSON.stringify(body), contentType: 'application/json', mustReject });
  const walk = (objectSchema: TJsonSchema, value: Record<string, unknown>, replace: (next: Record<string, unknown>) => unknown, prefix: string, depth: number) => {
    const required = new Set(objectSchema.required ?? []);
    for (const [name, property] of propertiesOf(objectSchema)) {
      const where = `${prefix}${name}`;
      const withValue = (next: unknown) => replace({ ...value, [name]: next });
      for (const wrong of wrongJsonValues(property)) json(`${where} wrong type ${JSON.stringify(wrong)}`, withValue(wrong), true);
      if (required.has(name)) {
        const { [name]: _dropped, ...rest } = value;
        json(`${where} missing`, replace(rest), true);
      }
      if (typeOf(property) === 'string' && !property.enum) {
        json(`${where} 1 MB`, withValue(ONE_MEGABYTE), (property.maxLength ?? Number.POSITIVE_INFINITY) < ONE_MEGABYTE.length);
        json(`${where} NUL`, withValue('a\u0000b'), false);
        for (const odd of ODD_UNICODE) json(`${where} unicode ${JSON.stringify(odd)}`, withValue(odd), false);
      }
      const nested = value[name];
      if (typeOf(property) === 'object' && depth < 2 && typeof nested === 'object' && nested !== null && !Array.isArray(nested)) {
        walk(property, nested as Record<string, unknown>, (next) => withValue(next), `${where}.`, depth + 1);
      }
    }
  };
  if (schema && typeOf(schema) === 'object' && parts.body && !Array.isArray(parts.body)) {
    walk(schema, parts.body, (next) => next, 'body.', 0);
    for (const [label, body] of [['body null', null], ['body array', []], ['body string', 'text'], ['body number', 12]] as const) json(label, body, true);
  }
  return probes;
}

/** Whole-request probes for any route that takes a body: wrong content types, broken JSON, broken multipart. */
function contentProbes(route: TRouteTableEntry, parts: TRequestParts): TProbe[] {
  if (route.method === 'GET' || route.method === 'HEAD' || route.method === 'OPTIONS') return [];
  const url = plainUrl(route, parts);
  const takesMultipart = ((route.schema as { consumes?: string[] } | undefined)?.consumes ?? []).includes('multipart/form-data');
  // A route that reads no body (logout, TOTP set-up) may ignore whatever is sent; the rest must refuse it.
  const bodySchema = jsonSchemaOf(route, 'body');
  const readsBody = (bodySchema !== undefined && typeOf(bodySchema) === 'object') || takesMultipart;
  const boundary = 'matrixBoundary';
  const part = (name: string, value: string, file = false) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${file ? '; filename="logo.png"\r\nContent-Type: image/png' : ''}\r\n\r\n${value}\r\n`;
  const multipart = `multipart/form-data; boundary=${boundary}`;
  const complete = `${part('customDomain', 'matrix')}${part('file', '\u0089PNG\r\n\u001a\n', true)}--${boundary}--\r\n`;
  const probes: TProbe[] = [
    { label: 'content-type text/plain', url, payload: 'hello', contentType: 'text/plain', mustReject: readsBody },
    { label: 'content-type application/xml', url, payload: '<a/>', contentType: 'application/xml', mustReject: readsBody },
    { label: 'content-type bogus', url, payload: 'x', contentType: 'no/such; ;;=', mustReject: readsBody },
    { label: 'json charset utf-16', url, payload: '{}', contentType: 'application/json; charset=utf-16', mustReject: readsBody },
    { label: 'json truncated', url, payload: '{"a":', contentType: 'application/json', mustReject: readsBody },
    { label: 'json empty', url, payload: '', contentType: 'application/json', mustReject: readsBody },
    { label: 'json proto pollution', url, payload: '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}}}', contentType: 'application/json', mustReject: readsBody },
    { label: 'json deeply nested', url, payload: `${'['.repeat(50_000)}${']'.repeat(50_000)}`, contentType: 'application/json', mustReject: readsBody },
    { label: 'multipart truncated in a part', url, payload: complete.slice(0, complete.length - 30), contentType: multipart, mustReject: readsBody },
    { label: 'multipart truncated in headers', url, payload: `--${boundary}\r\nContent-Disposition: form-data; na`, contentType: multipart, mustReject: readsBody },
    { label: 'multipart no closing boundary', url, payload: part('customDomain', 'matrix'), contentType: multipart, mustReject: readsBody },
    { label: 'multipart without boundary', url, payload: complete, contentType: 'multipart/form-data', mustReject: readsBody },
    { label: 'multipart wrong boundary', url, payload: complete, contentType: 'multipart/form-data; boundary=other', mustReject: readsBody },
    { label: 'multipart empty', url, payload: '', contentType: multipart, mustReject: readsBody },
    { label: 'multipart NUL field', url, payload: `${part('customDomain', 'a\u0000b')}${part('mspName', 'a\u0000b')}${part('a\u0000', 'x')}--${boundary}--\r\n`, contentType: multipart, mustReject: readsBody },
    { label: 'multipart NUL in a name', url, payload: `${part('mspName', 'a\u0000b')}${part('customDomain', 'matrix-nul')}${part('companyPhoneNumber', '3035550123')}${part('webSiteUrl', 'https://example.com')}--${boundary}--\r\n`, contentType: multipart, mustReject: readsBody },
    { label: 'multipart 1 MB field', url, payload: `${part('mspName', ONE_MEGABYTE.slice(0, 900_000))}--${boundary}--\r\n`, contentType: multipart, mustReject: readsBody },
    { label: 'multipart unicode field', url, payload: `${part('mspName', '\u202E😀')}--${boundary}--\r\n`, contentType: multipart, mustReject: readsBody },
  ];
  if (takesMultipart) probes.push({ label: 'json to a multipart route', url, payload: '{"customDomain":"matrix"}', contentType: 'application/json', mustReject: true });
  return probes;
}

/** Headers the route's schema names (e.g. the bootstrap token): oversized and odd values. */
function headerProbes(route: TRouteTableEntry, parts: TRequestParts): TProbe[] {
  const request = { url: plainUrl(route, parts), ...(parts.body === undefined ? {} : { payload: JSON.stringify(parts.body), contentType: 'application/json' }) };
  return propertiesOf(jsonSchemaOf(route, 'headers')).flatMap(([name, property]) => [
    { ...request, label: `header ${name} 1 MB`, headers: { [name]: ONE_MEGABYTE }, mustReject: (property.maxLength ?? Number.POSITIVE_INFINITY) < ONE_MEGABYTE.length },
    // Header values travel as Latin-1: UTF-8 bytes of odd characters arrive as mojibake.
    { ...request, label: `header ${name} odd bytes`, headers: { [name]: Buffer.from('\u202E😀', 'utf8').toString('latin1') }, mustReject: false },
  ]);
}

/** Every malformed variant of a sampled request, derived from the route's schemas. */
export function malformedProbes(route: TRouteTableEntry, parts: TRequestParts): TProbe[] {
  return [...urlProbes(route, parts, 'params'), ...urlProbes(route, parts, 'querystring'), ...bodyProbes(route, parts), ...headerProbes(route, parts), ...contentProbes(route, parts)];
}
