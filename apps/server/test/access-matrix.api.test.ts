import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS, canOpenAdminOption, CSRF_HEADER, PERMISSIONS, SESSION_COOKIE, type TAdminOption, type TPermission, type TPermissionMap } from '@switchboard/contracts';
import { and, eq, inArray } from 'drizzle-orm';
import { accounts, auditEvents, roles } from '@switchboard/db';
import { BOOTSTRAP_HEADER, type TRouteAccess, type TRouteTableEntry } from '../src/plugins/access';
import { createSession } from '../src/modules/sessions/session.service';
import { buildMsp, buildUser, type TTestMsp, type TTestUser } from './factories';
import { createTestApp, type TTestApp } from './test-app';
import {
  encodeParams,
  encodeQuery,
  isUuidField,
  jsonSchemaOf,
  malformedProbes,
  plainUrl,
  propertiesOf,
  sampleRequest,
  urlOf,
  type TProbe,
  type TRequestParts,
  type TSampleContext,
} from './route-inputs';

/**
 * Generated matrices over EVERY route in `app.routeTable` (issue #6 §2): a route is covered the
 * moment it is registered, from its `config.access` declaration and its zod schemas.
 *
 * - no session → 401 on every non-public route;
 * - MSP B's admin (all permissions) aimed at MSP A's values (path, query, body) → 404, and at A's
 *   ids with B's own values → 404, with no trace of A in any answer;
 * - a user lacking the route's `anyPermission` set → 403; the wrong user kind → 403;
 * - a state-changing call without the CSRF header, or from a foreign origin → 403 `csrf`;
 * - schema-derived malformed input on every route, public ones too → 4xx, never 5xx.
 */

type TUserRoute = TRouteTableEntry & { access: Exclude<TRouteAccess, { public: true }> };
type TPrincipal = TUserRoute['access']['principal'];

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const FOREIGN_ORIGIN = 'https://evil.example';
const isPublic = (route: TRouteTableEntry): boolean => route.access.public === true;
const isUserRoute = (route: TRouteTableEntry): route is TUserRoute => route.access.public !== true;
const isStateChanging = (route: TRouteTableEntry): boolean => route.access.stateChanging ?? !SAFE_METHODS.has(route.method);

let t: TTestApp;
let routes: TRouteTableEntry[];
let mspA: TTestMsp;
let mspB: TTestMsp;
/** Everything of MSP A that must never appear in an answer to MSP B. */
let markersOfA: string[];
/** Ids of MSP A's users and roles, aimed at every uuid field by MSP B's admin. */
let idsOfA: Array<{ kind: string; id: string }>;
let accountId: string;

const totals = { requests: 0, serverErrors: 0, leaks: 0 };
/** Request ids of the 403/404 refusals the matrices provoked; each must leave an audit event. */
const refusedRequestIds: string[] = [];
const serverErrors: string[] = [];
let ipCounter = 0;
let uniqueCounter = 0;

/** One request; a fresh client address each time so per-IP limits never stand in for the answer under test. */
async function send(route: TRouteTableEntry, options: { url: string; cookie?: string | undefined; csrf?: boolean; headers?: Record<string, string>; payload?: string | undefined; contentType?: string | undefined }): Promise<LightMyRequestResponse> {
  ipCounter += 1;
  const headers: Record<string, string> = { ...options.headers };
  if (options.csrf !== false) headers[CSRF_HEADER] = '1';
  if (options.cookie) headers.cookie = `${SESSION_COOKIE}=${options.cookie}`;
  if (options.contentType !== undefined) headers['content-type'] = options.contentType;
  const response = await t.app.inject({
    method: route.method as 'GET',
    url: options.url,
    headers,
    remoteAddress: `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`,
    ...(options.payload !== undefined ? { payload: options.payload } : {}),
  });
  totals.requests += 1;
  if (response.statusCode >= 500) {
    totals.serverErrors += 1;
    serverErrors.push(`${route.method} ${route.url} → ${response.statusCode} ${options.url.slice(0, 120)}`);
  }
  return response;
}

function context(domain: string, ids: Record<string, string> = {}): TSampleContext {
  return { domain, idFor: (field) => ids[field] ?? randomUUID(), unique: () => `${Date.now().toString(36)}${(uniqueCounter++).toString(36)}` };
}

function jsonRequest(route: TRouteTableEntry, parts: TRequestParts): { url: string; payload?: string; contentType?: string } {
  const url = plainUrl(route, parts);
  return parts.body === undefined ? { url } : { url, payload: JSON.stringify(parts.body), contentType: 'application/json' };
}

async function sessionFor(user: TTestUser): Promise<string> {
  const { token } = await createSession(t.deps.database.db, { principalKind: 'user', mspId: user.mspId, userId: user.id }, t.deps.now());
  return token;
}

async function roleWith(msp: TTestMsp, name: string, permissions: TPermissionMap): Promise<string> {
  const [role] = await t.deps.database.db.insert(roles).values({ mspId: msp.id, name, custom: true, permissions }).returning({ id: roles.id });
  if (!role) throw new Error('role not created');
  return role.id;
}

const withoutPermissions = (missing: readonly TPermission[]): TPermissionMap =>
  Object.fromEntries(PERMISSIONS.map((permission) => [permission, !missing.includes(permission)])) as TPermissionMap;

/** A session of MSP B admitted by the route's principal (all permissions), or none for public routes. */
const admittedSessions = new Map<string, string>();
/** A session the route admits: every permission, or, for an admin-option gate, every permission the option allows. */
async function admittedSession(principal: TPrincipal | undefined, adminOption?: TAdminOption): Promise<string | undefined> {
  if (principal === undefined) return undefined;
  const sessionKey = `${principal}:${adminOption ?? ''}`;
  const known = admittedSessions.get(sessionKey);
  if (known) return known;
  let token: string;
  if (principal === 'account') {
    token = (await createSession(t.deps.database.db, { principalKind: 'account', accountId }, t.deps.now())).token;
  } else if (adminOption !== undefined && !canOpenAdminOption(adminOption, ALL_PERMISSIONS)) {
    // The contacts option is offered only without technicianUserManagement (01 §6).
    const permissions = withoutPermissions(['technicianUserManagement']);
    expect(canOpenAdminOption(adminOption, permissions)).toBe(true);
    const kind = principal === 'client' ? 'client' : 'technician';
    token = await sessionFor(await buildUser(t, mspB, { kind, roleId: await roleWith(mspB, `Matrix ${adminOption} ${kind}`, permissions) }));
  } else {
    const kind = principal === 'client' ? 'client' : 'technician';
    const roleId = kind === 'client' ? await roleWith(mspB, 'Matrix all-permission client', ALL_PERMISSIONS) : mspB.roleIds.Admin;
    token = await sessionFor(await buildUser(t, mspB, { kind, roleId }));
  }
  admittedSessions.set(sessionKey, token);
  return token;
}

function describeAccess(access: TRouteAccess): string {
  if (access.public === true) return access.stateChanging === true ? 'public, state-changing' : 'public';
  return [
    access.principal,
    `tenant in ${access.tenant}`,
    access.anyPermission && access.anyPermission.length > 0 ? `any of ${access.anyPermission.join(', ')}` : '',
    access.adminOption !== undefined ? `admin option ${access.adminOption}` : '',
    access.stateChanging === true ? 'state-changing' : '',
    access.bootstrapToken === true ? 'or bootstrap token' : '',
  ]
    .filter((part) => part !== '')
    .join('; ');
}

function renderAccessTable(table: TRouteTableEntry[]): string {
  const rows = [...table]
    .sort((a, b) => a.operationId.localeCompare(b.operationId))
    .map((route) => `| ${route.operationId} | ${route.method} ${route.url} | ${describeAccess(route.access)} |`);
  return ['# Declared access of every route', '', 'Generated by `access-matrix.api.test.ts`; update with `npx vitest run --project api apps/server/test -u` after a reviewed change.', '', '| operationId | route | access |', '|---|---|---|', ...rows, ''].join('\n');
}

const describeFailure = (route: TRouteTableEntry, label: string, response: LightMyRequestResponse) =>
  `${route.method} ${route.url} [${label}] → ${response.statusCode} ${response.body.slice(0, 160)}`;

function leaksA(response: LightMyRequestResponse): boolean {
  return (response.statusCode >= 200 && response.statusCode < 300) || markersOfA.some((marker) => response.body.includes(marker));
}

describe('generated access matrices over every declared route', () => {
  beforeAll(async () => {
    // No flood guard here: past 600 requests a minute of one session it answered 429, a 4xx that hid a wrong probe
    // (a number sent for a PSA id the schema takes as a number) whenever the run was fast enough.
    t = await createTestApp({ config: { rateLimitPerMinute: 100_000_000 } });
    routes = t.app.routeTable;
    mspA = await buildMsp(t, { name: 'Matrix Victim MSP' });
    mspB = await buildMsp(t);
    const adminA = await buildUser(t, mspA, { email: `victim-admin-${randomUUID()}@example.com` });
    const clientA = await buildUser(t, mspA, { kind: 'client', email: `victim-client-${randomUUID()}@example.com` });
    const customRoleName = `Victim role ${randomUUID()}`;
    const customRoleA = await roleWith(mspA, customRoleName, ALL_PERMISSIONS);
    markersOfA = [mspA.id, mspA.customDomain, 'Matrix Victim MSP', adminA.email, clientA.email, adminA.id, clientA.id, customRoleName, customRoleA];
    idsOfA = [
      { kind: 'technician', id: adminA.id },
      { kind: 'client user', id: clientA.id },
      { kind: 'Admin role', id: mspA.roleIds.Admin },
      { kind: 'custom role', id: customRoleA },
    ];
    const [account] = await t.deps.database.db
      .insert(accounts)
      .values({ kind: 'account', email: `matrix-account-${randomUUID()}@example.com`, firstName: 'Matrix', lastName: 'Account' })
      .returning({ id: accounts.id });
    if (!account) throw new Error('account not created');
    accountId = account.id;
  });

  afterAll(async () => {
    console.log(`access matrix: ${routes.length} routes covered, ${totals.requests} requests, ${totals.serverErrors} 5xx, ${totals.leaks} leaks`);
    await t.close();
  });

  it('knows every route: each one declares access and an operationId, and the table is not empty', () => {
    expect(routes.length).toBeGreaterThan(50);
    expect(new Set(routes.map((route) => route.operationId)).size).toBe(routes.length);
    expect(routes.filter(isUserRoute).length).toBeGreaterThan(20);
  });

  // The matrices prove each route does what it declares; this proves the declarations are the
  // reviewed ones. Dropping a permission, widening a principal or making a route public changes
  // access-table.md and fails here until the change is accepted with `vitest -u` (and so shows in review).
  it('matches the reviewed access table (access-table.md)', async () => {
    await expect(renderAccessTable(routes)).toMatchFileSnapshot('./access-table.md');
  });

  it('answers 401 without a session on every non-public route', async () => {
    const failures: string[] = [];
    for (const route of routes.filter(isUserRoute)) {
      const request = jsonRequest(route, sampleRequest(route, context(mspA.customDomain)));
      const response = await send(route, request);
      if (response.statusCode !== 401) failures.push(describeFailure(route, 'no session', response));
      if (route.access.bootstrapToken === true) {
        const forged = await send(route, { ...request, headers: { [BOOTSTRAP_HEADER]: 'not-the-token' } });
        if (forged.statusCode !== 401) failures.push(describeFailure(route, 'forged bootstrap token', forged));
      }
    }
    expect(failures).toEqual([]);
  });

  it("answers 404 to another MSP's admin aimed at the first MSP's values and ids, and leaks nothing", async () => {
    const failures: string[] = [];
    const check = async (route: TRouteTableEntry, label: string, cookie: string | undefined, request: { url: string; payload?: string; contentType?: string }) => {
      const response = await send(route, { ...request, cookie });
      if (response.statusCode === 404) refusedRequestIds.push(String(response.headers['x-request-id']));
      const leaked = leaksA(response);
      if (leaked) totals.leaks += 1;
      if (response.statusCode !== 404 || leaked) failures.push(describeFailure(route, label, response));
    };
    for (const route of routes.filter(isUserRoute)) {
      if (route.access.principal === 'account') continue;
      const cookie = await admittedSession(route.access.principal, route.access.adminOption);
      const own = sampleRequest(route, context(mspB.customDomain));
      const aimed = (part: 'params' | 'query' | 'body', key: string): TRequestParts => ({ ...own, [part]: { ...own[part], [key]: mspA.customDomain } });
      for (const key of ['mspCustomDomain', 'msp']) {
        if (key in own.params) await check(route, `path :${key}`, cookie, jsonRequest(route, aimed('params', key)));
        if (key in own.query) await check(route, `query ${key}`, cookie, jsonRequest(route, aimed('query', key)));
        if (own.body && key in own.body) await check(route, `body ${key}`, cookie, jsonRequest(route, aimed('body', key)));
      }
      // A's ids in every uuid field, everything else B's own.
      const uuidFields = (['params', 'querystring', 'body'] as const).flatMap((location) => propertiesOf(jsonSchemaOf(route, location)).filter(([, schema]) => isUuidField(schema)).map(([name]) => name));
      for (const field of uuidFields) {
        for (const { kind, id } of idsOfA) {
          await check(route, `${field} = A's ${kind}`, cookie, jsonRequest(route, sampleRequest(route, context(mspB.customDomain, { [field]: id }))));
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it("answers 403 when the route's permission is missing, and to the wrong kind of user", async () => {
    const failures: string[] = [];
    const sessionsByMissing = new Map<string, string>();
    let clientWithEverything: string | undefined;
    let technicianWithEverything: string | undefined;
    for (const route of routes.filter(isUserRoute)) {
      const { principal, anyPermission = [] } = route.access;
      if (principal === 'account') continue;
      const request = jsonRequest(route, sampleRequest(route, context(mspB.customDomain)));
      if (anyPermission.length > 0) {
        const key = `${principal}:${[...anyPermission].sort().join(',')}`;
        let cookie = sessionsByMissing.get(key);
        if (!cookie) {
          const kind = principal === 'client' ? 'client' : 'technician';
          const roleId = await roleWith(mspB, `Matrix without ${key}`, withoutPermissions(anyPermission));
          cookie = await sessionFor(await buildUser(t, mspB, { kind, roleId }));
          sessionsByMissing.set(key, cookie);
        }
        const response = await send(route, { ...request, cookie });
        if (response.statusCode === 403) refusedRequestIds.push(String(response.headers['x-request-id']));
        if (response.statusCode !== 403) failures.push(describeFailure(route, `without ${anyPermission.join('/')}`, response));
        // Control: the same request by the MSP's Admin is not refused, so the 403 above is the permission's.
        const control = await send(route, { ...jsonRequest(route, sampleRequest(route, context(mspB.customDomain))), cookie: await admittedSession(principal, route.access.adminOption) });
        if (control.statusCode === 403) failures.push(describeFailure(route, 'control: Admin with every permission', control));
      }
      if (route.access.adminOption !== undefined && !canOpenAdminOption(route.access.adminOption, ALL_PERMISSIONS)) {
        // An Admin with every permission is not offered this option, so the route refuses them too.
        const response = await send(route, { ...request, cookie: await admittedSession(principal) });
        if (response.statusCode === 403) refusedRequestIds.push(String(response.headers['x-request-id']));
        if (response.statusCode !== 403) failures.push(describeFailure(route, `admin option ${route.access.adminOption} not offered`, response));
      }
      if (principal === 'technician') {
        clientWithEverything ??= await admittedSession('client');
        const response = await send(route, { ...request, cookie: clientWithEverything });
        if (response.statusCode !== 403) failures.push(describeFailure(route, 'client user', response));
      }
      if (principal === 'client') {
        technicianWithEverything ??= await admittedSession('technician');
        const response = await send(route, { ...request, cookie: technicianWithEverything });
        if (response.statusCode !== 403) failures.push(describeFailure(route, 'technician', response));
      }
    }
    expect(failures).toEqual([]);
  });

  it('leaves an access.refused audit event for every refusal above', async () => {
    expect(refusedRequestIds.length).toBeGreaterThan(50);
    // The audit is written in the onResponse hook, which may finish just after the answer arrives.
    let audited = new Set<string>();
    for (let attempt = 0; attempt < 20; attempt += 1) {
      const rows = await t.deps.database.db.select({ requestId: auditEvents.requestId }).from(auditEvents).where(and(eq(auditEvents.action, 'access.refused'), inArray(auditEvents.requestId, refusedRequestIds)));
      audited = new Set(rows.map((row) => row.requestId ?? ''));
      if (audited.size === refusedRequestIds.length) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(refusedRequestIds.filter((id) => !audited.has(id))).toEqual([]);
  });

  it('rejects a state-changing call without the CSRF header or from a foreign origin', async () => {
    const failures: string[] = [];
    const stateChanging = routes.filter(isStateChanging);
    expect(stateChanging.length).toBeGreaterThan(20);
    for (const route of stateChanging) {
      const cookie = await admittedSession(isUserRoute(route) ? route.access.principal : undefined, isUserRoute(route) ? route.access.adminOption : undefined);
      const request = jsonRequest(route, sampleRequest(route, context(mspB.customDomain)));
      const variants: Array<[string, { csrf?: boolean; headers?: Record<string, string> }]> = [
        ['no CSRF header', { csrf: false }],
        ['foreign Origin', { headers: { origin: FOREIGN_ORIGIN } }],
        ['cross-site fetch', { headers: { 'sec-fetch-site': 'cross-site' } }],
      ];
      for (const [label, variant] of variants) {
        const response = await send(route, { ...request, ...variant, cookie });
        const code = response.statusCode === 403 ? response.json<{ code?: string }>().code : undefined;
        if (code !== 'csrf') failures.push(describeFailure(route, label, response));
      }
    }
    expect(failures).toEqual([]);
  });

  // 18 s alone on PostgreSQL; 142 s and over 180 s beside the browser journeys on a loaded 2-core machine.
  it('answers malformed input with a 4xx and never a 5xx, on every route (public ones too)', async () => {
    const failures: string[] = [];
    for (const route of routes) {
      const cookie = isPublic(route) ? undefined : await admittedSession(isUserRoute(route) ? route.access.principal : undefined, isUserRoute(route) ? route.access.adminOption : undefined);
      const parts = sampleRequest(route, context(mspB.customDomain));
      const probes: TProbe[] = malformedProbes(route, parts);
      for (const probe of probes) {
        const response = await send(route, { url: probe.url, cookie, payload: probe.payload, contentType: probe.contentType, ...(probe.headers ? { headers: probe.headers } : {}) });
        const rejected = response.statusCode >= 400 && response.statusCode < 500;
        if (response.statusCode >= 500 || (probe.mustReject && !rejected)) failures.push(describeFailure(route, probe.label, response));
      }
    }
    expect(failures).toEqual([]);
    expect(serverErrors).toEqual([]);
  }, 300_000);
});

// Keep the helpers honest: the URL builder used above must round-trip a path segment.
describe('route-inputs', () => {
  it('fills :segments from encoded values', () => {
    expect(urlOf('/db/:msp/x', encodeParams({ msp: 'a b' }), encodeQuery({ id: 'é' }))).toBe('/db/a%20b/x?id=%C3%A9');
  });
});
