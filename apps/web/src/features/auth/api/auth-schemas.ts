import { z } from 'zod';

/** GET /dev/outbox (non-production): the contracts package leaves dev-only shapes out, so the page keeps its own. */
export const ZOutboxMail = z.object({ id: z.string(), to: z.string(), subject: z.string(), text: z.string(), createdAt: z.string() });
export type TOutboxMail = z.infer<typeof ZOutboxMail>;
export const ZOutbox = z.object({ items: z.array(ZOutboxMail) });
