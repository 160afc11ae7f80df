import { z } from 'zod';
import type { TModule } from '../../app-deps';

/** GET /health: the process is up. GET /ready: the database answers. */
export const registerHealthRoutes: TModule = (app, deps) => {
  app.get(
    '/health',
    { schema: { tags: ['ops'], operationId: 'health', response: { 200: z.object({ status: z.literal('ok') }) } }, config: { rateLimit: false, access: { public: true } } },
    async () => ({ status: 'ok' as const }),
  );
  app.get(
    '/ready',
    {
      schema: { tags: ['ops'], operationId: 'ready', response: { 200: z.object({ status: z.literal('ready'), database: z.string() }), 503: z.object({ status: z.literal('unavailable') }) } },
      config: { rateLimit: false, access: { public: true } },
    },
    async (_request, reply) => {
      try {
        await deps.database.ping();
        return { status: 'ready' as const, database: deps.database.kind };
      } catch {
        return reply.status(503).send({ status: 'unavailable' as const });
      }
    },
  );
};
