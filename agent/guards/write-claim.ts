import type { Localized } from '../../src/shared/i18n.js';
import { pick, say } from '../../src/shared/i18n.js';
import type { GuardEvent, TurnRecord } from '../../src/shared/types.js';

// Write-file claim guard (first after the final answer). Fires when the user asked to save/write/create a file,
// or the answer claims a file was saved, and the tool log has no SUCCESSFUL write_file in this turn. The turn then
// retries once with `instruction`; if there is still no successful write it replaces the answer with
// `writeClaimFailure` (honest: nothing was saved). Whether the retry was spent is decided by writeClaimStep
// (guards/index.ts), not here.

const maxScanned = 4000;

/** A verb, then — on the same line, within `gap` characters after it — an object. */
interface Phrase {
  verb: RegExp;
  object: RegExp;
  gap: number;
  /** Must also follow the object within 44 characters ("…ไฟล์ notes.md เรียบร้อยแล้ว"). */
  then?: RegExp;
}

const fileObject = /\bfiles?\b|\.(?:txt|md|csv|json|html)\b/i;
const thaiFileObject = /ไฟล์|\.(?:txt|md|csv|json|html)\b/i;

const requests: Phrase[] = [
  { verb: /\b(?:save|write|store|export|dump|put|output)\b/gi, object: fileObject, gap: 60 },
  { verb: /\b(?:create|make|generate)\b/gi, object: /\bfiles?\b/i, gap: 40 },
  { verb: /บันทึก(?!การ)|เซฟ|เขียน|สร้าง|เก็บ|ส่งออก|ทำเป็น|ทำ(?=ไฟล์)|ขอเป็น|ขอ(?=ไฟล์)/g, object: thaiFileObject, gap: 24 },
];
const englishHowTo = /\bhow\s{1,3}(?:to|do|can|could|should)\b/i;
const thaiHowToOrStatus = /วิธี|ยังไง|อย่างไร|ทำไง|หรือยัง|รึยัง/;

const claims: Phrase[] = [
  { verb: /บันทึก|เซฟ|เขียน|สร้าง|จัดเก็บ/g, object: /ไฟล์/, gap: 30, then: /แล้ว|เรียบร้อย|สำเร็จ/ },
  { verb: /ไฟล์/g, object: /ถูก(?:บันทึก|สร้าง|เขียน)/, gap: 40 },
  { verb: /\b(?:saved|written|wrote|created|stored|exported)\b/gi, object: fileObject, gap: 60 },
  { verb: /\bfiles?\b/gi, object: /\b(?:has|have) been (?:saved|created|written)\b/i, gap: 40 },
];
const negation = /\bnot\b|n't|\bnever\b|ไม่|ยัง/i;

/**
 * Finds a phrase without one regex spanning verb and object (which would rescan the gap from every verb):
 * each verb match is followed by one bounded look at the rest of its line.
 */
function findPhrase(text: string, phrase: Phrase, accept: (verbAt: number, window: string) => boolean = () => true): boolean {
  phrase.verb.lastIndex = 0;
  for (let match = phrase.verb.exec(text); match !== null; match = phrase.verb.exec(text)) {
    const after = match.index + match[0].length;
    const window = text.slice(after, after + phrase.gap + 110).split('\n', 1)[0] ?? '';
    const found = phrase.object.exec(window);
    if (!found || found.index > phrase.gap) continue;
    const objectEnd = found.index + found[0].length;
    const thenFound = phrase.then ? phrase.then.exec(window.slice(objectEnd, objectEnd + 44)) : undefined;
    if (thenFound === null) continue;
    if (accept(match.index, window.slice(0, objectEnd + (thenFound ? thenFound.index + thenFound[0].length : 0)))) return true;
  }
  return false;
}

/** The user asked Saeng to save / write / create a file (Thai or English), not how to do it themselves. */
export function userAskedToWriteFile(question: string): boolean {
  const text = question.slice(0, maxScanned).normalize('NFC');
  if (!requests.some((phrase) => findPhrase(text, phrase))) return false;
  const thai = /[\u0e00-\u0e7f]/.test(text);
  return thai ? !thaiHowToOrStatus.test(text) : !englishHowTo.test(text);
}

/** The answer says a file was saved (a negated sentence — "ยังไม่ได้บันทึกไฟล์" — is not a claim). */
export function answerClaimsSavedFile(answer: string): boolean {
  const text = answer.slice(0, maxScanned).normalize('NFC');
  const affirmative = (verbAt: number, window: string): boolean => !negation.test(text.slice(Math.max(0, verbAt - 24), verbAt)) && !negation.test(window);
  return claims.some((phrase) => findPhrase(text, phrase, affirmative));
}

function hasSuccessfulWrite(record: TurnRecord): boolean {
  return record.toolCalls.some((call) => call.name === 'write_file' && call.ok);
}

const retryInstruction: Localized = {
  th: 'ผู้ใช้ขอให้บันทึกเป็นไฟล์ แต่ในรอบนี้ยังไม่มีการเรียก write_file ที่สำเร็จ จึงยังไม่มีไฟล์ใดถูกบันทึก ให้เรียกเครื่องมือ write_file ตอนนี้ โดยใส่ name (เช่น notes.md) และ content ที่จะบันทึก ห้ามบอกว่าบันทึกแล้วถ้ายังไม่ได้เรียกเครื่องมือ',
  en: 'The user asked for a file, but no write_file call succeeded in this turn, so nothing was saved. Call the write_file tool now with a name (e.g. notes.md) and the content to save. Never say a file was saved without calling the tool.',
};

export type WriteClaimVerdict = { action: 'pass' } | { action: 'retry'; instruction: string; event: GuardEvent };

export function checkWriteClaim(record: TurnRecord): WriteClaimVerdict {
  if (hasSuccessfulWrite(record)) return { action: 'pass' };
  const asked = userAskedToWriteFile(record.question);
  if (!asked && !answerClaimsSavedFile(record.finalText)) return { action: 'pass' };
  return {
    action: 'retry',
    instruction: pick(retryInstruction, record.language),
    event: {
      guard: 'write-claim',
      action: 'warn',
      reason: asked ? 'asked to save a file, no successful write_file: one retry' : 'answer claims a saved file, no successful write_file: one retry',
    },
  };
}

const nothingSaved: Localized = {
  th: 'ขออภัย ครั้งนี้ยังไม่ได้บันทึกไฟล์ใด ๆ (ระบบไม่พบการเขียนไฟล์ที่สำเร็จ) กรุณาสั่งอีกครั้ง หรือระบุชื่อไฟล์และเนื้อหาให้ชัดขึ้น',
  en: 'Sorry, no file was saved this time (the system found no successful file write). Please ask again, or give the file name and content more clearly.',
};
const lastError: Localized = { th: 'ข้อผิดพลาดล่าสุด: {error}', en: 'Last error: {error}' };
const preparedContent: Localized = { th: 'เนื้อหาที่เตรียมไว้ (ยังไม่ได้บันทึก):', en: 'The prepared content (not saved):' };

/** The first fenced code block of a text, so that the content the model prepared is not lost. */
function firstCodeBlock(text: string): string | undefined {
  const start = text.indexOf('```');
  if (start < 0) return undefined;
  const end = text.indexOf('```', start + 3);
  if (end < 0) return undefined;
  const block = text.slice(start, end + 3);
  return block.length <= maxScanned ? block : undefined;
}

/** The honest answer after the one retry: nothing was saved (with the last write error and prepared content). */
export function writeClaimFailure(record: TurnRecord): { text: string; event: GuardEvent } {
  const parts = [pick(nothingSaved, record.language)];
  const failedWrite = record.toolCalls.filter((call) => call.name === 'write_file' && !call.ok).at(-1);
  if (failedWrite) {
    const firstLine = failedWrite.result.split('\n', 1)[0]?.slice(0, 200) ?? '';
    if (firstLine) parts.push(say(lastError, record.language, { error: firstLine }));
  }
  const block = [record.finalText, ...record.drafts].map(firstCodeBlock).find((found) => found !== undefined);
  if (block) parts.push(`${pick(preparedContent, record.language)}\n${block}`);
  return {
    text: parts.join('\n\n'),
    event: { guard: 'write-claim', action: 'rewrite', reason: 'no successful write_file after one retry: answer replaced by an honest notice' },
  };
}
