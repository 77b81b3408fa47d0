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

// No value is echoed: the model is told what kind of thing stopped the search, and what to do instead.
export const queryBlockedNotice: Localized = {
  th: 'ไม่ได้ค้นหาเว็บ เพราะคำค้นมีข้อมูลที่ดูเหมือนรหัสลับหรือกุญแจเข้าถึงระบบ (credential) ระบบจึงไม่ส่งคำค้นนี้ออกไปนอกเครื่อง ห้ามใส่รหัสผ่าน โทเคน หรือคีย์ลงในคำค้น ถ้ายังต้องค้นให้ค้นใหม่โดยไม่มีค่านั้น หรือตอบจากสิ่งที่รู้ และบอกผู้ใช้สั้น ๆ ว่าไม่ได้ค้นเว็บเพราะเหตุนี้',
  en: 'The web was not searched: the query contained what looks like a secret or access credential, so it was not sent off this machine. Never put passwords, tokens or keys in a search query; search again without that value if you still need to, or answer from what you know, and tell the user briefly that the search was not sent for this reason.',
};

export function searchFailedText(kind: string, language: Language): string {
  if (kind === 'credential') return pick(queryBlockedNotice, language);
  return say(searchFailedNotice, language, { reason: pick(failureReasons[kind] ?? otherFailure, language) });
}
