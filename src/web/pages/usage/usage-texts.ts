import type { Localized } from '../../../shared/i18n.js';

// The usage page's words: the figures are /usage's (src/commands/usage-report.ts), named the same way.

export const usageTexts = {
  title: { th: 'การใช้งาน', en: 'Usage' },
  period: { th: 'ช่วงเวลา', en: 'Period' },
  summary: { th: 'รวมทุกกลุ่มที่คุณดูแลได้', en: 'Totals over the groups you can see' },
  byGroup: { th: 'แยกตามกลุ่ม ({period})', en: 'By group ({period})' },
  byUser: { th: 'แยกตามผู้ใช้ ({period})', en: 'By user ({period})' },
  chartHeading: { th: 'จำนวนครั้งต่อวัน (30 วัน)', en: 'Turns per day (30 days)' },
  group: { th: 'กลุ่ม', en: 'Group' },
  user: { th: 'ผู้ใช้', en: 'User' },
  userKey: { th: 'รหัสผู้ใช้', en: 'User id' },
  day: { th: 'วันที่', en: 'Day' },
  turns: { th: 'ครั้ง', en: 'Turns' },
  modelTime: { th: 'เวลาโมเดล', en: 'Model time' },
  promptTokens: { th: 'โทเค็นพรอมต์', en: 'Prompt tokens' },
  generatedTokens: { th: 'โทเค็นที่สร้าง', en: 'Generated tokens' },
  searches: { th: 'ค้นเว็บ', en: 'Web searches' },
  ocrPages: { th: 'อ่านรูป (OCR)', en: 'OCR pages' },
  nothing: { th: 'ยังไม่มีการใช้งานในช่วงนี้', en: 'No usage in this period' },
  cut: { th: 'แสดง {count} อันดับแรก (เรียงตามจำนวนครั้ง)', en: 'The first {count}, most turns first' },
  note: {
    th: 'นับเฉพาะคำถามที่ส่งให้โมเดลตอบ (รวมที่ล้มเหลวหรือถูกยกเลิก) ไม่นับคำสั่งอย่าง /research · เก็บไว้ 31 วัน · วันตามเขตเวลา {zone}',
    en: 'Counts questions the model answered (failed and cancelled ones too), not commands such as /research · kept 31 days · days in {zone}',
  },
} satisfies Record<string, Localized>;
