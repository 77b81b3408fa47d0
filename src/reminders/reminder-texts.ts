import type { Localized } from '../shared/i18n.js';
import type { AmbiguityReason } from './when/when-types.js';

// What the bot says about reminders, in Thai (default) and English: the confirmation, the questions it asks instead
// of guessing a time, the list, the cancel, and the reminder itself when it is due.

export const reminderTexts = {
  saved: {
    th: '⏰ ตั้งเตือนแล้ว (#{number}): {subject}\n🗓️ {when}\nยกเลิกได้ด้วย /remind cancel {number}',
    en: '⏰ Reminder set (#{number}): {subject}\n🗓️ {when}\nCancel it with /remind cancel {number}',
  },
  noSubject: { th: '(ไม่ได้ระบุเรื่อง)', en: '(no subject given)' },
  lineQuotaLow: {
    th: 'ℹ️ LINE: การเตือนแต่ละครั้งใช้ข้อความ push 1 ข้อความ เดือนนี้เหลืออีก {left} ข้อความ',
    en: 'ℹ️ LINE: each reminder costs one push message; {left} are left this month.',
  },
  lineQuotaExhausted: {
    th: 'ขออภัยครับ โควตาข้อความ push ของ LINE เดือนนี้หมดแล้ว บอทจึงส่งการเตือนไม่ได้จนกว่าจะขึ้นเดือนใหม่ (หรือผู้ดูแลอัปเกรดแพ็กเกจ)',
    en: "Sorry, this month's LINE push quota is used up, so the bot cannot send reminders until the month resets (or an admin upgrades the plan).",
  },
  spaceFull: {
    th: 'ขออภัยครับ ห้องนี้มีการเตือนครบ {limit} รายการแล้ว ลบบางรายการก่อนด้วย /remind cancel <เลข> (ดูรายการด้วย /reminders)',
    en: 'Sorry, this chat already has {limit} reminders. Cancel some first with /remind cancel <number> (see them with /reminders).',
  },
  userFull: {
    th: 'ขออภัยครับ คุณตั้งเตือนในห้องนี้ครบ {limit} รายการแล้ว ลบบางรายการก่อนด้วย /remind cancel <เลข>',
    en: 'Sorry, you already have {limit} reminders in this chat. Cancel some first with /remind cancel <number>.',
  },
  credential: {
    th: 'ขออภัยครับ ข้อความที่จะให้เตือนดูเหมือนมีรหัสลับหรือโทเคน จึงไม่บันทึกไว้',
    en: 'Sorry, the reminder text looks like it holds a secret or token, so it was not saved.',
  },
  past: {
    th: 'เวลานั้นผ่านไปแล้วครับ ({when}) ช่วยบอกเวลาในอนาคต เช่น “พรุ่งนี้ 9 โมง” หรือ “อีก 30 นาที”',
    en: 'That time has passed ({when}). Please give a time ahead, e.g. “tomorrow at 9am” or “in 30 minutes”.',
  },
  usage: {
    th: 'ตั้งเตือนได้แบบนี้ครับ:\n• /remind พรุ่งนี้ 9 โมง ประชุมทีม\n• /remind อีก 30 นาที โทรหาลูกค้า\n• /remind ทุกวันจันทร์ 8 โมงครึ่ง ส่งรายงาน\n• /reminders ดูรายการ · /remind cancel <เลข> ยกเลิก',
    en: 'Set a reminder like this:\n• /remind tomorrow at 9am team meeting\n• /remind in 30 minutes call the customer\n• /remind every Monday at 8:30 send the report\n• /reminders lists them · /remind cancel <number> cancels one',
  },
  listHeading: { th: '⏰ การเตือนในห้องนี้ ({count} รายการ)', en: '⏰ Reminders in this chat ({count})' },
  listItem: { th: '#{number} {subject} — {when} (ตั้งโดย {name})', en: '#{number} {subject} — {when} (set by {name})' },
  listEmpty: {
    th: 'ยังไม่มีการเตือนในห้องนี้ครับ ตั้งได้ด้วย /remind พรุ่งนี้ 9 โมง ประชุมทีม',
    en: 'No reminders in this chat yet. Set one with /remind tomorrow at 9am team meeting',
  },
  cancelled: { th: '🗑️ ยกเลิกการเตือน #{number} แล้ว: {subject}', en: '🗑️ Reminder #{number} cancelled: {subject}' },
  cancelMissing: {
    th: 'ไม่พบการเตือน #{number} ในห้องนี้ครับ (ดูรายการด้วย /reminders)',
    en: 'There is no reminder #{number} in this chat (see them with /reminders).',
  },
  cancelUsage: {
    th: 'ระบุเลขของการเตือน เช่น /remind cancel 2 (ดูเลขด้วย /reminders)',
    en: 'Give its number, e.g. /remind cancel 2 (see the numbers with /reminders).',
  },
  cancelRefused: {
    th: 'ขออภัยครับ ยกเลิกได้เฉพาะคนที่ตั้งการเตือนนี้ ({name}) หรือผู้ดูแลของห้อง',
    en: 'Sorry, only the one who set this reminder ({name}) or an admin of this chat can cancel it.',
  },
  storeDown: {
    th: 'ขออภัยครับ ตอนนี้บันทึกการเตือนไม่ได้ (ที่เก็บข้อมูลไม่ตอบ) ลองใหม่อีกครั้งในอีกสักครู่',
    en: 'Sorry, reminders cannot be saved right now (the store does not answer). Please try again in a moment.',
  },
  due: { th: '⏰ เตือนความจำ: {subject}', en: '⏰ Reminder: {subject}' },
  dueNoSubject: { th: '⏰ ถึงเวลาที่ขอให้เตือนแล้วครับ', en: '⏰ This is the reminder you asked for.' },
  dueBy: { th: '(ตั้งโดย {name})', en: '(set by {name})' },
  dueNext: { th: 'ครั้งถัดไป: {when}', en: 'Next: {when}' },
  dueLate: {
    th: '(ส่งช้ากว่ากำหนด: ควรเตือนเมื่อ {when} แต่บอทไม่ได้ทำงานในช่วงนั้น)',
    en: '(Late: this was due on {when}, while the bot was not running.)',
  },
} satisfies Record<string, Localized>;

/** The question asked instead of guessing a time. */
export const ambiguityTexts: Record<AmbiguityReason, Localized> = {
  'part-of-day': {
    th: 'ไม่แน่ใจว่าหมายถึงช่วงเช้าหรือบ่ายครับ{candidates} ช่วยพิมพ์ใหม่ให้ชัด เช่น “9 โมงเช้า”, “บ่าย 3 โมง” หรือ “15:00”',
    en: 'I am not sure whether you mean morning or afternoon{candidates}. Please say it again clearly, e.g. “9am”, “3pm” or “15:00”.',
  },
  'no-time': {
    th: 'ต้องการให้เตือนกี่โมงครับ? ช่วยพิมพ์ใหม่พร้อมเวลา เช่น “พรุ่งนี้ 9 โมง”',
    en: 'At what time? Please say it again with a time, e.g. “tomorrow at 9am”.',
  },
  'no-date-or-time': {
    th: 'บอกเวลาที่ต้องการให้เตือนด้วยครับ เช่น “พรุ่งนี้ 9 โมง”, “อีก 30 นาที” หรือ “ทุกวันจันทร์ 8 โมงครึ่ง”',
    en: 'When should I remind you? E.g. “tomorrow at 9am”, “in 30 minutes” or “every Monday at 8:30”.',
  },
  'invalid-date': {
    th: 'วันที่นี้ไม่มีในปฏิทินครับ ช่วยตรวจสอบวันที่อีกครั้ง',
    en: 'That date does not exist. Please check it.',
  },
  'weekday-mismatch': {
    th: 'วันในสัปดาห์กับวันที่ไม่ตรงกันครับ ช่วยตรวจสอบแล้วพิมพ์ใหม่อีกครั้ง',
    en: 'That weekday and that date do not match. Please check and say it again.',
  },
};

/** " (9:00 or 21:00?)" for the part-of-day question: the readings it could be. */
export const candidatesText: Localized = { th: ' ({times})', en: ' ({times})' };
export const orWord: Localized = { th: ' หรือ ', en: ' or ' };
