import type { TQueueSettings, TQueueTier } from '@switchboard/contracts';

/**
 * Queue ordering (DESIGN §8), the documented formula an admin tunes per MSP:
 *
 *   score(now) = priorityWeight × priority score (0–100)
 *              + subtypeWeight  × subtype score (0–100)
 *              − slaWeight      × hours of SLA left (negative once overdue, so overdue rises)
 *              + ageWeight      × hours since the ticket was created
 *
 * Every term is linear in `now`, so score(now) = rankKey + (slaWeight + ageWeight) × nowHours with
 * rankKey fixed per ticket: the database orders by rankKey through an index, and the order is the
 * score's order at any moment. A ticket whose subtype has no SLA is ranked as if due
 * DEFAULT_RANK_SLA_HOURS after creation (its slaDueAt stays unknown).
 */
export const DEFAULT_QUEUE_SETTINGS: TQueueSettings = {
  priorityWeight: 1,
  subtypeWeight: 0.5,
  slaWeight: 2,
  ageWeight: 0.25,
  rejectCooldownMinutes: 240,
  idleReleaseMinutes: 60,
  releaseOnSignOut: true,
  timeZone: 'UTC',
};

export const DEFAULT_RANK_SLA_HOURS = 24;
const MS_PER_HOUR = 3_600_000;

/** Tier1 = 1 … Tier3 = 3; NoTier tickets rank 4, above every technician: nobody is given them. */
export function tierRank(tier: TQueueTier): number {
  return tier === 'Tier1' ? 1 : tier === 'Tier2' ? 2 : tier === 'Tier3' ? 3 : 4;
}

export interface TRankInput {
  priorityScore: number;
  subtypeScore: number;
  /** When the SLA runs out (created + SLA hours, or + DEFAULT_RANK_SLA_HOURS without one). */
  rankDueAt: Date;
  createdAt: Date;
}

/** The time-free part of the score (see the formula above). */
export function rankKey(settings: TQueueSettings, input: TRankInput): number {
  return (
    settings.priorityWeight * input.priorityScore +
    settings.subtypeWeight * input.subtypeScore -
    settings.slaWeight * (input.rankDueAt.getTime() / MS_PER_HOUR) -
    settings.ageWeight * (input.createdAt.getTime() / MS_PER_HOUR)
  );
}

/** The score at `now` from a stored rank key. */
export function scoreAt(settings: TQueueSettings, key: number, now: Date): number {
  return Math.round((key + (settings.slaWeight + settings.ageWeight) * (now.getTime() / MS_PER_HOUR)) * 100) / 100;
}

/** The calendar day of `at` in `timeZone` (YYYY-MM-DD). */
export function dayIn(at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
}

/** The calendar day `days` after (before, when negative) the day `day` (YYYY-MM-DD), counted on the date alone. */
export function shiftDay(day: string, days: number): string {
  const shifted = new Date(`${day}T00:00:00.000Z`);
  shifted.setUTCDate(shifted.getUTCDate() + days);
  return shifted.toISOString().slice(0, 10);
}

/** How far `timeZone`'s wall clock is ahead of UTC at `at`, in ms (negative west of Greenwich). */
function offsetAt(at: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' }).formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const wall = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
  return wall - Math.floor(at.getTime() / 1000) * 1000;
}

/**
 * The first instant of the calendar day `day` (YYYY-MM-DD) in `timeZone`: its midnight, or, where a
 * daylight-saving change skips midnight, the first moment the clocks show that day.
 */
export function startOfDayIn(day: string, timeZone: string): Date {
  const wallMidnight = Date.parse(`${day}T00:00:00.000Z`);
  // The offset at a first guess, then at the instant that guess gives (right unless a change lies between).
  let at = wallMidnight - offsetAt(new Date(wallMidnight), timeZone);
  at = wallMidnight - offsetAt(new Date(at), timeZone);
  // Midnight skipped by a change: the clocks jumped from the day before straight into this one.
  while (dayIn(new Date(at), timeZone) < day) at += 15 * 60_000;
  return new Date(at);
}

/**
 * A work session that ran across midnight in the MSP's time zone (its queue settings; UTC until an admin sets
 * one) or for over 12 hours is flagged for confirmation.
 */
export function sessionFlag(startedAt: Date, endedAt: Date, timeZone: string): 'pastMidnight' | 'overTwelveHours' | null {
  if (endedAt.getTime() - startedAt.getTime() > 12 * MS_PER_HOUR) return 'overTwelveHours';
  if (dayIn(startedAt, timeZone) !== dayIn(endedAt, timeZone)) return 'pastMidnight';
  return null;
}

/** Whole and fractional minutes between two instants (never negative). */
export function minutesBetween(startedAt: Date, endedAt: Date): number {
  return Math.max(0, (endedAt.getTime() - startedAt.getTime()) / 60_000);
}

/** Hours rounded to two decimals, as totalWorkHours is shown. */
export function hoursOf(minutes: number): number {
  return Math.round((minutes / 60) * 100) / 100;
}
