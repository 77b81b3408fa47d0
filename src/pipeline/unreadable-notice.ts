import { say, type Localized } from '../shared/i18n.js';
import type { Language, UnreadableKind } from '../shared/types.js';

// The one line a voice note, audio, video or sticker sent to the bot gets (docs/architecture.md, "Data flow of one
// message", step 4): what it cannot take in, and what it can. Documents are read only once added to a knowledge
// base (the router's file-kept hint says the same); the types named are among `supportedTypesText`
// (src/knowledge/ingest/ingest-failure.ts), which a test holds them to.

const unreadableNotice: Localized = {
  th: 'ขออภัย แสงยัง{what}ไม่ได้ครับ ตอนนี้อ่านได้เฉพาะข้อความที่พิมพ์ รูปภาพ และเอกสาร (PDF, DOCX, TXT, MD, HTML, CSV) ที่เพิ่มเข้าคลังความรู้ด้วย /kb add — พิมพ์คำถามมาได้เลยครับ',
  en: 'Sorry, I cannot {what} yet. I read typed text, images, and documents (PDF, DOCX, TXT, MD, HTML, CSV) added to a knowledge base with /kb add — please type your question.',
};

const whatCannot: Record<UnreadableKind, Localized> = {
  voice: { th: 'ฟังข้อความเสียง', en: 'listen to voice messages' },
  audio: { th: 'ฟังไฟล์เสียง', en: 'listen to audio' },
  video: { th: 'ดูวิดีโอ', en: 'watch videos' },
  sticker: { th: 'ดูสติกเกอร์', en: 'read stickers' },
};

export function unreadableNoticeText(what: UnreadableKind, language: Language): string {
  return say(unreadableNotice, language, { what: say(whatCannot[what], language) });
}
