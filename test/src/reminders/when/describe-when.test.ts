import { describe, expect, it } from 'vitest';
import { describeWhen } from '../../../../src/reminders/when/describe-when.js';

const bangkok = 'Asia/Bangkok';

describe('describeWhen', () => {
  it('writes a single time in Thai with the Buddhist-Era year', () => {
    expect(describeWhen(new Date('2026-12-08T09:00:00+07:00'), undefined, 'th', bangkok)).toBe('วันอังคารที่ 8 ธันวาคม 2569 เวลา 09:00 น.');
    expect(describeWhen(new Date('2027-01-01T00:05:00+07:00'), undefined, 'th', bangkok)).toBe('วันศุกร์ที่ 1 มกราคม 2570 เวลา 00:05 น.');
    expect(describeWhen(new Date('2028-02-29T18:30:00+07:00'), undefined, 'th', bangkok)).toBe('วันอังคารที่ 29 กุมภาพันธ์ 2571 เวลา 18:30 น.');
  });

  it('writes a single time in English', () => {
    expect(describeWhen(new Date('2026-12-08T09:00:00+07:00'), undefined, 'en', bangkok)).toBe('Tuesday 8 December 2026 at 09:00');
    expect(describeWhen(new Date('2026-12-31T23:59:00+07:00'), undefined, 'en', bangkok)).toBe('Thursday 31 December 2026 at 23:59');
  });

  it('writes a recurrence with its next time', () => {
    const monday = new Date('2026-12-14T08:30:00+07:00');
    expect(describeWhen(monday, { kind: 'weekly', weekday: 1 }, 'th', bangkok)).toBe('ทุกวันจันทร์ เวลา 08:30 น. (ครั้งถัดไป วันจันทร์ที่ 14 ธันวาคม 2569)');
    expect(describeWhen(monday, { kind: 'weekly', weekday: 1 }, 'en', bangkok)).toBe('every Monday at 08:30 (next: Monday 14 December 2026)');
    expect(describeWhen(monday, { kind: 'daily' }, 'th', bangkok)).toBe('ทุกวัน เวลา 08:30 น. (ครั้งถัดไป วันจันทร์ที่ 14 ธันวาคม 2569)');
    expect(describeWhen(monday, { kind: 'daily' }, 'en', bangkok)).toBe('every day at 08:30 (next: Monday 14 December 2026)');
    expect(describeWhen(monday, { kind: 'weekdays' }, 'th', bangkok)).toBe('ทุกวันจันทร์ถึงวันศุกร์ เวลา 08:30 น. (ครั้งถัดไป วันจันทร์ที่ 14 ธันวาคม 2569)');
    expect(describeWhen(monday, { kind: 'weekdays' }, 'en', bangkok)).toBe('every weekday (Monday to Friday) at 08:30 (next: Monday 14 December 2026)');
  });

  it('shows the wall clock of the zone given', () => {
    const at = new Date('2026-03-08T13:00:00Z');
    expect(describeWhen(at, undefined, 'en', 'America/New_York')).toBe('Sunday 8 March 2026 at 09:00');
    expect(describeWhen(at, undefined, 'en', bangkok)).toBe('Sunday 8 March 2026 at 20:00');
    expect(describeWhen(new Date('2026-12-07T20:00:00Z'), undefined, 'th', bangkok)).toBe('วันอังคารที่ 8 ธันวาคม 2569 เวลา 03:00 น.');
  });

  it('never throws: an unknown zone is shown as UTC', () => {
    expect(describeWhen(new Date('2026-12-08T02:00:00Z'), undefined, 'en', 'Mars/Olympus')).toBe('Tuesday 8 December 2026 at 02:00');
  });
});
