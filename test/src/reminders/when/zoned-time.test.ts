import { describe, expect, it } from 'vitest';
import { addDays, daysInMonth, instantOf, isValidTimeZone, wallClockOf, weekdayOf } from '../../../../src/reminders/when/zoned-time.js';

describe('zoned time', () => {
  it('turns a Bangkok wall clock into its instant and back', () => {
    const at = instantOf({ year: 2026, month: 12, day: 25 }, 9, 30, 'Asia/Bangkok');
    expect(at.toISOString()).toBe('2026-12-25T02:30:00.000Z');
    expect(wallClockOf(at, 'Asia/Bangkok')).toEqual({ year: 2026, month: 12, day: 25, hour: 9, minute: 30, weekday: 5 });
  });

  it('handles the DST changes of America/New_York', () => {
    const zone = 'America/New_York';
    expect(instantOf({ year: 2026, month: 3, day: 7 }, 9, 0, zone).toISOString()).toBe('2026-03-07T14:00:00.000Z');
    expect(instantOf({ year: 2026, month: 3, day: 8 }, 9, 0, zone).toISOString()).toBe('2026-03-08T13:00:00.000Z');
    expect(instantOf({ year: 2026, month: 3, day: 8 }, 2, 30, zone).toISOString()).toBe('2026-03-08T07:30:00.000Z'); // skipped: 03:30 EDT
    expect(instantOf({ year: 2026, month: 11, day: 1 }, 1, 30, zone).toISOString()).toBe('2026-11-01T05:30:00.000Z'); // twice: the first
    expect(instantOf({ year: 2026, month: 11, day: 1 }, 0, 0, zone).toISOString()).toBe('2026-11-01T04:00:00.000Z');
    expect(wallClockOf(new Date('2026-11-01T06:30:00Z'), zone)).toMatchObject({ day: 1, hour: 1, minute: 30 });
  });

  it('counts days across month, year and leap-day boundaries', () => {
    expect(addDays({ year: 2026, month: 12, day: 31 }, 1)).toEqual({ year: 2027, month: 1, day: 1 });
    expect(addDays({ year: 2028, month: 2, day: 28 }, 1)).toEqual({ year: 2028, month: 2, day: 29 });
    expect(addDays({ year: 2027, month: 2, day: 28 }, 1)).toEqual({ year: 2027, month: 3, day: 1 });
    expect(addDays({ year: 2026, month: 3, day: 1 }, -1)).toEqual({ year: 2026, month: 2, day: 28 });
    expect(daysInMonth(2028, 2)).toBe(29);
    expect(daysInMonth(2100, 2)).toBe(28);
    expect(daysInMonth(2026, 12)).toBe(31);
    expect(weekdayOf({ year: 2026, month: 12, day: 7 })).toBe(1);
  });

  it('knows a zone Intl knows', () => {
    expect(isValidTimeZone('Asia/Bangkok')).toBe(true);
    expect(isValidTimeZone('Mars/Olympus')).toBe(false);
  });
});
