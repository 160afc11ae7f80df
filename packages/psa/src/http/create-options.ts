import type { TCreateOptions } from './request';

/**
 * For every write the durable outbox sends (tickets, notes, time entries, contacts): the outbox sends a write again
 * after an earlier call threw, when it may already have landed, so these creates look their record up before sending.
 */
export const lookUpFirst: TCreateOptions = Object.freeze({ lookUpFirst: true });
