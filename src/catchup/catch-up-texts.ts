import type { Localized } from '../shared/i18n.js';

// What the bot says about catch-up (/summary), in Thai (default) and English.

export const catchUpTexts = {
  turnedOn: {
    th: '📝 เปิดการเก็บข้อความเพื่อสรุปแล้ว: ตั้งแต่นี้แสงจะเก็บข้อความในกลุ่มนี้ไว้ {days} วัน (ชื่อที่แสดง เวลา และข้อความ ไม่รวมรหัสลับ) เพื่อใช้ตอบ /summary หรือ “สรุปให้หน่อยว่าคุยอะไรกัน” เท่านั้น ไม่แชร์ไปกลุ่มอื่น ผู้ดูแลปิดและลบทั้งหมดได้ด้วย /summary off',
    en: '📝 Catch-up is on: from now on the bot keeps this group’s messages for {days} days (display name, time and text, secrets masked), only to answer /summary or “what did I miss?”, never shared with another group. Admins turn it off and delete everything with /summary off.',
  },
  retentionChanged: {
    th: 'เปลี่ยนระยะเก็บข้อความเป็น {days} วันแล้ว',
    en: 'Messages are now kept for {days} days.',
  },
  turnedOff: {
    th: 'ปิดการเก็บข้อความเพื่อสรุปแล้ว และลบข้อความที่เก็บไว้ทั้งหมด ({count} ข้อความ)',
    en: 'Catch-up is off, and every kept message was deleted ({count}).',
  },
  blind: {
    th: '⚠️ ตอนนี้บอทเห็นเฉพาะข้อความที่เรียกบอทในกลุ่ม จึงเก็บได้แค่ข้อความเหล่านั้น (Telegram: ปิด privacy mode ที่ @BotFather แล้วเชิญบอทเข้ากลุ่มใหม่)',
    en: '⚠️ The bot sees only the group messages addressed to it, so only those can be kept (Telegram: turn privacy mode off in @BotFather, then re-add the bot).',
  },
  digestOn: {
    th: '📝 ตั้งสรุปประจำวันแล้ว: ทุกวันเวลา {time} น. แสงจะสรุปข้อความ 24 ชั่วโมงที่ผ่านมาในห้องนี้ (วันที่ไม่มีข้อความจะไม่ส่ง) ครั้งแรก {next} ปิดได้ด้วย /summary digest off',
    en: '📝 Daily digest set: every day at {time} the bot summarizes the last 24 hours here (nothing is sent on a quiet day). First one: {next}. Turn it off with /summary digest off.',
  },
  digestOff: { th: 'ปิดสรุปประจำวันแล้ว', en: 'The daily digest is off.' },
  digestNone: { th: 'กลุ่มนี้ไม่ได้ตั้งสรุปประจำวันไว้', en: 'This group has no daily digest.' },
  digestTime: {
    th: 'บอกเวลาของสรุปประจำวันด้วยครับ เช่น /summary digest 18:00 หรือ /summary digest 6 โมงเย็น',
    en: 'Say the time of the daily digest, e.g. /summary digest 18:00.',
  },
  digestFull: {
    th: 'ตั้งสรุปประจำวันไม่ได้: ห้องนี้มีการเตือนครบจำนวนแล้ว ลบบางรายการก่อนด้วย /remind cancel <เลข>',
    en: 'The daily digest could not be set: this chat has as many reminders as it may. Cancel one with /remind cancel <number>.',
  },
  digestHeading: {
    th: '📝 สรุปประจำวัน ({count} ข้อความ ตั้งแต่ {from})',
    en: '📝 Daily digest ({count} messages since {from})',
  },
  alreadyOff: {
    th: 'กลุ่มนี้ยังไม่ได้เปิดการเก็บข้อความเพื่อสรุป ผู้ดูแลเปิดได้ด้วย /summary on',
    en: 'Catch-up is not on in this group. Admins turn it on with /summary on.',
  },
  groupOnly: {
    th: 'การสรุปข้อความใช้ได้ในกลุ่มเท่านั้นครับ',
    en: 'Catch-up summaries are for groups.',
  },
  adminsOnly: {
    th: 'ขออภัยครับ การเปิด/ปิดการเก็บข้อความเพื่อสรุปทำได้เฉพาะผู้ดูแลกลุ่มหรือผู้ดูแลระบบ',
    en: 'Sorry, only the group’s admins or the bot admins can turn catch-up on or off.',
  },
  adminsOnlyLine: {
    th: 'ขออภัยครับ LINE ไม่แจ้งบอทว่าใครเป็นผู้ดูแลกลุ่ม ในกลุ่ม LINE จึงเปิด/ปิดได้เฉพาะผู้ดูแลระบบของบอท (ADMIN_IDS) พิมพ์ /whoami เพื่อดูรหัสของคุณ',
    en: 'Sorry, LINE does not tell a bot who its group admins are, so in a LINE group only the bot admins (ADMIN_IDS) can do this. Type /whoami to see your id.',
  },
  notOn: {
    th: 'กลุ่มนี้ยังไม่ได้เปิดการเก็บข้อความเพื่อสรุป แสงจึงสรุปย้อนหลังไม่ได้ ผู้ดูแลเปิดได้ด้วย /summary on (เก็บเฉพาะข้อความหลังจากเปิด)',
    en: 'Catch-up is not on in this group, so there is nothing to summarize. Admins turn it on with /summary on (only later messages are kept).',
  },
  nothing: {
    th: 'ไม่มีข้อความให้สรุปในช่วง{span}ครับ',
    en: 'There are no messages to summarize {span}.',
  },
  spanSinceYou: { th: 'ตั้งแต่ข้อความล่าสุดของคุณ', en: 'since your last message' },
  spanToday: { th: 'วันนี้', en: 'today' },
  spanHours: { th: ' {hours} ชั่วโมงที่ผ่านมา', en: 'in the last {hours} hours' },
  spanDay: { th: ' 24 ชั่วโมงที่ผ่านมา', en: 'in the last 24 hours' },
  heading: {
    th: '📝 สรุป{span} ({count} ข้อความ ตั้งแต่ {from})',
    en: '📝 Summary {span} ({count} messages since {from})',
  },
  cut: {
    th: '(สรุปเฉพาะ {count} ข้อความล่าสุด)',
    en: '(only the latest {count} messages are summarized)',
  },
  progressStart: {
    th: '📝 กำลังสรุป {count} ข้อความ แบ่งเป็น {total} ส่วน อาจใช้เวลาหลายนาที จะแจ้งความคืบหน้าเป็นระยะ',
    en: '📝 Summarizing {count} messages in {total} parts; this may take several minutes. Progress will follow.',
  },
  progress: { th: '📝 กำลังสรุป… เสร็จ {done}/{total} ส่วน', en: '📝 Summarizing… {done}/{total} parts done' },
  failed: {
    th: 'ขออภัยครับ สรุปไม่สำเร็จ เพราะติดต่อโมเดลไม่ได้หรือโมเดลไม่ตอบ ลองใหม่อีกครั้งภายหลัง',
    en: 'Sorry, the summary failed: the model could not be reached or did not answer. Please try again later.',
  },
  storeDown: {
    th: 'ขออภัยครับ ตอนนี้อ่านข้อความที่เก็บไว้ไม่ได้ (ที่เก็บข้อมูลมีปัญหา) ลองใหม่อีกครั้งภายหลัง',
    en: 'Sorry, the kept messages cannot be read right now (a storage problem). Please try again later.',
  },
  invalid: {
    th: 'ใช้แบบนี้ครับ: /summary (ตั้งแต่ข้อความล่าสุดของคุณ) · /summary วันนี้ · /summary 3 ชม. · ผู้ดูแล: /summary on [จำนวนวัน 1–{maxDays}] · /summary off · /summary digest 18:00 | off',
    en: 'Use: /summary (since your last message) · /summary today · /summary 3h · admins: /summary on [days 1–{maxDays}] · /summary off · /summary digest 18:00 | off',
  },
} satisfies Record<string, Localized>;
