import { describe, expect, it } from 'vitest';
import { parseReminderRequest } from '../../../../src/reminders/when/reminder-request.js';
import type { WhenContext, WhenResult } from '../../../../src/reminders/when/when-types.js';

// Monday 7 December 2026, 10:00 in Bangkok. The rule for what is a request, and what the subject keeps:
// src/reminders/when/reminder-request.ts.

const context: WhenContext = { now: new Date('2026-12-07T10:00:00+07:00'), timeZone: 'Asia/Bangkok' };

/** [message, subject, kind of `when`, its instant when it has one] */
const requests: [string, string, WhenResult['kind'], string?][] = [
  ['เตือนประชุมพรุ่งนี้ 9 โมง', 'ประชุม', 'at', '2026-12-08T09:00:00+07:00'],
  ['อีก 30 นาทีเตือนด้วย', '', 'at', '2026-12-07T10:30:00+07:00'],
  ['ทุกวันจันทร์ 8 โมงครึ่งเตือนส่งรายงาน', 'ส่งรายงาน', 'at', '2026-12-14T08:30:00+07:00'],
  ['remind us at 3pm tomorrow to submit the report', 'submit the report', 'at', '2026-12-08T15:00:00+07:00'],
  ['ช่วยเตือนทุกคนว่าพรุ่งนี้มีประชุม 10 โมงนะครับ', 'มีประชุม', 'at', '2026-12-08T10:00:00+07:00'],
  ['พรุ่งนี้ 9 โมงเตือนประชุมด้วยนะ', 'ประชุม', 'at', '2026-12-08T09:00:00+07:00'],
  ['พรุ่งนี้9โมงเตือนประชุมหน่อย', 'ประชุม', 'at', '2026-12-08T09:00:00+07:00'],
  ['เตือนส่งรายงานด้วย', 'ส่งรายงาน', 'none'],
  ['เตือนกินยาทุกวันตอน 2 ทุ่ม', 'กินยา', 'at', '2026-12-07T20:00:00+07:00'],
  ['เตือนเรื่องจ่ายค่าไฟวันที่ 25 ตอนเช้า 8 โมง', 'จ่ายค่าไฟ', 'at', '2026-12-25T08:00:00+07:00'],
  ['ตั้งเตือน 25 ธ.ค. บ่ายสาม ซื้อของขวัญ', 'ซื้อของขวัญ', 'at', '2026-12-25T15:00:00+07:00'],
  ['แจ้งเตือนทุกคนประชุมวันศุกร์หน้าบ่ายโมง', 'ประชุม', 'at', '2026-12-18T13:00:00+07:00'],
  ['ช่วยเตือนให้โทรหาลูกค้าตอน ๔ โมงเย็นด้วยค่ะ', 'โทรหาลูกค้า', 'at', '2026-12-07T16:00:00+07:00'],
  ['เตือนความจำ: ต่อภาษีรถ 1 ม.ค. 2570 9:00', 'ต่อภาษีรถ', 'at', '2027-01-01T09:00:00+07:00'],
  ['เตือนประชุม 3 โมง', 'ประชุม', 'ambiguous'],
  ['เตือนประชุมพรุ่งนี้', 'ประชุม', 'ambiguous'],
  ['เตือนส่งงานเมื่อวาน 5 โมงเย็น', 'ส่งงาน', 'past', '2026-12-06T17:00:00+07:00'],
  ['พรุ่งนี้ 9 โมงเตือนได้ไหม', '', 'at', '2026-12-08T09:00:00+07:00'], // polite, with a time: a request
  ['Remind me in 30 minutes to check the oven.', 'check the oven', 'at', '2026-12-07T10:30:00+07:00'],
  ['remind me to call mom', 'call mom', 'none'],
  ['remind me to call mom at 6pm', 'call mom', 'at', '2026-12-07T18:00:00+07:00'],
  ['please remind everyone about the team lunch on Friday at noon', 'the team lunch', 'at', '2026-12-11T12:00:00+07:00'],
  ['set a reminder for every Monday at 9am: team standup', 'team standup', 'at', '2026-12-14T09:00:00+07:00'],
  ['Reminder: pay rent on 25 December at 9am', 'pay rent', 'at', '2026-12-25T09:00:00+07:00'],
  ['remind us every weekday at 8:30 to post the sales numbers', 'post the sales numbers', 'at', '2026-12-08T08:30:00+07:00'],
  ['remind me tomorrow', '', 'ambiguous'],
  ['เตือนประชุมวันจันทร์ที่ 14 ธ.ค. 9 โมง', 'ประชุม', 'at', '2026-12-14T09:00:00+07:00'], // the weekday goes with the date
  ['remind me on Monday, 14 December at 9am to pay the bill', 'pay the bill', 'at', '2026-12-14T09:00:00+07:00'],
  ['ช่วยเตือนด้วยนะว่าพรุ่งนี้ต้องเอาเอกสารมา 8 โมงเช้า', 'ต้องเอาเอกสารมา', 'at', '2026-12-08T08:00:00+07:00'],
  ['เตือนทุกคนเรื่องกินข้าวเที่ยง เที่ยงครึ่ง', 'กินข้าวเที่ยง', 'at', '2026-12-07T12:30:00+07:00'], // ข้าวเที่ยง is lunch
  ['เตือนหน่อยครับว่าทีมต้องส่งงาน 5 โมงเย็น', 'ทีมต้องส่งงาน', 'at', '2026-12-07T17:00:00+07:00'],
  ['เตือนรับลูกที่โรงเรียน 4 โมงเย็น', 'รับลูกที่โรงเรียน', 'at', '2026-12-07T16:00:00+07:00'],
  ['เตือนจ่ายค่าเน็ต 300 บาท วันที่ 5', 'จ่ายค่าเน็ต 300 บาท', 'ambiguous'],
  ['remind me to look at 3 files tomorrow at 9am', 'look at 3 files', 'at', '2026-12-08T09:00:00+07:00'], // the sure time wins
  ['เตือนซื้อน้ำเย็น 3 โมง', 'ซื้อน้ำเย็น', 'ambiguous'], // น้ำเย็น is cold water, not the evening
];

const notRequests = [
  'ช่วยสรุปข่าววันนี้',
  'เตือนใจตัวเองว่าต้องอดทนทุกวัน', // a note to oneself, judged not a request
  'คำเตือน: ห้ามจอดรถหน้าบ้านพรุ่งนี้',
  'ระบบแจ้งเตือนภัยจะทดสอบพรุ่งนี้ 9 โมง',
  'ทำไมไม่เตือนเมื่อวาน',
  'ตั้งเตือนยังไง',
  'เตือนได้ไหม',
  'อย่าเตือนนะ',
  'ครูตักเตือนนักเรียน',
  'เขาเตือนสติเราบ่อย',
  'ประชุมพรุ่งนี้ 9 โมง', // a time, but nobody asked for a reminder
  'remind me what you said',
  'how do I set a reminder?',
  "don't remind me tomorrow",
  'the reminder did not work yesterday',
  'what is the weather tomorrow',
  '',
];

describe('parseReminderRequest', () => {
  it.each(requests)('%s → %j', (text, subject, kind, at) => {
    const request = parseReminderRequest(text, context);
    expect(request?.subject).toBe(subject);
    expect(request?.when.kind).toBe(kind);
    if (at !== undefined && request && (request.when.kind === 'at' || request.when.kind === 'past')) {
      expect(request.when.at.toISOString()).toBe(new Date(at).toISOString());
    }
  });

  it.each(notRequests)('%s is not a request', (text) => {
    expect(parseReminderRequest(text, context)).toBeUndefined();
  });

  it('gives a value for hostile input', () => {
    expect(parseReminderRequest('เตือน'.repeat(50_000), context)?.when.kind).toBe('none');
    expect(parseReminderRequest(`remind me ${'!'.repeat(100_000)}`, context)?.subject).toBe('');
    expect(parseReminderRequest('เตือนประชุมพรุ่งนี้ 9 โมง', { now: new Date(Number.NaN), timeZone: 'Asia/Bangkok' })?.when.kind).toBe('none');
  });
});
