import type { Localized } from '../../../src/shared/i18n.js';

// What the model reads back from query_knowledge (in the bot's language; ids and markers stay verbatim).

export const queryKnowledgeStrings = {
  noneBound: {
    th: 'ห้องนี้ไม่มีคลังความรู้ที่ผูกไว้ ให้ตอบโดยไม่ใช้คลังความรู้',
    en: 'No knowledge base is bound to this chat; answer without one.',
  },
  listHeading: { th: 'คลังความรู้ที่ใช้ได้ในห้องนี้:', en: 'Knowledge bases available in this chat:' },
  listLine: {
    th: '- kb_id: {id} · ชื่อ: {name} · เอกสาร: {documents}{description}',
    en: '- kb_id: {id} · name: {name} · documents: {documents}{description}',
  },
  descriptionPart: { th: ' · คำอธิบาย: {description}', en: ' · description: {description}' },
  missingQuery: {
    th: 'action "query" ต้องมี query_text (สิ่งที่ต้องการค้นหา)',
    en: 'action "query" needs query_text (what to look for).',
  },
  notBound: {
    th: 'ไม่อนุญาต: คลังความรู้ {ids} ไม่ได้ผูกกับห้องนี้ ใช้ได้เฉพาะ: {available}',
    en: 'Refused: knowledge base {ids} is not bound to this chat. Allowed: {available}',
  },
  nothingFound: {
    th: 'ไม่พบข้อความที่เกี่ยวกับ "{query}" ในคลังความรู้ของห้องนี้',
    en: 'Nothing about "{query}" in this chat\'s knowledge bases.',
  },
  resultsHeading: {
    th: 'ข้อความจากคลังความรู้สำหรับ "{query}" ({count} ส่วน):',
    en: 'Knowledge-base passages for "{query}" ({count}):',
  },
  allFailed: {
    th: 'ค้นคลังความรู้ไม่สำเร็จ ({ids}) ให้บอกผู้ใช้ว่าค้นไม่ได้ในตอนนี้',
    en: 'Searching the knowledge bases failed ({ids}); tell the user it is unavailable right now.',
  },
} satisfies Record<string, Localized>;
