import type { Localized } from '../../src/i18n.js';
import { pick, say } from '../../src/i18n.js';
import type { GuardEvent, TurnRecord } from '../../src/types.js';

// Write-file claim guard (first after the final answer). Fires when the user asked to save/write/create a file,
// or the answer claims a file was saved, and the tool log has no SUCCESSFUL write_file in this turn. The turn then
// retries once with `instruction`; if there is still no successful write it replaces the answer with
// `writeClaimFailure` (honest: nothing was saved). The retry count lives in the turn, not here.

const maxScanned = 4000;

const englishRequest = [
  /\b(?:save|write|store|export|dump|put|output)\b[^\n]{0,60}?(?:\bfiles?\b|\.(?:txt|md|csv|json|html)\b)/i,
  /\b(?:create|make|generate)\b[^\n]{0,40}?\bfiles?\b/i,
];
const englishHowTo = /\bhow\s{1,3}(?:to|do|can|could|should)\b/i;
const thaiRequest = [
  /(?:บันทึก(?!การ)|เซฟ|เขียน|สร้าง|เก็บ|ส่งออก|ทำเป็น|ทำ(?=ไฟล์)|ขอเป็น|ขอ(?=ไฟล์))[^\n]{0,24}?(?:ไฟล์|\.(?:txt|md|csv|json|html)\b)/,
];
const thaiHowToOrStatus = /วิธี|ยังไง|อย่างไร|ทำไง|หรือยัง|รึยัง/;

/** The user asked Saeng to save / write / create a file (Thai or English), not how to do it themselves. */
export function userAskedToWriteFile(question: string): boolean {
  const text = question.slice(0, maxScanned).normalize('NFC');
  if (englishRequest.some((pattern) => pattern.test(text)) && !englishHowTo.test(text)) return true;
  return thaiRequest.some((pattern) => pattern.test(text)) && !thaiHowToOrStatus.test(text);
}

const claimPatterns = [
  /(?:บันทึก|เซฟ|เขียน|สร้าง|จัดเก็บ)[^\n]{0,30}?ไฟล์[^\n]{0,40}?(?:แล้ว|เรียบร้อย|สำเร็จ)/g,
  /ไฟล์[^\n]{0,40}?ถูก(?:บันทึก|สร้าง|เขียน)/g,
  /\b(?:saved|written|wrote|created|stored|exported)\b[^\n]{0,60}?(?:\bfiles?\b|\.(?:txt|md|csv|json|html)\b)/gi,
  /\bfiles?\b[^\n]{0,40}?\b(?:has|have) been (?:saved|created|written)\b/gi,
];
const negation = /\bnot\b|n't|\bnever\b|ไม่|ยัง/i;

/** The answer says a file was saved (a negated sentence — "ยังไม่ได้บันทึกไฟล์" — is not a claim). */
export function answerClaimsSavedFile(answer: string): boolean {
  const text = answer.slice(0, maxScanned).normalize('NFC');
  for (const pattern of claimPatterns) {
    pattern.lastIndex = 0;
    for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
      const before = text.slice(Math.max(0, match.index - 24), match.index);
      if (!negation.test(before) && !negation.test(match[0])) return true;
    }
  }
  return false;
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
