import { z } from 'zod';
import { ACTIVITY_KINDS } from '../admin-lists';
import { isTimeZone } from './queue';

export const ZActivityKind = z.enum(ACTIVITY_KINDS);
export type TActivityKind = z.infer<typeof ZActivityKind>;

/**
 * A whole day of the log's filter. Bounded so that the day after `to` (the filter's exclusive end) and the first
 * instant of `from` in any time zone are dates JavaScript writes and PostgreSQL reads alike: year 0000 is not one
 * PostgreSQL has, and 9999-12-31 plus a day is year 10000 (it was a 500).
 */
const ACTIVITY_DAY_MESSAGE = 'Use a date between 1970 and 9998, like 2026-01-31.';
const ZDay = z.iso.date(ACTIVITY_DAY_MESSAGE).refine((day) => day >= '1970-01-01' && day <= '9998-12-31', ACTIVITY_DAY_MESSAGE);

/** The time zone whose days `from` and `to` name: the screen sends the browser's, so the days match the times it shows. */
const ZTimeZone = z.string().trim().min(1).max(64).refine(isTimeZone, 'The time zone is not one this server knows.');

export const ZActivityLogQuery = z
  .object({
    page: z.coerce.number().int().min(1, 'Page must be 1 or more.').max(100_000).default(1),
    pageSize: z.coerce.number().int().min(1).max(100, 'Page size is at most 100.').default(50),
    /** A person: the user's id. */
    userId: z.uuid('Choose a person from the list.').optional(),
    kind: ZActivityKind.optional(),
    from: ZDay.optional(),
    to: ZDay.optional(),
    /** An IANA time zone (the browser's); without it the days are UTC days. */
    tz: ZTimeZone.optional(),
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
