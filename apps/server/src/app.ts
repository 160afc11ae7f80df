import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Fastify, { LogController } from 'fastify';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
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

/** Paths that are never the SPA even when a browser navigates to them (provider sign-in is a navigation). */
const NON_SPA_PREFIXES = ['/health', '/ready', '/openapi.json', '/uploads/', '/assets/', '/auth/oidc/', '/auth/getGoogleToken'];

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

  await app.register(helmet, {
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
  await app.register(cookie, { secret: deps.config.sessionSecret });
  await app.register(rateLimit, { global: true, max: 600, timeWindow: 60_000 });
  await app.register(multipart, { limits: { fileSize: LOGO_MAX_BYTES, files: 1, fields: 20 } });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Switchboard API', version: '1.0.0', description: 'The Switchboard help desk API (spec calls A-001…A-127 and the additions in docs/api-additions.md).' },
      components: { securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'sb_session' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(authContextPlugin, { db: deps.database.db, now: deps.now });
  await app.register(accessPlugin, { audit: deps.audit, db: deps.database.db });
  await app.register(csrfPlugin);
  await app.register(inputGuardPlugin);

  app.get('/openapi.json', { schema: { hide: true }, config: { access: { public: true } } }, async () => app.swagger());
  const homePath = options.homePath ?? DEFAULT_HOME_PATH;
  app.get('/', { schema: { hide: true }, config: { access: { public: true } } }, async (_request, reply) => reply.header('cache-control', 'no-store').redirect(homePath));

  // Every module route declares its access and operationId, or the server does not start.
  await app.register(async (scope) => {
    scope.addHook('onRoute', (route) => declareRoute(app, route));
    const typed = scope.withTypeProvider<ZodTypeProvider>();
    for (const registerModule of MODULES) await registerModule(typed, deps);
  });

  if (options.webDist && existsSync(join(options.webDist, 'index.html'))) {
    await registerSpa(app, options.webDist);
  }
  return app;
}

/**
 * Serves the built SPA. Browser navigations (Sec-Fetch-Mode: navigate, or Accept: text/html) get
 * index.html, because some SPA routes share a path with an API call (GET /auth/signup is both the
 * sign-up page and the email check A-070).
 */
async function registerSpa(app: TApp, webDist: string): Promise<void> {
  await app.register(fastifyStatic, { root: webDist, prefix: '/', wildcard: false, index: false, cacheControl: false });
  app.get('/assets/*', { schema: { hide: true } }, (request, reply) => {
    const file = (request.params as { '*': string })['*'];
    return reply.header('cache-control', 'public, max-age=31536000, immutable').sendFile(join('assets', file));
  });
  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'GET') return;
    const path = request.url.split('?')[0] ?? '/';
    if (path === '/') return;
    if (NON_SPA_PREFIXES.some((prefix) => path === prefix || path.startsWith(prefix))) return;
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
