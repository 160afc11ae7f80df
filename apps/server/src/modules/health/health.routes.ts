import { z } from 'zod';
import type { TModule } from '../../app-deps';

const ZReady = z.object({
  /** `degraded`: serving, but mail (2FA codes, resets) is not getting through to the SMTP server. */
  status: z.enum(['ready', 'degraded']),
  database: z.string(),
  mail: z.enum(['ok', 'unreachable', 'outbox']),
});
const ZUnavailable = z.object({ status: z.literal('unavailable'), reason: z.enum(['shutting_down', 'database']) });

/**
 * GET /health: the process is up. GET /ready: take traffic? 503 once shutdown has begun (before the
 * listener closes, so the proxy moves away first) or when the database does not answer; 200
 * `degraded` when only SMTP is failing, since another replica could not send mail either.
 */
export const registerHealthRoutes: TModule = (app, deps) => {
  app.get(
    '/health',
    { schema: { tags: ['ops'], operationId: 'health', response: { 200: z.object({ status: z.literal('ok') }) } }, config: { rateLimit: false, access: { public: true } } },
    async () => ({ status: 'ok' as const }),
  );
  app.get(
    '/ready',
    { schema: { tags: ['ops'], operationId: 'ready', response: { 200: ZReady, 503: ZUnavailable } }, config: { rateLimit: false, access: { public: true } } },
    async (_request, reply) => {
      void reply.header('cache-control', 'no-store');
      if (deps.lifecycle.isShuttingDown()) return reply.status(503).send({ status: 'unavailable' as const, reason: 'shutting_down' as const });
      try {
        await deps.database.ping();
      } catch {
        return reply.status(503).send({ status: 'unavailable' as const, reason: 'database' as const });
      }
      const mail = await deps.mailer.health();
      return { status: mail === 'unreachable' ? ('degraded' as const) : ('ready' as const), database: deps.database.kind, mail };
    },
  );
};
