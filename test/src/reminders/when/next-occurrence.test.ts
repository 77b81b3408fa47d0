import { describe, expect, it } from 'vitest';
import { nextOccurrence } from '../../../../src/reminders/when/next-occurrence.js';
import type { Recurrence } from '../../../../src/reminders/when/when-types.js';

const bangkok = 'Asia/Bangkok';
const iso = (text: string) => new Date(text).toISOString();
const next = (recurrence: Recurrence, after: string, hour: number, minute: number, timeZone = bangkok) =>
  nextOccurrence(recurrence, new Date(after), { hour, minute }, timeZone).toISOString();

describe('nextOccurrence', () => {
  it('is later today when the time is still ahead, else tomorrow (daily)', () => {
    expect(next({ kind: 'daily' }, '2026-12-07T07:00:00+07:00', 8, 0)).toBe(iso('2026-12-07T08:00:00+07:00'));
    expect(next({ kind: 'daily' }, '2026-12-07T09:00:00+07:00', 8, 0)).toBe(iso('2026-12-08T08:00:00+07:00'));
  });

  it('is strictly after the instant given', () => {
    expect(next({ kind: 'daily' }, '2026-12-07T08:00:00+07:00', 8, 0)).toBe(iso('2026-12-08T08:00:00+07:00'));
    expect(next({ kind: 'weekly', weekday: 1 }, '2026-12-07T08:30:00+07:00', 8, 30)).toBe(iso('2026-12-14T08:30:00+07:00'));
  });

  it('goes weekly across a month end and a year end', () => {
    // Friday 27 November 2026 → Tuesday 1 December.
    expect(next({ kind: 'weekly', weekday: 2 }, '2026-11-27T12:00:00+07:00', 9, 0)).toBe(iso('2026-12-01T09:00:00+07:00'));
    // Thursday 31 December 2026 → Monday 4 January 2027.
    expect(next({ kind: 'weekly', weekday: 1 }, '2026-12-31T23:50:00+07:00', 8, 0)).toBe(iso('2027-01-04T08:00:00+07:00'));
    // The weekly day is today, its time still ahead: today.
    expect(next({ kind: 'weekly', weekday: 4 }, '2026-12-31T07:00:00+07:00', 8, 0)).toBe(iso('2026-12-31T08:00:00+07:00'));
  });

  it('skips the weekend for weekdays', () => {
    // Friday 11 December 2026 after 08:30 → Monday 14th.
    expect(next({ kind: 'weekdays' }, '2026-12-11T09:00:00+07:00', 8, 30)).toBe(iso('2026-12-14T08:30:00+07:00'));
    expect(next({ kind: 'weekdays' }, '2026-12-12T07:00:00+07:00', 8, 30)).toBe(iso('2026-12-14T08:30:00+07:00'));
    expect(next({ kind: 'weekdays' }, '2026-12-13T23:59:00+07:00', 8, 30)).toBe(iso('2026-12-14T08:30:00+07:00'));
    expect(next({ kind: 'weekdays' }, '2026-12-14T08:00:00+07:00', 8, 30)).toBe(iso('2026-12-14T08:30:00+07:00'));
  });

  it('keeps the wall-clock time across DST in America/New_York', () => {
    const newYork = 'America/New_York';
    // Saturday 7 March 2026 09:00 EST → Sunday 8 March 09:00 EDT (23 hours later).
    expect(next({ kind: 'daily' }, '2026-03-07T09:30:00-05:00', 9, 0, newYork)).toBe(iso('2026-03-08T09:00:00-04:00'));
    // 02:30 does not exist on 8 March: moved forward to 03:30 EDT.
    expect(next({ kind: 'daily' }, '2026-03-07T09:30:00-05:00', 2, 30, newYork)).toBe(iso('2026-03-08T03:30:00-04:00'));
    // Weekly Monday across the end of DST (Sunday 1 November).
    expect(next({ kind: 'weekly', weekday: 1 }, '2026-10-27T12:00:00-04:00', 9, 0, newYork)).toBe(iso('2026-11-02T09:00:00-05:00'));
    // 01:30 happens twice on 1 November: the first one (EDT).
    expect(next({ kind: 'daily' }, '2026-10-31T12:00:00-04:00', 1, 30, newYork)).toBe(iso('2026-11-01T01:30:00-04:00'));
  });

  it('reads the day in the zone given, not in UTC', () => {
    // 2026-12-07T20:00Z is already Tuesday 8 December 03:00 in Bangkok.
    expect(next({ kind: 'weekly', weekday: 2 }, '2026-12-07T20:00:00Z', 8, 0)).toBe(iso('2026-12-08T08:00:00+07:00'));
  });

  it('never throws: an unknown zone is UTC, a time of day out of range is clamped', () => {
    expect(next({ kind: 'daily' }, '2026-12-07T07:00:00Z', 8, 0, 'Nowhere/Else')).toBe(iso('2026-12-07T08:00:00Z'));
    expect(next({ kind: 'daily' }, '2026-12-07T07:00:00Z', 99, -5, 'UTC')).toBe(iso('2026-12-07T23:00:00Z'));
    // A weekday out of range is taken modulo 7: 8 is Monday, and Monday 7 December is today.
    expect(next({ kind: 'weekly', weekday: 8 }, '2026-12-07T07:00:00Z', 9, 0, 'UTC')).toBe(iso('2026-12-07T09:00:00Z'));
  });
});
