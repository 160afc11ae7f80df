import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { MESSAGES, SESSION_COOKIE } from '@switchboard/contracts';
import { AppError } from '../lib/app-error';
import { sha256 } from '../lib/crypto';

/** Sessions this process has seen answer as valid, newest last; bounded so memory stays flat. */
const KNOWN_SESSIONS_MAX = 50_000;

export interface TFloodGuardOptions {
  /** Requests per minute per signed-in session, or per IP address without one. */
  maxPerMinute: number;
}

/**
 * The per-process flood guard (decision 010): every request except static files, the SPA shell and
 * health probes counts against a budget of `maxPerMinute`, rejected with 429 before any database
 * work. Signed-in traffic is counted per session (the cookie token's hash), so an office behind one
 * address is not locked out; everything else per IP. A cookie counts as a session only once this
 * process has seen it load a valid session, so made-up cookies cannot open fresh budgets.
 * The sign-in limits are separate: per route, and per account in PostgreSQL.
 */
export const floodGuardPlugin = fp(async (app: FastifyInstance, options: TFloodGuardOptions) => {
  const knownSessions = new Set<string>();

  const keyOf = (request: FastifyRequest): string => {
    const token = request.cookies[SESSION_COOKIE];
    if (token && token.length <= 200) {
      const tokenHash = sha256(token);
      if (knownSessions.has(tokenHash)) return `session:${tokenHash}`;
    }
    return `ip:${request.ip}`;
  };
  const limit = app.createRateLimit({ max: options.maxPerMinute, timeWindow: 60_000, keyGenerator: keyOf });

  app.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.config.skipsSession === true) return;
    const result = await limit(request);
    if (result.isAllowed) return;
    void reply.header('x-ratelimit-limit', String(result.max)).header('x-ratelimit-remaining', String(result.remaining));
    if (result.isExceeded) throw new AppError('rate_limited', MESSAGES.tooManyRequests, { retryAfterSeconds: Math.max(1, result.ttlInSeconds) });
  });

  // A callback hook, not an async one: it runs on every response and needs no promise.
  app.addHook('onResponse', (request, _reply, done) => {
    const tokenHash = request.auth?.sessionTokenHash;
    if (tokenHash && !knownSessions.has(tokenHash)) {
      if (knownSessions.size >= KNOWN_SESSIONS_MAX) {
        const oldest = knownSessions.values().next();
        if (!oldest.done) knownSessions.delete(oldest.value);
      }
      knownSessions.add(tokenHash);
    }
    done();
  });
});
