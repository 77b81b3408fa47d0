import { describe, expect, it } from 'vitest';
import { parseWhen } from '../../../../src/reminders/when/parse-when.js';
import type { AmbiguityReason, Recurrence, WhenContext, WhenResult } from '../../../../src/reminders/when/when-types.js';

// Thai phrases, read on Monday 7 December 2026 at 10:00 in Bangkok (+07:00). The rules each row checks are in the
// comments of src/reminders/when/*.ts; expected instants are written with their offset so they can be read as is.

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
  // Days in words with a clock time; Thai digits, number words, no spaces.
  ['เตือนประชุมพรุ่งนี้ 9 โมง', '2026-12-08T09:00:00+07:00'],
  ['พรุ่งนี้9โมง', '2026-12-08T09:00:00+07:00'],
  ['9โมงเช้าพรุ่งนี้', '2026-12-08T09:00:00+07:00'],
  ['พรุ่งนี้ ๙ โมง', '2026-12-08T09:00:00+07:00'],
  ['พรุ่งนี้ เก้าโมง', '2026-12-08T09:00:00+07:00'],
  ['วันนี้ 3 โมง', '2026-12-07T15:00:00+07:00'], // 03:00 is gone: the afternoon is the only reading left
  ['วันนี้ 9 โมง', { past: '2026-12-07T09:00:00+07:00' }],
  ['วันนี้บ่ายสาม', '2026-12-07T15:00:00+07:00'],
  ['มะรืนนี้ 10 โมง', '2026-12-09T10:00:00+07:00'],
  ['มะรืน บ่าย 2', '2026-12-09T14:00:00+07:00'],
  ['เมื่อวาน', { past: '2026-12-06T00:00:00+07:00' }],
  ['เมื่อวาน 5 โมงเย็น', { past: '2026-12-06T17:00:00+07:00' }],
  ['พรุ่งนี้', { ambiguous: 'no-time' }],
  ['พรุ่งนี้เช้า', { ambiguous: 'no-time' }],
  ['พรุ่งนี้ 3 โมง', { ambiguous: 'part-of-day', candidates: ['2026-12-08T03:00:00+07:00', '2026-12-08T15:00:00+07:00'] }],
  ['พรุ่งนี้เช้า 6 โมง', '2026-12-08T06:00:00+07:00'],
  ['พรุ่งนี้เที่ยงคืน', '2026-12-09T00:00:00+07:00'],
  ['คืนนี้ 2 ทุ่ม', '2026-12-07T20:00:00+07:00'],
  ['ตอนเย็น 5 โมง', '2026-12-07T17:00:00+07:00'],
  ['ซื้อน้ำเย็น 3 โมง', { ambiguous: 'part-of-day', candidates: ['2026-12-07T15:00:00+07:00', '2026-12-08T03:00:00+07:00'] }],
  // Durations.
  ['อีก 30 นาที', '2026-12-07T10:30:00+07:00'],
  ['อีก ๓๐ นาทีเตือนด้วย', '2026-12-07T10:30:00+07:00'],
  ['อีกสามสิบนาที', '2026-12-07T10:30:00+07:00'],
  ['อีกครึ่งชั่วโมง', '2026-12-07T10:30:00+07:00'],
  ['อีก 2 ชม.', '2026-12-07T12:00:00+07:00'],
  ['อีก 2 ชั่วโมง', '2026-12-07T12:00:00+07:00'],
  ['อีกชั่วโมงนึง', '2026-12-07T11:00:00+07:00'],
  ['อีกชั่วโมงครึ่ง', '2026-12-07T11:30:00+07:00'],
  ['อีก 1 ชั่วโมง 30 นาที', '2026-12-07T11:30:00+07:00'],
  ['ภายใน 45 นาที', '2026-12-07T10:45:00+07:00'],
  ['10 นาทีข้างหน้า', '2026-12-07T10:10:00+07:00'],
  ['อีก 3 วัน', { ambiguous: 'no-time' }],
  ['อีก 3 วัน 9 โมง', '2026-12-10T09:00:00+07:00'],
  ['อีก 1 สัปดาห์ บ่ายโมง', '2026-12-14T13:00:00+07:00'],
  // Weekdays: the first after today; หน้า = that day of next week (Monday to Sunday).
  ['วันศุกร์ 10 โมง', '2026-12-11T10:00:00+07:00'],
  ['ศุกร์นี้ 10 โมง', '2026-12-11T10:00:00+07:00'],
  ['วันศุกร์หน้า 10 โมง', '2026-12-18T10:00:00+07:00'],
  ['ศุกร์หน้า 10 โมง', '2026-12-18T10:00:00+07:00'],
  ['วันศุกร์สัปดาห์หน้า 10 โมง', '2026-12-18T10:00:00+07:00'],
  ['วันจันทร์ 9 โมง', '2026-12-14T09:00:00+07:00'], // today is Monday: "วันจันทร์" is next Monday
  ['วันอาทิตย์ 8 โมง', '2026-12-13T08:00:00+07:00'],
  ['วันอาทิตย์หน้า 8 โมง', '2026-12-20T08:00:00+07:00'],
  ['วันพฤหัสบดี บ่ายโมงครึ่ง', '2026-12-10T13:30:00+07:00'],
  ['วันพุธ', { ambiguous: 'no-time' }],
  ['อาทิตย์หน้า', { ambiguous: 'no-date-or-time' }], // อาทิตย์ without วัน: the week
  ['สัปดาห์หน้า 9 โมง', { ambiguous: 'no-date-or-time' }],
  // Written dates; Buddhist-Era years, two-digit BE, day-first slashes, ISO.
  ['25 ธ.ค. 9 โมง', '2026-12-25T09:00:00+07:00'],
  ['25 ธันวาคม 10:00', '2026-12-25T10:00:00+07:00'],
  ['25 ธ.ค. 69 10 โมง', '2026-12-25T10:00:00+07:00'],
  ['25 ธันวาคม 2569 เวลา 9.30 น.', '2026-12-25T09:30:00+07:00'],
  ['๒๕ ธันวาคม ๒๕๖๙ เวลา ๙.๓๐ น.', '2026-12-25T09:30:00+07:00'],
  ['25/12/2569 13:00', '2026-12-25T13:00:00+07:00'],
  ['ประชุม 25/12/69 13:00', '2026-12-25T13:00:00+07:00'],
  ['25/12 บ่าย 3', '2026-12-25T15:00:00+07:00'],
  ['2026-12-25 21:00', '2026-12-25T21:00:00+07:00'],
  ['1 ม.ค. 9 โมง', '2027-01-01T09:00:00+07:00'],
  ['5 ธ.ค. 9 โมง', '2027-12-05T09:00:00+07:00'], // gone this year: next year's
  ['7 ธ.ค. 9 โมง', { past: '2026-12-07T09:00:00+07:00' }], // today, an hour ago
  ['1 ม.ค. 2568 9:00', { past: '2025-01-01T09:00:00+07:00' }],
  ['31 ก.พ.', { ambiguous: 'invalid-date' }],
  ['31 เม.ย. 9 โมง', { ambiguous: 'invalid-date' }],
  ['29 ก.พ. 2571 9 โมง', '2028-02-29T09:00:00+07:00'],
  ['29 ก.พ. 2570', { ambiguous: 'invalid-date' }],
  ['วันจันทร์ที่ 14 ธ.ค. 9 โมง', '2026-12-14T09:00:00+07:00'], // the 14th is a Monday
  ['วันอังคารที่ 14 ธ.ค. 9 โมง', { ambiguous: 'weekday-mismatch' }], // it is not a Tuesday: asked
  ['พฤหัสที่ 17 ธ.ค. บ่ายสอง', '2026-12-17T14:00:00+07:00'],
  ['วันพฤหัสบดีที่ 18 ธ.ค. บ่ายสอง', { ambiguous: 'weekday-mismatch' }],
  ['วันที่ 25 10 โมง', '2026-12-25T10:00:00+07:00'],
  ['วันที่ 5 10 โมง', '2027-01-05T10:00:00+07:00'],
  ['วันที่ 31 ธ.ค. ตอน 9 โมง', '2026-12-31T09:00:00+07:00'],
  ['25 ธ.ค.', { ambiguous: 'no-time' }],
  // The six-hour clock.
  ['ตีห้า', '2026-12-08T05:00:00+07:00'],
  ['ตีหนึ่งครึ่ง', '2026-12-08T01:30:00+07:00'],
  ['ตี 3', '2026-12-08T03:00:00+07:00'],
  ['หกโมงเช้า', '2026-12-08T06:00:00+07:00'],
  ['เจ็ดโมง', '2026-12-08T07:00:00+07:00'],
  ['สิบเอ็ดโมง', '2026-12-07T11:00:00+07:00'],
  ['สิบโมงครึ่ง', '2026-12-07T10:30:00+07:00'],
  ['10 โมงตรง', '2026-12-08T10:00:00+07:00'], // now is 10:00: strictly after
  ['เที่ยง', '2026-12-07T12:00:00+07:00'],
  ['เที่ยงวัน', '2026-12-07T12:00:00+07:00'],
  ['เที่ยงครึ่ง', '2026-12-07T12:30:00+07:00'],
  ['บ่ายโมง', '2026-12-07T13:00:00+07:00'],
  ['บ่ายสองโมง', '2026-12-07T14:00:00+07:00'],
  ['บ่าย 2 โมงครึ่ง', '2026-12-07T14:30:00+07:00'],
  ['บ่าย 2.30', '2026-12-07T14:30:00+07:00'],
  ['สี่โมงเย็น', '2026-12-07T16:00:00+07:00'],
  ['4 โมงเย็น', '2026-12-07T16:00:00+07:00'],
  ['ห้าโมงเย็น', '2026-12-07T17:00:00+07:00'],
  ['หกโมงเย็น', '2026-12-07T18:00:00+07:00'],
  ['หนึ่งทุ่ม', '2026-12-07T19:00:00+07:00'],
  ['ทุ่มนึง', '2026-12-07T19:00:00+07:00'],
  ['ทุ่มครึ่ง', '2026-12-07T19:30:00+07:00'],
  ['สองทุ่ม', '2026-12-07T20:00:00+07:00'],
  ['2 ทุ่ม 15 นาที', '2026-12-07T20:15:00+07:00'],
  ['ห้าทุ่ม', '2026-12-07T23:00:00+07:00'],
  ['เที่ยงคืน', '2026-12-08T00:00:00+07:00'],
  ['หกทุ่ม', '2026-12-08T00:00:00+07:00'],
  ['3 โมง', { ambiguous: 'part-of-day', candidates: ['2026-12-07T15:00:00+07:00', '2026-12-08T03:00:00+07:00'] }],
  ['หกโมง', { ambiguous: 'part-of-day', candidates: ['2026-12-07T18:00:00+07:00', '2026-12-08T06:00:00+07:00'] }],
  ['9 โมง 15 นาที', '2026-12-08T09:15:00+07:00'],
  ['เก้าโมงสามสิบนาที', '2026-12-08T09:30:00+07:00'],
  ['9.30 น.', '2026-12-08T09:30:00+07:00'],
  ['09:30', '2026-12-08T09:30:00+07:00'],
  ['21.00 น.', '2026-12-07T21:00:00+07:00'],
  ['21 นาฬิกา', '2026-12-07T21:00:00+07:00'],
  ['3:30', { ambiguous: 'part-of-day', candidates: ['2026-12-07T15:30:00+07:00', '2026-12-08T03:30:00+07:00'] }],
  // Recurrences.
  ['ทุกวัน 8 โมง', { every: { kind: 'daily' }, at: '2026-12-08T08:00:00+07:00' }],
  ['ทุกวันธรรมดา 7 โมง', { every: { kind: 'weekdays' }, at: '2026-12-08T07:00:00+07:00' }],
  ['ทุกวันทำงาน 9 โมง', { every: { kind: 'weekdays' }, at: '2026-12-08T09:00:00+07:00' }],
  ['จันทร์ถึงศุกร์ 8.00 น.', { every: { kind: 'weekdays' }, at: '2026-12-08T08:00:00+07:00' }],
  ['ทุกวันจันทร์ 8 โมงครึ่งเตือนส่งรายงาน', { every: { kind: 'weekly', weekday: 1 }, at: '2026-12-14T08:30:00+07:00' }],
  ['ทุกวันศุกร์ บ่าย 3', { every: { kind: 'weekly', weekday: 5 }, at: '2026-12-11T15:00:00+07:00' }],
  ['ทุกวันอาทิตย์ 10 โมง', { every: { kind: 'weekly', weekday: 0 }, at: '2026-12-13T10:00:00+07:00' }],
  ['ทุกเย็น 6 โมง', { every: { kind: 'daily' }, at: '2026-12-07T18:00:00+07:00' }],
  ['ทุกวันจันทร์', { ambiguous: 'no-time' }],
  ['ทุกวัน', { ambiguous: 'no-time' }],
  ['ทุกอาทิตย์', { ambiguous: 'no-date-or-time' }], // every week, no day said
  ['ทุกวัน 3 โมง', { ambiguous: 'part-of-day', candidates: ['2026-12-07T15:00:00+07:00', '2026-12-08T03:00:00+07:00'] }],
  // Nothing to resolve.
  ['ช่วยสรุปข่าวหน่อย', 'none'],
  ['ซื้อเก้าอี้ใหม่', 'none'],
  ['ราคา 3.50 บาท', 'none'],
  ['อีกสองสามวัน', 'none'], // a vague count, not 23 days
  ['พระอาทิตย์ตกสวยมาก', 'none'],
  ['ดวงจันทร์', 'none'],
  ['ไว้คุยกันอีกวัน', 'none'],
  ['กินข้าวเที่ยงกัน', 'none'], // lunch, not noon
  ['', 'none'],
];

describe('parseWhen (Thai, Monday 7 Dec 2026 10:00 Asia/Bangkok)', () => {
  it.each(table)('%s', (text, want) => {
    expect(plain(parseWhen(text, monday10))).toEqual(expected(want));
  });

  it('gives the span of the time words in the text given', () => {
    const text = 'เตือนประชุมพรุ่งนี้ 9 โมง';
    const result = parseWhen(text, monday10);
    expect(result.kind === 'at' && text.slice(result.span.start, result.span.end)).toBe('พรุ่งนี้ 9 โมง');
    const withWords = 'ประชุมสามทุ่มนะ';
    const spoken = parseWhen(withWords, monday10);
    expect(spoken.kind === 'at' && withWords.slice(spoken.span.start, spoken.span.end)).toBe('สามทุ่ม');
  });
});
