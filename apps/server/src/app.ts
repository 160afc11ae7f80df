import { randomUUID } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import Fastify, { LogController } from 'fastify';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import helmet from 'helmet';
import rateLimit from '@fastify/rate-limit';
import multipart from '@fastify/multipart';
import swagger from '@fastify/swagger';
import fastifyStatic from '@fastify/static';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { LOGO_MAX_BYTES } from '@switchboard/contracts';
import type { TAppDeps, TApp } from './app-deps';
import type { TConfig } from './config/env';
import { authContextPlugin } from './plugins/auth-context';
import { csrfPlugin } from './plugins/csrf';
import { accessPlugin, declareRoute } from './plugins/access';
import { floodGuardPlugin } from './plugins/flood-guard';
import { registerErrorHandler } from './plugins/error-handler';
import { requestLogPlugin } from './plugins/request-log';
import { safeErrorForLog } from './lib/log-safety';
import { inputGuardPlugin } from './plugins/input-guard';
import { MODULES } from './modules/index';

export interface TBuildOptions {
  /** Folder of the built SPA; served with an index.html fallback for browser navigations. */
  webDist?: string;
  logger?: boolean;
  /**
   * Where `GET /` sends a person: the general sign-in by default; the embedded default sends them to
   * the demo MSP's page. The spec names no page for `/`, and the SPA would show "not found" there.
   */
  homePath?: string;
}

/** `GET /` without a home path of its own: the general sign-in (02 §2 `/auth/login`). */
export const DEFAULT_HOME_PATH = '/auth/login';
/** Health probes: answered without the session lookup and not counted by the flood guard. */
const PROBE_PATHS = new Set(['/health', '/ready']);

/** Hashed build output (Vite puts a content hash in every file name under assets/). */
const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';

/** Paths that are never the SPA even when a browser navigates to them (provider sign-in is a navigation). */
const NON_SPA_PREFIXES = ['/health', '/ready', '/openapi.json', '/uploads/', '/assets/', '/auth/oidc/', '/auth/getGoogleToken'];
/**
 * API downloads a browser navigates to on purpose (a document's download link, the activity log's
 * Export CSV link): never the SPA either. No SPA route ends in `.csv`.
 */
const NON_SPA_PATTERNS = [/^\/db\/[^/]+\/applications\/[^/]+\/file$/, /\.csv$/];

/** TRUST_PROXY as Fastify takes it: a hop count becomes "trust the nearest n hops" (its types lack numbers). */
function fastifyTrustProxy(trust: TConfig['trustProxy']): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof trust === 'number' ? (_address, hop) => hop < trust : trust;
}

/** Builds the HTTP app from injected dependencies; nothing listens until main.ts says so. */
export async function buildApp(deps: TAppDeps, options: TBuildOptions = {}): Promise<TApp> {
  const app = Fastify({
    logger: options.logger
      ? {
          level: deps.config.logLevel,
          // Errors are serialised without SQL parameters, addresses or tokens (issue #11).
          serializers: { err: safeErrorForLog },
          // Keys, passwords and session cookies never reach the logs.
          redact: ['req.headers.cookie', 'req.headers.authorization', 'req.headers.secret', 'req.headers.apiintegrationcode', '*.password', '*.privateKey', '*.publicKey'],
        }
      : false,
    genReqId: (request) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && /^[\w-]{1,64}$/.test(incoming) ? incoming : randomUUID();
    },
    // Only the configured proxies may speak for the client (TRUST_PROXY; none by default).
    trustProxy: fastifyTrustProxy(deps.config.trustProxy),
    bodyLimit: 1024 * 1024,
    // requestLogPlugin logs each request once, without query strings, probes at debug.
    logController: new LogController({ disableRequestLogging: true }),
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  await app.register(requestLogPlugin, { lifecycle: deps.lifecycle });
  app.addHook('onSend', async (request, reply) => {
    void reply.header('x-request-id', request.id);
  });
  const webDist = options.webDist && existsSync(join(options.webDist, 'index.html')) ? options.webDist : undefined;
  // Static files, the SPA shell and health probes carry no tenant data: no session lookup, no flood
  // guard. Marked on the route, so the hooks decide without parsing paths on every request.
  app.addHook('onRoute', (route) => {
    if (PROBE_PATHS.has(route.url) || (webDist !== undefined && isBuiltFile(webDist, route.url))) route.config = { ...route.config, skipsSession: true };
  });

  // Security headers from one helmet middleware built at start (@fastify/helmet rebuilt it, parsing
  // the CSP again, on every request).
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Mantine injects its CSS variables in <style> elements at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: deps.config.isProduction ? [] : null,
      },
    },
    // The SPA may be opened over plain http on localhost in the embedded default.
    hsts: deps.config.isProduction,
  });
  app.addHook('onRequest', (request, reply, done) => {
    securityHeaders(request.raw, reply.raw, (error?: unknown) => done(error instanceof Error ? error : undefined));
  });
  await app.register(cookie, { secret: deps.config.sessionSecret });
  // br or gzip by Accept-Encoding, for bodies over 1 KB (brotli at quality 4: fast enough per request).
  await app.register(compress, { encodings: ['br', 'gzip'] });
  // Per-route limits only (sign-in, 2FA, reset, sign-up: per IP); the global budget is the flood guard.
  await app.register(rateLimit, { global: false });
  await app.register(multipart, { limits: { fileSize: LOGO_MAX_BYTES, files: 1, fields: 20 } });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Switchboard API', version: '1.0.0', description: 'The Switchboard help desk API (spec calls A-001…A-127 and the additions in docs/api-additions.md).' },
      components: { securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'sb_session' } } },
    },
    transform: jsonSchemaTransform,
  });
  // Order matters: the SPA shell answers navigations first, then the flood guard rejects before the
  // session lookup (the first database work of a request).
  if (webDist) registerSpaShell(app, webDist);
  await app.register(floodGuardPlugin, { maxPerMinute: deps.config.rateLimitPerMinute });
  await app.register(authContextPlugin, { db: deps.database.db, sessionCache: deps.caches.sessions, now: deps.now });
  await app.register(accessPlugin, { audit: deps.audit, db: deps.database.db });
  await app.register(csrfPlugin);
  await app.register(inputGuardPlugin);

  app.get('/openapi.json', { schema: { hide: true }, config: { access: { public: true } } }, async () => app.swagger());
  const homePath = options.homePath ?? DEFAULT_HOME_PATH;
  app.get('/', { schema: { hide: true }, config: { access: { public: true }, skipsSession: true } }, async (_request, reply) => reply.header('cache-control', 'no-store').redirect(homePath));

  // Every module route declares its access and operationId, or the server does not start.
  await app.register(async (scope) => {
    scope.addHook('onRoute', (route) => declareRoute(app, route));
    const typed = scope.withTypeProvider<ZodTypeProvider>();
    for (const registerModule of MODULES) await registerModule(typed, deps);
  });

  if (webDist) await registerStaticFiles(app, webDist);
  return app;
}

/** True when the route serves a file of the web build (the per-file routes @fastify/static adds). */
function isBuiltFile(webDist: string, url: string): boolean {
  if (!url.startsWith('/') || url.includes('..') || url.includes(':') || url.includes('*')) return false;
  try {
    return statSync(join(webDist, url)).isFile();
  } catch {
    return false;
  }
}

/**
 * Serves the built SPA's files. Hashed assets are cached for a year (immutable); other files are
 * revalidated. Precompressed `.br`/`.gz` siblings are used when the build has them; otherwise the
 * compress plugin compresses on the fly.
 */
async function registerStaticFiles(app: TApp, webDist: string): Promise<void> {
  const assetsFolder = join(webDist, 'assets') + sep;
  await app.register(fastifyStatic, {
    root: webDist,
    prefix: '/',
    wildcard: false,
    index: false,
    cacheControl: false,
    preCompressed: true,
    setHeaders: (reply, path) => {
      if (path.startsWith(assetsFolder)) void reply.header('cache-control', IMMUTABLE_CACHE);
      else if (!reply.hasHeader('cache-control')) void reply.header('cache-control', 'no-cache');
    },
  });
}

/**
 * Answers browser navigations (Sec-Fetch-Mode: navigate, or Accept: text/html) with index.html,
 * because some SPA routes share a path with an API call (GET /auth/signup is both the sign-up page
 * and the email check A-070). Runs before the flood guard and the session lookup.
 */
function registerSpaShell(app: TApp, webDist: string): void {
  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'GET') return;
    const path = request.url.split('?')[0] ?? '/';
    if (path === '/') return;
    if (NON_SPA_PREFIXES.some((prefix) => path === prefix || path.startsWith(prefix))) return;
    if (NON_SPA_PATTERNS.some((pattern) => pattern.test(path))) return;
    const isNavigation =
      request.headers['sec-fetch-mode'] === 'navigate' ||
      (request.headers.accept?.includes('text/html') === true && !request.headers.accept.includes('application/json'));
    if (!isNavigation) return;
    if (/\.(png|ico|svg|txt|webmanifest|json)$/.test(path) && existsSync(join(webDist, path))) {
      return reply.sendFile(path.slice(1));
    }
    return reply.header('cache-control', 'no-store').type('text/html').sendFile('index.html');
  });
}
