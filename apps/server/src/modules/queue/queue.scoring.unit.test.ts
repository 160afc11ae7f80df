import { describe, expect, it } from 'vitest';
import { dayIn, sessionFlag, startOfDayIn } from './queue.scoring';

describe('the MSP’s working day (its time zone)', () => {
  it('starts at local midnight, east and west of Greenwich and on half-hour offsets', () => {
    expect(startOfDayIn('2026-11-28', 'UTC').toISOString()).toBe('2026-11-28T00:00:00.000Z');
    expect(startOfDayIn('2026-11-28', 'America/Denver').toISOString()).toBe('2026-11-28T07:00:00.000Z');
    expect(startOfDayIn('2026-11-28', 'Asia/Kolkata').toISOString()).toBe('2026-11-27T18:30:00.000Z');
    expect(startOfDayIn('2026-11-28', 'Pacific/Kiritimati').toISOString()).toBe('2026-11-27T10:00:00.000Z');
  });

  it('is 23 or 25 hours long across a daylight-saving change', () => {
    const hours = (day: string, next: string, zone: string) => (startOfDayIn(next, zone).getTime() - startOfDayIn(day, zone).getTime()) / 3_600_000;
    expect(hours('2026-03-08', '2026-03-09', 'America/New_York')).toBe(23);
    expect(hours('2026-11-01', '2026-11-02', 'America/New_York')).toBe(25);
    expect(hours('2026-03-29', '2026-03-30', 'Europe/London')).toBe(23);
  });

  it('starts at the first moment the clocks show the day when a change skips its midnight', () => {
    // Chile moves its clocks from 00:00 to 01:00 on the first Sunday of September.
    const start = startOfDayIn('2026-09-06', 'America/Santiago');
    expect(start.toISOString()).toBe('2026-09-06T04:00:00.000Z');
    expect(dayIn(start, 'America/Santiago')).toBe('2026-09-06');
    expect(dayIn(new Date(start.getTime() - 1), 'America/Santiago')).toBe('2026-09-05');
  });

  it('flags a session past the MSP’s midnight, not UTC’s', () => {
    const start = new Date('2026-11-28T02:00:00.000Z');
    const end = new Date('2026-11-28T06:30:00.000Z');
    expect(sessionFlag(start, end, 'UTC')).toBeNull();
    // 21:00 to 01:30 in New York.
    expect(sessionFlag(start, end, 'America/New_York')).toBe('pastMidnight');
  });
});
