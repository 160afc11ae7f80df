import { desc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { outboxMail } from '@switchboard/db';
import type { TModule } from '../../app-deps';

const ZOutboxMail = z.object({ id: z.string(), to: z.string(), subject: z.string(), text: z.string(), createdAt: z.string() });

/**
 * GET /dev/outbox?to=: mail captured when no SMTP is configured, so a person (or a test) can read
 * a 2FA code. Not registered at all in production.
 */
export const registerDevOutboxRoutes: TModule = (app, deps) => {
  if (deps.config.isProduction) return;
  app.get(
    '/dev/outbox',
    {
      schema: {
        tags: ['dev'],
        operationId: 'devOutbox',
        querystring: z.object({ to: z.string().trim().max(254).optional(), limit: z.coerce.number().int().min(1).max(100).default(20) }),
        response: { 200: z.object({ items: z.array(ZOutboxMail) }) },
      },
      // Registered only outside production, where it is how a person reads a mailed code.
      config: { access: { public: true } },
    },
    async (request) => {
      const { to, limit } = request.query;
      const rows = await deps.database.db
        .select()
        .from(outboxMail)
        .where(to ? eq(outboxMail.to, to.toLowerCase()) : undefined)
        .orderBy(desc(outboxMail.createdAt))
        .limit(limit);
      return { items: rows.map((row) => ({ id: row.id, to: row.to, subject: row.subject, text: row.text, createdAt: row.createdAt.toISOString() })) };
    },
  );
};
