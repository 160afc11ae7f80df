import type { TCreateOptions } from './request';

/**
 * For the creates the durable outbox sends that are looked up before every send: tickets and Autotask contacts by the
 * idempotency key they carry, time entries by ticket, member and start, attachments by ticket, name and size. The
 * outbox sends a write again after an earlier call threw, when it may already have landed, so these look it up first.
 * Creates found by their content alone (notes, ConnectWise contacts) look up first only on a resend
 * (TCreateOptions.resend): an identical earlier record is often someone else's.
 */
export const lookUpFirst: TCreateOptions = Object.freeze({ lookUpFirst: true });

/** An ISO 8601 date-time without a zone is read as UTC (the PSAs keep UTC), not as this machine's local time. */
const zonelessDateTime = /T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;

/**
 * True when a record the PSA dates `createdAt` may be this write's: created at or after `createdSince`. A record
 * without a readable date may be too (the lookup then works as it did before the PSA's dates were compared).
 */
export function isCreatedSince(createdAt: string | null | undefined, createdSince: Date): boolean {
  if (!createdAt) return true;
  const time = Date.parse(zonelessDateTime.test(createdAt) ? `${createdAt}Z` : createdAt);
  return Number.isNaN(time) || time >= createdSince.getTime();
}
