import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { canOpenAdminOption, type TAdminOption, type TPermission } from '@switchboard/contracts';
import type { TDatabase } from '@switchboard/db';
import type { TAuditLog } from '../lib/audit';
import { forbidden, notFound, unauthenticated } from '../lib/app-error';
import type { TAuthContext } from './auth-context';

/**
 * Who may call a route, declared once in its options (`config: { access }`) and enforced by one
 * hook (DESIGN §4). Every route of a module must declare it: buildApp refuses to start otherwise.
 *
 * - `public`: anyone; the handler resolves any MSP the path names (sign-in, reset, sign-up…).
 * - `principal`: 'user' is any technician or client user of an MSP; 'technician' and 'client'
 *   narrow it (403 for the other kind); 'account' is a general (non-MSP) account.
 * - `tenant`: where the route names its MSP — the `:mspCustomDomain` / `:msp` path segment, the
 *   `mspCustomDomain` query value, or nowhere (`session`: the session's MSP). Whatever the
 *   declaration, every MSP value found in the path, the query or the body must be the session's
 *   (else 404, decisions #3); `tenant` tells the generated tests where the value is required.
 * - `anyPermission`: 403 unless the role grants at least one of them.
 * - `adminOption`: 403 unless the admin menu offers this option to the role (`canOpenAdminOption`,
 *   the one rule the web's menu uses too), for a screen whose gate is not a plain "any of".
 * - `stateChanging`: defaults to true for every method but GET/HEAD/OPTIONS; a GET that changes
 *   state (decisions #2) says `stateChanging: true` and is protected against CSRF like a POST.
 * - `bootstrapToken`: the route also accepts MSP sign-up's one-time bootstrap token instead of a
 *   session (decisions #6); the handler verifies the token.
 */
export type TRouteAccess =
  | { public: true; stateChanging?: boolean }
  | {
      public?: false;
      principal: 'user' | 'technician' | 'client' | 'account';
      tenant: 'path' | 'query' | 'session';
      anyPermission?: readonly TPermission[];
      adminOption?: TAdminOption;
      stateChanging?: boolean;
      bootstrapToken?: boolean;
    };

/** One row of the route table the generated access tests run over. */
export interface TRouteTableEntry {
  method: string;
  url: string;
  operationId: string;
  access: TRouteAccess;
  schema: RouteOptions['schema'];
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: TRouteAccess;
  }
  interface FastifyInstance {
    /** Every declared route, in registration order (the generated access matrices read it). */
    routeTable: TRouteTableEntry[];
  }
}

export const BOOTSTRAP_HEADER = 'x-bootstrap-token';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const MSP_KEYS = ['mspCustomDomain', 'msp'] as const;

type TUserContext = Extract<TAuthContext, { principal: 'user' }>;

/** The route's declared access (undefined only for framework routes such as static files). */
function accessOf(request: FastifyRequest): TRouteAccess | undefined {
  return request.routeOptions.config?.access;
}

/** Whether the request changes state, by its route's declaration or its method. */
export function isStateChanging(request: FastifyRequest): boolean {
  return accessOf(request)?.stateChanging ?? !SAFE_METHODS.has(request.method);
}

/** The MSP user the access hook admitted (routes declaring a user principal). */
export function mspUserOf(request: FastifyRequest): TUserContext {
  const auth = request.auth;
  if (!auth || auth.principal !== 'user') throw unauthenticated();
  return auth;
}

/** Who asked, for audit events of routes without a signed-in MSP user (sign-in, activation, accounts). */
export interface TRequestMeta {
  ip: string;
  requestId: string;
}

/** The request's address and id, as audit events record them. */
export const requestMeta = (request: FastifyRequest): TRequestMeta => ({ ip: request.ip, requestId: request.id });

/** Who did it, for services and audit events. */
export interface TActor {
  mspId: string;
  mspCustomDomain: string;
  userId: string;
  userKind: 'technician' | 'client';
  permissions: TUserContext['permissions'];
  ip: string;
  requestId: string;
}

/** The admitted MSP user as the actor services take. */
export function actorOf(request: FastifyRequest): TActor {
  const auth = mspUserOf(request);
  return {
    mspId: auth.mspId,
    mspCustomDomain: auth.mspCustomDomain,
    userId: auth.userId,
    userKind: auth.userKind,
    permissions: auth.permissions,
    ip: request.ip,
    requestId: request.id,
  };
}

function mspValuesIn(source: unknown): string[] {
  if (!source || typeof source !== 'object') return [];
  const values: string[] = [];
  for (const key of MSP_KEYS) {
    const value = (source as Record<string, unknown>)[key];
    if (typeof value === 'string') values.push(value);
  }
  return values;
}

function assertSameTenant(auth: TUserContext, source: unknown): void {
  for (const value of mspValuesIn(source)) if (value.toLowerCase() !== auth.mspCustomDomain) throw notFound();
}

function hasBootstrapToken(request: FastifyRequest): boolean {
  const token = request.headers[BOOTSTRAP_HEADER];
  return typeof token === 'string' && token !== '';
}

/** Throws the refusal for a request that its route's declaration does not admit. */
function admit(request: FastifyRequest, access: TRouteAccess): void {
  if (access.public === true) return;
  if (access.bootstrapToken === true && hasBootstrapToken(request)) return;
  const auth = request.auth;
  if (!auth) throw unauthenticated();
  if (access.principal === 'account') {
    if (auth.principal !== 'account') throw unauthenticated();
    return;
  }
  if (auth.principal !== 'user') throw unauthenticated();
  // Tenant before kind and permission: another MSP's user learns nothing, not even "forbidden".
  assertSameTenant(auth, request.params);
  assertSameTenant(auth, request.query);
  if (access.principal !== 'user' && auth.userKind !== access.principal) throw forbidden();
  const anyOf = access.anyPermission ?? [];
  if (anyOf.length > 0 && !anyOf.some((permission) => auth.permissions[permission] === true)) throw forbidden();
  if (access.adminOption !== undefined && !canOpenAdminOption(access.adminOption, auth.permissions)) throw forbidden();
}

function operationIdOf(route: RouteOptions): string | undefined {
  const schema = route.schema as { operationId?: unknown } | undefined;
  return typeof schema?.operationId === 'string' ? schema.operationId : undefined;
}

/**
 * Registers the access hook and returns `declareRoutes`, the scope every module registers its
 * routes in: a route there without `config.access` or `schema.operationId` stops start-up.
 */
export const accessPlugin = fp(async (app: FastifyInstance, options: { audit: TAuditLog; db: TDatabase }) => {
  app.decorate('routeTable', [] as TRouteTableEntry[]);

  app.addHook('onRequest', async (request) => {
    const access = accessOf(request);
    if (access) admit(request, access);
  });

  // Bodies are parsed after onRequest: an MSP value in the body is checked before validation.
  app.addHook('preValidation', async (request) => {
    const access = accessOf(request);
    if (!access || access.public === true || access.principal === 'account') return;
    if (request.auth?.principal === 'user') assertSameTenant(request.auth, request.body);
  });

  // Refused attempts on protected routes leave a trace (issue #6 §2b).
  app.addHook('onResponse', async (request, reply) => {
    const access = accessOf(request);
    if (!access || access.public === true) return;
    if (reply.statusCode !== 403 && reply.statusCode !== 404) return;
    const auth = request.auth;
    await options.audit
      .record(options.db, {
        mspId: auth?.principal === 'user' ? auth.mspId : null,
        actorKind: auth ? auth.principal : 'anonymous',
        actorId: auth ? (auth.principal === 'user' ? auth.userId : auth.accountId) : null,
        action: 'access.refused',
        target: `${request.method} ${request.routeOptions.url ?? ''}`,
        outcome: 'failure',
        ip: request.ip,
        requestId: request.id,
        details: { status: reply.statusCode },
      })
      .catch((error: unknown) => request.log.warn({ err: error }, 'could not audit a refused request'));
  });
});

/** Start-up check and route-table entry for one route of a module (called from an onRoute hook). */
export function declareRoute(app: FastifyInstance, route: RouteOptions): void {
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  // Fastify adds a HEAD route for every GET; it shares the GET's declaration.
  if (methods.length === 1 && methods[0] === 'HEAD') return;
  const access = route.config?.access;
  if (!access) throw new Error(`Route ${methods.join(',')} ${route.url} declares no access (config.access)`);
  const operationId = operationIdOf(route);
  if (!operationId) throw new Error(`Route ${methods.join(',')} ${route.url} has no schema.operationId`);
  for (const method of methods) app.routeTable.push({ method, url: route.url, operationId, access, schema: route.schema });
}
