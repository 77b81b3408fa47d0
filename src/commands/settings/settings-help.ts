import type { Localized } from '../../shared/i18n.js';

export const settingsHelp: Localized = {
  th: [
    '**ตั้งค่าของกลุ่ม (/settings)** — สำหรับผู้ดูแลกลุ่มและผู้ดูแลระบบ',
    '- /settings — ดูค่าปัจจุบัน',
    '- /settings language th|en|follow|default — ภาษาที่บอทใช้ (follow = ตามภาษาของผู้ถาม)',
    '- /settings trigger mention|name|every-message|default [ชื่อเรียก…] — การเรียกบอท: แท็ก/ตอบกลับ, เรียกชื่อ (เช่น แสง) หรือตอบทุกข้อความในห้องนี้',
    '- /settings context <0–50>|default — จำนวนข้อความล่าสุดในกลุ่มที่ส่งไปกับคำถาม',
    '- /settings quota <จำนวน>|default — ข้อความต่อนาทีต่อผู้ใช้ (ผู้ดูแลกลุ่มลดได้ ผู้ดูแลระบบเพิ่มได้)',
    '- /settings streaming on|off|default — แสดงคำตอบระหว่างที่บอทเขียน',
    '- /settings quotes on|off|default — อ่านข้อความที่ผู้ถามตอบกลับ',
    '- /settings instructions <ข้อความ>|clear — คำแนะนำเพิ่มเติมสำหรับบอท (ไม่เกิน 500 ตัวอักษร)',
    '- /settings reset — กลับเป็นค่าเริ่มต้นทั้งหมด',
  ].join('\n'),
  en: [
    '**Group settings (/settings)** — for group admins and bot admins',
    '- /settings — show the current values',
    '- /settings language th|en|follow|default — the language the bot uses (follow = each asker’s)',
    '- /settings trigger mention|name|every-message|default [names…] — how the bot is called: a mention/reply, its name (e.g. แสง), or every message in this channel',
    '- /settings context <0–50>|default — how many recent group messages go with a question',
    '- /settings quota <count>|default — messages a minute per user (group admins can lower it, bot admins raise it)',
    '- /settings streaming on|off|default — show answers while they are written',
    '- /settings quotes on|off|default — read the message a question replies to',
    '- /settings instructions <text>|clear — extra instructions for the bot (at most 500 characters)',
    '- /settings reset — back to the defaults',
  ].join('\n'),
};
