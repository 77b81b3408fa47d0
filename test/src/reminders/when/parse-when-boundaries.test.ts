import { describe, expect, it } from 'vitest';
import { parseWhen } from '../../../../src/reminders/when/parse-when.js';
import type { AmbiguityReason, Recurrence, WhenContext, WhenResult } from '../../../../src/reminders/when/when-types.js';

// Boundaries: the turn of the year, a month end, a leap day, the two DST changes of America/New_York, and input that
// is not a time at all. Helpers as in parse-when.test.ts.

type Expected = string | 'none' | { past: string } | { ambiguous: AmbiguityReason; candidates?: string[] } | { every: Recurrence; at: string };

/** The result in a form a failing test prints readably (instants as ISO UTC). */
function plain(result: WhenResult): unknown {
  switch (result.kind) {
    case 'none':
      return 'none';
    case 'at':
      return result.recurrence ? { every: result.recurrence, at: result.at.toISOString() } : result.at.toISOString();
    case 'past':
      return { past: result.at.toISOString() };
    case 'ambiguous':
      return { ambiguous: result.reason, candidates: result.candidates.map((at) => at.toISOString()) };
  }
}

function expected(value: Expected): unknown {
  const iso = (text: string) => new Date(text).toISOString();
  if (value === 'none') return 'none';
  if (typeof value === 'string') return iso(value);
  if ('past' in value) return { past: iso(value.past) };
  if ('every' in value) return { every: value.every, at: iso(value.at) };
  return { ambiguous: value.ambiguous, candidates: (value.candidates ?? []).map(iso) };
}

const at = (now: string, timeZone = 'Asia/Bangkok'): WhenContext => ({ now: new Date(now), timeZone });

const cases: [string, WhenContext, Expected][] = [
  // Thursday 31 December 2026, 23:50 in Bangkok.
  ['อีก 30 นาที', at('2026-12-31T23:50:00+07:00'), '2027-01-01T00:20:00+07:00'],
  ['in 15 minutes', at('2026-12-31T23:50:00+07:00'), '2027-01-01T00:05:00+07:00'],
  ['พรุ่งนี้ 9 โมง', at('2026-12-31T23:50:00+07:00'), '2027-01-01T09:00:00+07:00'],
  ['มะรืนนี้ 9 โมง', at('2026-12-31T23:50:00+07:00'), '2027-01-02T09:00:00+07:00'],
  ['เที่ยงคืน', at('2026-12-31T23:50:00+07:00'), '2027-01-01T00:00:00+07:00'],
  ['ห้าทุ่ม', at('2026-12-31T23:50:00+07:00'), '2027-01-01T23:00:00+07:00'],
  ['1 ม.ค. 9 โมง', at('2026-12-31T23:50:00+07:00'), '2027-01-01T09:00:00+07:00'],
  ['31 ธ.ค. 23:55', at('2026-12-31T23:50:00+07:00'), '2026-12-31T23:55:00+07:00'],
  ['31 ธ.ค. 23:00', at('2026-12-31T23:50:00+07:00'), { past: '2026-12-31T23:00:00+07:00' }],
  ['วันศุกร์ 10 โมง', at('2026-12-31T23:50:00+07:00'), '2027-01-01T10:00:00+07:00'],
  ['วันศุกร์หน้า 10 โมง', at('2026-12-31T23:50:00+07:00'), '2027-01-08T10:00:00+07:00'],
  ['ทุกวันจันทร์ 8 โมง', at('2026-12-31T23:50:00+07:00'), { every: { kind: 'weekly', weekday: 1 }, at: '2027-01-04T08:00:00+07:00' }],
  ['ทุกวันธรรมดา 8 โมง', at('2026-12-31T23:50:00+07:00'), { every: { kind: 'weekdays' }, at: '2027-01-01T08:00:00+07:00' }],
  ['วันที่ 1 9 โมง', at('2026-12-31T23:50:00+07:00'), '2027-01-01T09:00:00+07:00'],
  ['25 ธ.ค. 9 โมง', at('2026-12-31T23:50:00+07:00'), '2027-12-25T09:00:00+07:00'],
  // Saturday 31 January 2026, noon.
  ['พรุ่งนี้ 9 โมง', at('2026-01-31T12:00:00+07:00'), '2026-02-01T09:00:00+07:00'],
  ['อีก 1 วัน 9 โมง', at('2026-01-31T12:00:00+07:00'), '2026-02-01T09:00:00+07:00'],
  ['วันที่ 30 9 โมง', at('2026-01-31T12:00:00+07:00'), '2026-03-30T09:00:00+07:00'], // February has no 30th
  ['วันจันทร์หน้า 9 โมง', at('2026-01-31T12:00:00+07:00'), '2026-02-02T09:00:00+07:00'],
  // Leap day: Monday 28 February 2028, 20:00.
  ['พรุ่งนี้ 9 โมง', at('2028-02-28T20:00:00+07:00'), '2028-02-29T09:00:00+07:00'],
  ['มะรืนนี้ 9 โมง', at('2028-02-28T20:00:00+07:00'), '2028-03-01T09:00:00+07:00'],
  ['29 ก.พ. 10 โมง', at('2028-02-28T20:00:00+07:00'), '2028-02-29T10:00:00+07:00'],
  ['29/2 10:00', at('2028-02-28T20:00:00+07:00'), '2028-02-29T10:00:00+07:00'],
  ['ทุกวันอังคาร 9 โมง', at('2028-02-28T20:00:00+07:00'), { every: { kind: 'weekly', weekday: 2 }, at: '2028-02-29T09:00:00+07:00' }],
  ['29 ก.พ. 10 โมง', at('2027-02-01T20:00:00+07:00'), { ambiguous: 'invalid-date' }],
  // America/New_York: DST starts Sunday 8 March 2026 at 02:00 (to 03:00).
  ['tomorrow at 9am', at('2026-03-07T12:00:00-05:00', 'America/New_York'), '2026-03-08T09:00:00-04:00'],
  ['tomorrow at 2:30am', at('2026-03-07T12:00:00-05:00', 'America/New_York'), '2026-03-08T03:30:00-04:00'], // a skipped time moves forward
  ['in 24 hours', at('2026-03-07T12:00:00-05:00', 'America/New_York'), '2026-03-08T13:00:00-04:00'],
  ['every day at 9am', at('2026-03-07T12:00:00-05:00', 'America/New_York'), { every: { kind: 'daily' }, at: '2026-03-08T09:00:00-04:00' }],
  [
    'at 3',
    at('2026-03-07T22:00:00-05:00', 'America/New_York'),
    { ambiguous: 'part-of-day', candidates: ['2026-03-08T03:00:00-04:00', '2026-03-08T15:00:00-04:00'] },
  ],
  // DST ends Sunday 1 November 2026 at 02:00 (back to 01:00).
  ['tomorrow at 1:30am', at('2026-10-31T12:00:00-04:00', 'America/New_York'), '2026-11-01T01:30:00-04:00'], // the first of the two
  ['tomorrow at 9am', at('2026-10-31T12:00:00-04:00', 'America/New_York'), '2026-11-01T09:00:00-05:00'],
  ['every Monday at 9am', at('2026-10-31T12:00:00-04:00', 'America/New_York'), { every: { kind: 'weekly', weekday: 1 }, at: '2026-11-02T09:00:00-05:00' }],
  // The same words in another zone give another instant.
  ['tomorrow at 9am', at('2026-12-07T10:00:00+07:00', 'Europe/London'), '2026-12-08T09:00:00+00:00'],
];

describe('parseWhen at the edges of days, months, years and DST', () => {
  it.each(cases)('%s (now %s)', (text, context, want) => {
    expect(plain(parseWhen(text, context))).toEqual(expected(want));
  });
});

describe('parseWhen on hostile or broken input', () => {
  const context = at('2026-12-07T10:00:00+07:00');

  it('reads only the first 500 characters', () => {
    expect(parseWhen(`${'!'.repeat(600)}พรุ่งนี้ 9 โมง`, context)).toEqual({ kind: 'none' });
    expect(parseWhen(`พรุ่งนี้ 9 โมง${'!'.repeat(100_000)}`, context).kind).toBe('at');
  });

  it('gives a value for long runs of what the patterns look for', () => {
    for (const text of [
      '9'.repeat(100_000),
      'โมง'.repeat(50_000),
      '9 โมง '.repeat(20_000),
      'at '.repeat(40_000),
      ':'.repeat(100_000),
      'อีก'.repeat(50_000),
      '1/'.repeat(50_000),
    ]) {
      expect(['at', 'ambiguous', 'past', 'none']).toContain(parseWhen(text, context).kind);
    }
  });

  it('gives none for an unknown zone or an invalid now, and for a lone surrogate', () => {
    expect(parseWhen('พรุ่งนี้ 9 โมง', { now: new Date('2026-12-07T10:00:00+07:00'), timeZone: 'Mars/Olympus' })).toEqual({ kind: 'none' });
    expect(parseWhen('พรุ่งนี้ 9 โมง', { now: new Date(Number.NaN), timeZone: 'Asia/Bangkok' })).toEqual({ kind: 'none' });
    expect(parseWhen('\ud800 พรุ่งนี้', context).kind).toBe('ambiguous');
  });
});
