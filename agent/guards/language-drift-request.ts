import type { Language } from '../../src/shared/types.js';
import { allLetters, cjkLetters, countScripts } from './language-drift-scripts.js';

// What the question says about the answer's language: which language it expects (Thai for a Thai question, the
// bot's language for a question with no clear language — a URL, numbers, emoji), whether the user asked for another
// one (translate, "in English", "ตอบเป็นภาษาจีน"), and whether it asks for code.

const maxScanned = 4000;

const thaiAsked = /ภาษาไทย|\b(?:in|into|to) thai\b|\bthai language\b/i;
const otherLanguageNames =
  /\b(?:english|chinese|mandarin|cantonese|japanese|korean|french|german|spanish|italian|russian|vietnamese|lao|burmese|khmer|malay|indonesian|hindi|arabic)\b/i;
const thaiOtherLanguage =
  /อังกฤษ|ภาษา(?:จีน|ญี่ปุ่น|เกาหลี|ฝรั่งเศส|เยอรมัน|สเปน|อิตาลี|รัสเซีย|เวียดนาม|ลาว|พม่า|เขมร|มลายู|อินโด|ฮินดี|อาหรับ|อื่น|ต่างประเทศ|ต่างชาติ)|จีนกลาง|อิงลิช|อิ้ง/;
// แปล is "translate"; แปลก (strange), แปลง (convert) and แปลว่า (means: the user wants it explained) are not.
const translateAsked = /\btranslat(?:e|es|ed|ing|ion)\b|แปล(?![กง]|ว่า)/i;

const codeOnlyAsked = /\b(?:code|script) only\b|\bonly (?:the )?code\b|\bjust (?:the )?code\b|(?:เฉพาะ|แค่|เอาแต่)โค้ด|โค้ดอย่างเดียว/i;
const codeAsked =
  /โค้ด|โค๊ด|สคริปต์|ฟังก์ชัน|คำสั่ง|\b(?:code|script|function|regex|sql|query|command|python|javascript|typescript|bash|shell|java|golang|rust|html|css|json|yaml)\b/i;

/** The question's own language: Thai, English, another (it has CJK letters), or none to speak of. */
export type QuestionLanguage = 'th' | 'en' | 'mixed' | 'other' | 'unclear';

export function questionLanguage(question: string): QuestionLanguage {
  const counts = countScripts(question.slice(0, maxScanned));
  if (cjkLetters(counts) > 0) return 'other';
  // Mostly Thai, or a real Thai sentence around English terms ("Docker compose ไม่ทำงาน ขึ้น error ว่า …").
  if (counts.thai >= 20 || (counts.thai >= 2 && counts.thai >= 0.15 * allLetters(counts))) return 'th';
  if (counts.thai > 0) return 'mixed';
  return counts.latinWords > 0 ? 'en' : 'unclear';
}

/**
 * The language the answer should be in, or undefined when any is fine: a Thai question (or the user asked for
 * Thai, "แปลเป็นภาษาไทย") wants Thai; an English question wants English only from an English bot; a question with
 * no clear language wants the bot's; a named other language, another translation, a CJK or half-and-half question
 * wants nothing. `fixed` (the space chose `botLanguage`): any question that asks for no language and no translation
 * wants the bot's language, whatever it is written in.
 */
export function expectedAnswerLanguage(question: string, botLanguage: Language, fixed = false): Language | undefined {
  const text = question.slice(0, maxScanned).normalize('NFC');
  if (thaiOtherLanguage.test(text) || otherLanguageNames.test(text)) return undefined;
  if (thaiAsked.test(text)) return 'th'; // "แปลเป็นภาษาไทย", "answer in Thai"
  if (translateAsked.test(text)) return undefined;
  if (fixed) return botLanguage;
  switch (questionLanguage(text)) {
    case 'th':
      return 'th';
    case 'en':
      return botLanguage === 'en' ? 'en' : undefined;
    case 'unclear':
      return botLanguage;
    case 'mixed':
    case 'other':
      return undefined;
  }
}

/** The user wants code: any code block in the answer is then what was asked for. */
export function askedForCode(question: string): boolean {
  return codeAsked.test(question.slice(0, maxScanned));
}

/** "code only" / "เฉพาะโค้ด": the answer may be nothing but code, in whatever words it has. */
export function askedForCodeOnly(question: string): boolean {
  return codeOnlyAsked.test(question.slice(0, maxScanned));
}
