import { pick, type Localized } from '../../src/shared/i18n.js';
import type { GuardEvent, Language } from '../../src/shared/types.js';
import type { UnreadReason } from '../turn-images.js';

// Images the model could neither see nor read: the answer says so (and why) rather than read as if the picture had
// been looked at. The most telling reason wins: a missing OCR program is something the admin can fix.

const notes: Record<UnreadReason, Localized> = {
  'ocr-unavailable': {
    th: '(โมเดลที่ใช้อยู่มองไม่เห็นรูปภาพ และเครื่องนี้ยังไม่ได้ติดตั้งโปรแกรมอ่านตัวหนังสือในรูป (tesseract) จึงตอบจากข้อความอย่างเดียว)',
    en: '(The model in use cannot see images and the text-reading program (tesseract) is not installed here, so this answer is from the text only.)',
  },
  'ocr-failed': {
    th: '(อ่านตัวหนังสือในรูปไม่สำเร็จ และโมเดลที่ใช้อยู่มองไม่เห็นรูปภาพ จึงตอบจากข้อความอย่างเดียว)',
    en: '(Reading the text in the image failed and the model in use cannot see images, so this answer is from the text only.)',
  },
  'no-text': {
    th: '(ไม่พบตัวหนังสือในรูป และโมเดลที่ใช้อยู่มองไม่เห็นรูปภาพ จึงตอบจากข้อความอย่างเดียว)',
    en: '(No text was found in the image and the model in use cannot see images, so this answer is from the text only.)',
  },
  'not-read': {
    th: '(โมเดลไม่ได้ดูหรืออ่านรูปที่แนบมา จึงตอบจากข้อความอย่างเดียว)',
    en: '(The model neither looked at nor read the attached image, so this answer is from the text only.)',
  },
};

const precedence: readonly UnreadReason[] = ['ocr-unavailable', 'ocr-failed', 'no-text', 'not-read'];

export function visionNote(unread: readonly UnreadReason[], language: Language): { text: string; event: GuardEvent } | undefined {
  const reason = precedence.find((candidate) => unread.includes(candidate));
  if (!reason) return undefined;
  return {
    text: pick(notes[reason], language),
    event: { guard: 'vision', action: 'warn', reason: `${unread.length} image(s) neither shown nor read (${reason})` },
  };
}
