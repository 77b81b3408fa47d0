import { pick, type Localized } from '../../src/shared/i18n.js';
import type { GuardEvent, Language } from '../../src/shared/types.js';

// Images the model could not be shown: the answer says so rather than read as if the picture had been seen.

const imagesNotRead: Localized = {
  th: '(โมเดลที่ใช้อยู่อ่านรูปภาพไม่ได้ จึงตอบจากข้อความอย่างเดียว)',
  en: '(The model in use cannot read images, so this answer is from the text only.)',
};

export function visionNote(imagesNotShown: number, language: Language): { text: string; event: GuardEvent } | undefined {
  if (imagesNotShown === 0) return undefined;
  return {
    text: pick(imagesNotRead, language),
    event: { guard: 'vision', action: 'warn', reason: `${imagesNotShown} image(s) not shown: the model has no vision` },
  };
}
