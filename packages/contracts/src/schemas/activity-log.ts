import { z } from 'zod';
import { ACTIVITY_KINDS } from '../admin-lists';

export const ZActivityKind = z.enum(ACTIVITY_KINDS);
export type TActivityKind = z.infer<typeof ZActivityKind>;

const ZDay = z.iso.date('Use a date like 2026-01-31.');

export const ZActivityLogQuery = z
  .object({
    page: z.coerce.number().int().min(1, 'Page must be 1 or more.').max(100_000).default(1),
    pageSize: z.coerce.number().int().min(1).max(100, 'Page size is at most 100.').default(50),
    /** A person: the user's id. */
    userId: z.uuid('Choose a person from the list.').optional(),
    kind: ZActivityKind.optional(),
    from: ZDay.optional(),
    to: ZDay.optional(),
  })
  .refine((query) => !query.from || !query.to || query.from <= query.to, { message: 'The start date must be on or before the end date.', path: ['from'] });
export type TActivityLogQuery = z.input<typeof ZActivityLogQuery>;

export const ZActivityEvent = z.object({
  id: z.uuid(),
  at: z.string(),
  who: z.string(),
  userId: z.string().nullable(),
  action: z.string(),
  kind: ZActivityKind,
  /** The target as the action recorded it: an id (uuid or PSA number), an e-mail, a domain. */
  target: z.string().nullable(),
  /** The target in words (the user's name, the ticket's number and summary…), when the log knows a better name than `target`. */
  targetLabel: z.string().nullable(),
  outcome: z.enum(['success', 'failure']),
  ip: z.string().nullable(),
});
export type TActivityEvent = z.infer<typeof ZActivityEvent>;

export const ZActivityPage = z.object({
  items: z.array(ZActivityEvent),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  /** The people who appear in the MSP's log, for the person filter. */
  people: z.array(z.object({ userId: z.string(), name: z.string() })),
});
export type TActivityPage = z.infer<typeof ZActivityPage>;
