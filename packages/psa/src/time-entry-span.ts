import { PsaError } from './errors';
import type { TAddPsaTimeEntry } from './psa-client';

/** ISO 8601 to the second, the precision both PSAs keep for time entries. */
export function toWholeSecondIso(value: string, field: string): string {
  const time = Date.parse(value);
  if (Number.isNaN(time)) throw new PsaError('validation', `${field} is not an ISO 8601 time.`, { fieldMessages: [{ field, message: 'Must be an ISO 8601 time.' }] });
  return new Date(Math.floor(time / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * Whether a time entry the PSA holds is the one being added: the same start second, or, should the PSA keep times
 * only to the minute, the same start and end minute with the same notes (two real entries differ in one of those).
 */
export function isSameTimeEntry(held: { startAt: string; endAt: string | null; notes: string }, wanted: { startAt: string; endAt: string; notes: string }): boolean {
  if (isSameSecond(held.startAt, wanted.startAt)) return true;
  const minute = (value: string | null): number => (value === null ? Number.NaN : Math.floor(Date.parse(value) / 60_000));
  return minute(held.startAt) === minute(wanted.startAt) && minute(held.endAt) === minute(wanted.endAt) && held.notes === wanted.notes;
}

/** Two PSA timestamps name the same second (the PSAs echo times in their own formats). */
export function isSameSecond(a: string | null | undefined, b: string): boolean {
  if (!a) return false;
  const left = Date.parse(a);
  return !Number.isNaN(left) && Math.floor(left / 1000) === Math.floor(Date.parse(b) / 1000);
}

/** The start and end of a time entry to the second, refusing an entry that does not end after it starts. */
export function timeEntrySpan(input: Pick<TAddPsaTimeEntry, 'startAt' | 'endAt'>): { startAt: string; endAt: string; hours: number } {
  const startAt = toWholeSecondIso(input.startAt, 'startAt');
  const endAt = toWholeSecondIso(input.endAt, 'endAt');
  const milliseconds = Date.parse(endAt) - Date.parse(startAt);
  if (milliseconds <= 0) throw new PsaError('validation', 'A time entry must end after it starts.', { fieldMessages: [{ field: 'endAt', message: 'Must be after startAt.' }] });
  return { startAt, endAt, hours: Math.round((milliseconds / 3_600_000) * 10_000) / 10_000 };
}
