import type { Localized } from '../../../src/shared/i18n.js';
import { pick, say } from '../../../src/shared/i18n.js';
import type { Language } from '../../../src/shared/types.js';

// What the model reads back when search could not help. The model is told what to say to the user.

export const searchFailedNotice: Localized = {
  th: 'การค้นหาเว็บแบบสดล้มเหลว ({reason}) ต้องบอกผู้ใช้ตรง ๆ ว่าค้นหาข้อมูลล่าสุดจากเว็บไม่ได้ในตอนนี้ ถ้าจะตอบจากความรู้เดิม ให้บอกว่าข้อมูลอาจไม่เป็นปัจจุบัน',
  en: 'Live web search failed ({reason}). You must tell the user that live search failed just now; if you answer from your own knowledge, say it may be out of date.',
};

const failureReasons: Record<string, Localized> = {
  timeout: { th: 'หมดเวลา', en: 'timed out' },
  'rate-limited': { th: 'ผู้ให้บริการค้นหาจำกัดจำนวนครั้ง', en: 'the search provider is rate-limiting' },
  'engines-unresponsive': { th: 'เครื่องมือค้นหาไม่ตอบสนอง', en: 'the search engines did not respond' },
  aborted: { th: 'ถูกยกเลิก', en: 'cancelled' },
};
const otherFailure: Localized = { th: 'ผู้ให้บริการค้นหาขัดข้อง', en: 'the search provider failed' };

export const nothingRelevantNotice: Localized = {
  th: 'ไม่พบผลการค้นหาที่เกี่ยวข้องกับ "{query}" ให้บอกผู้ใช้ตรง ๆ ว่าไม่พบข้อมูลที่เกี่ยวข้อง ห้ามเดาหรือแต่งข้อมูลหรือลิงก์ขึ้นเอง',
  en: 'No relevant results were found for "{query}". Tell the user plainly that nothing relevant was found; do not guess or invent facts or links.',
};

/** Told once per turn, on the first block of results: the sources guard appends the links. */
export const sourcesNotice: Localized = {
  th: 'ผลการค้นหา (ระบบจะแนบแหล่งที่มาท้ายคำตอบให้อัตโนมัติ ห้ามพิมพ์ URL หรือรายการแหล่งที่มาเอง; ตอบเฉพาะสิ่งที่ข้อความแต่ละบรรทัดบอก):',
  en: 'Search results (sources are appended to your answer automatically: do not type URLs or a source list yourself; state only what each line says):',
};
export const resultsHeading: Localized = { th: 'ผลการค้นหา:', en: 'Search results:' };

export function searchFailedText(kind: string, language: Language): string {
  return say(searchFailedNotice, language, { reason: pick(failureReasons[kind] ?? otherFailure, language) });
}
