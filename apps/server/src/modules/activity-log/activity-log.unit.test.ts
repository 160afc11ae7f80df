import { describe, expect, it } from 'vitest';
import { startOfDay } from './activity-log.service';

describe('startOfDay', () => {
  it('is the UTC midnight without a zone', () => {
    expect(startOfDay('2026-03-01').toISOString()).toBe('2026-03-01T00:00:00.000Z');
  });

  it('is the zone\'s midnight, with the offset of that day', () => {
    expect(startOfDay('2026-03-01', 'America/New_York').toISOString()).toBe('2026-03-01T05:00:00.000Z');
    // The day after the switch to summer time (8 March 2026 in New York).
    expect(startOfDay('2026-03-09', 'America/New_York').toISOString()).toBe('2026-03-09T04:00:00.000Z');
    // The day of the switch: midnight is still winter time.
    expect(startOfDay('2026-03-08', 'America/New_York').toISOString()).toBe('2026-03-08T05:00:00.000Z');
    expect(startOfDay('2026-01-15', 'Pacific/Auckland').toISOString()).toBe('2026-01-14T11:00:00.000Z');
    expect(startOfDay('2026-07-15', 'Asia/Kolkata').toISOString()).toBe('2026-07-14T18:30:00.000Z');
  });

  it('starts a day whose midnight the clocks skip when the clocks jump', () => {
    // Chile went from 23:59:59 on 10 September 2022 to 01:00 on the 11th (UTC-4 to UTC-3).
    expect(startOfDay('2022-09-11', 'America/Santiago').toISOString()).toBe('2022-09-11T04:00:00.000Z');
  });

  it('holds at the ends of the filter\'s range', () => {
    expect(startOfDay('1970-01-01', 'Pacific/Auckland').toISOString()).toBe('1969-12-31T12:00:00.000Z');
    expect(startOfDay('9999-01-01', 'America/Los_Angeles').toISOString()).toBe('9999-01-01T08:00:00.000Z');
  });
});
