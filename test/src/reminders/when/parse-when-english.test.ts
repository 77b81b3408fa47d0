import { describe, expect, it } from 'vitest';
import { parseWhen } from '../../../../src/reminders/when/parse-when.js';
import type { AmbiguityReason, Recurrence, WhenContext, WhenResult } from '../../../../src/reminders/when/when-types.js';

// English phrases, read on Monday 7 December 2026 at 10:00 in Bangkok (+07:00); the helpers are those of
// parse-when.test.ts (kept in each file so no test file imports another).

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

const monday10: WhenContext = { now: new Date('2026-12-07T10:00:00+07:00'), timeZone: 'Asia/Bangkok' };

const table: [string, Expected][] = [
  ['remind us at 3pm tomorrow to submit the report', '2026-12-08T15:00:00+07:00'],
  ['tomorrow at 9am', '2026-12-08T09:00:00+07:00'],
  ['Tomorrow 9:30 PM', '2026-12-08T21:30:00+07:00'],
  ['today at 5pm', '2026-12-07T17:00:00+07:00'],
  ['today at 9am', { past: '2026-12-07T09:00:00+07:00' }],
  ['the day after tomorrow at noon', '2026-12-09T12:00:00+07:00'],
  ['in 30 minutes', '2026-12-07T10:30:00+07:00'],
  ['in 2 hours', '2026-12-07T12:00:00+07:00'],
  ['in an hour', '2026-12-07T11:00:00+07:00'],
  ['in half an hour', '2026-12-07T10:30:00+07:00'],
  ['in an hour and a half', '2026-12-07T11:30:00+07:00'],
  ['in 2 hours and 15 minutes', '2026-12-07T12:15:00+07:00'],
  ['20 minutes from now', '2026-12-07T10:20:00+07:00'],
  ['in 3 days', { ambiguous: 'no-time' }],
  ['in 2 days at 9am', '2026-12-09T09:00:00+07:00'],
  ['at 9', { ambiguous: 'part-of-day', candidates: ['2026-12-07T21:00:00+07:00', '2026-12-08T09:00:00+07:00'] }],
  ["at 7 o'clock", { ambiguous: 'part-of-day', candidates: ['2026-12-07T19:00:00+07:00', '2026-12-08T07:00:00+07:00'] }],
  ['at 15', '2026-12-07T15:00:00+07:00'],
  ['at 12', '2026-12-07T12:00:00+07:00'],
  ['9am', '2026-12-08T09:00:00+07:00'],
  ['9:30 p.m.', '2026-12-07T21:30:00+07:00'],
  ['12am', '2026-12-08T00:00:00+07:00'],
  ['12pm', '2026-12-07T12:00:00+07:00'],
  ['21:00', '2026-12-07T21:00:00+07:00'],
  ['7:30', '2026-12-08T07:30:00+07:00'], // figures from 7:00 are the 24-hour clock as written
  ['noon', '2026-12-07T12:00:00+07:00'],
  ['midnight', '2026-12-08T00:00:00+07:00'],
  ['tonight at 8', '2026-12-07T20:00:00+07:00'],
  ['tonight at 11', '2026-12-07T23:00:00+07:00'],
  ['tonight at 1', '2026-12-08T01:00:00+07:00'], // the small hours after tonight's midnight
  ['this evening at 7', '2026-12-07T19:00:00+07:00'],
  ['this evening', { ambiguous: 'no-time' }],
  ['tomorrow morning at 7', '2026-12-08T07:00:00+07:00'],
  ['tomorrow afternoon at 3', '2026-12-08T15:00:00+07:00'],
  ['on 25 December', { ambiguous: 'no-time' }],
  ['on 25 December 2026 at 9am', '2026-12-25T09:00:00+07:00'],
  ['Dec 25 at 9am', '2026-12-25T09:00:00+07:00'],
  ['December 25th, 2026 at 10:00', '2026-12-25T10:00:00+07:00'],
  ['25/12/2026 9:00', '2026-12-25T09:00:00+07:00'],
  ['25/12/26 9:00', '2026-12-25T09:00:00+07:00'], // two-digit year in English: CE
  ['2026-12-25 09:00', '2026-12-25T09:00:00+07:00'],
  ['on the 20th at 8am', '2026-12-20T08:00:00+07:00'],
  ['Friday at 5pm', '2026-12-11T17:00:00+07:00'],
  ['this Friday at 5pm', '2026-12-11T17:00:00+07:00'],
  ['next Friday at 5pm', '2026-12-18T17:00:00+07:00'],
  ['Monday at 9am', '2026-12-14T09:00:00+07:00'],
  ['next week', { ambiguous: 'no-date-or-time' }],
  ['yesterday', { past: '2026-12-06T00:00:00+07:00' }],
  ['yesterday at 5pm', { past: '2026-12-06T17:00:00+07:00' }],
  ['1 January 2025 at 9am', { past: '2025-01-01T09:00:00+07:00' }],
  ['31 February', { ambiguous: 'invalid-date' }],
  ['Tuesday, 14 December at 9am', { ambiguous: 'weekday-mismatch' }],
  ['Monday 14 December at 9am', '2026-12-14T09:00:00+07:00'],
  ['every day at 8am', { every: { kind: 'daily' }, at: '2026-12-08T08:00:00+07:00' }],
  ['every day at 8', { ambiguous: 'part-of-day', candidates: ['2026-12-07T20:00:00+07:00', '2026-12-08T08:00:00+07:00'] }],
  ['daily at 21:00', { every: { kind: 'daily' }, at: '2026-12-07T21:00:00+07:00' }],
  ['every weekday at 8:30', { every: { kind: 'weekdays' }, at: '2026-12-08T08:30:00+07:00' }],
  ['every Monday at 9am', { every: { kind: 'weekly', weekday: 1 }, at: '2026-12-14T09:00:00+07:00' }],
  ['every Sunday at 6pm', { every: { kind: 'weekly', weekday: 0 }, at: '2026-12-13T18:00:00+07:00' }],
  ['every morning at 7', { every: { kind: 'daily' }, at: '2026-12-08T07:00:00+07:00' }],
  ['every Monday', { ambiguous: 'no-time' }],
  ['every week', { ambiguous: 'no-date-or-time' }],
  ['what is the weather like', 'none'],
  ['I may go later', 'none'],
  ['the meeting was great', 'none'],
];

describe('parseWhen (English, Monday 7 Dec 2026 10:00 Asia/Bangkok)', () => {
  it.each(table)('%s', (text, want) => {
    expect(plain(parseWhen(text, monday10))).toEqual(expected(want));
  });
});
