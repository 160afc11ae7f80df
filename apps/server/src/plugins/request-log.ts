import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { TLifecycle } from '../lib/lifecycle';
import { scrubForLog } from '../lib/log-safety';

/** Probes a load balancer sends every few seconds: logged at debug so they do not drown the rest. */
const PROBE_PATHS = new Set(['/health', '/ready']);

/**
 * One log line per finished request (Fastify's own request logging is off): method, route pattern
 * and path without the query string (A-070 and others carry e-mail addresses there), status and
 * time, under the request id. Also tells the lifecycle what is in flight, for the shutdown log.
 */
export const requestLogPlugin = fp(async (app: FastifyInstance, options: { lifecycle: TLifecycle }) => {
  app.addHook('onRequest', async (request) => {
    options.lifecycle.requestStarted({ id: request.id, method: request.method, route: request.routeOptions.url ?? 'unmatched', startedAt: Date.now() });
  });
  const finish = (request: { id: string }) => options.lifecycle.requestFinished(request.id);
  app.addHook('onRequestAbort', async (request) => finish(request));
  app.addHook('onResponse', async (request, reply) => {
    finish(request);
    const path = request.url.split('?')[0] ?? '';
    // An unmatched path is whatever the client sent, so it is scrubbed like any other free text.
    const line = { method: request.method, route: request.routeOptions.url, path: scrubForLog(path), statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime) };
    if (PROBE_PATHS.has(path)) request.log.debug(line, 'request completed');
    else request.log.info(line, 'request completed');
  });
});
