import { pick, type Localized } from '../../src/shared/i18n.js';
import type { GuardEvent, Language, TurnRecord } from '../../src/shared/types.js';
import { fenceRanges } from './code-spans.js';
import { askedForCode, askedForCodeOnly, expectedAnswerLanguage } from './language-drift-request.js';
import { allLetters, cjkLetters, countScripts, type ScriptCounts } from './language-drift-scripts.js';
import { isBudgetSentinel, isEnglishStockRefusal } from './refusal.js';

// Language drift (after the write-claim retry, before the answer guards): a Thai question answered with no Thai —
// small Qwen-family models answer in Chinese, or in English that is no stock refusal (those are the refusal
// guard's). The turn asks once more, without tools, for the same answer in the expected language; if the retry
// drifts too, the user gets a short notice with the original answer below it. English likewise for an English bot.

/** Letters of the expected script that make an answer count as written in it, whatever else it holds. */
const enoughExpected = 20;
/** Below this share of all letters, the expected script is a stray word ("ครับ" after English prose). */
const tinyShare = 0.02;
/** A prose answer, not a name, a number or a title: this many Latin words … */
const proseLatinWords = 5;
/** … or this many CJK characters, or (for an English bot) Thai letters. */
const proseCjkLetters = 8;
const proseThaiLetters = 10;

export type DriftedTo = 'Chinese' | 'Japanese' | 'Korean' | 'English' | 'Thai';

function cjkName(counts: ScriptCounts): DriftedTo {
  if (counts.kana >= 0.1 * cjkLetters(counts)) return 'Japanese';
  return counts.hangul > counts.han ? 'Korean' : 'Chinese';
}

/** The language a prose answer drifted to, or undefined when it is in `expected` (or too short to tell). */
export function findDrift(answer: string, expected: Language): DriftedTo | undefined {
  const counts = countScripts(answer);
  const own = expected === 'th' ? counts.thai : counts.latin;
  if (own >= enoughExpected || own > tinyShare * allLetters(counts)) return undefined;
  const cjk = cjkLetters(counts);
  if (cjk >= proseCjkLetters && cjk >= counts.latin && cjk >= counts.thai) return cjkName(counts);
  if (expected === 'th') return counts.latinWords >= proseLatinWords ? 'English' : undefined;
  return counts.thai >= proseThaiLetters ? 'Thai' : undefined;
}

/** A JSON object or array as the whole answer is data, not prose in some language. */
function looksLikeData(text: string): boolean {
  const first = text[0];
  const last = text.at(-1);
  return (first === '{' && last === '}') || (first === '[' && last === ']');
}

const languageName: Localized = { th: 'Thai', en: 'English' };

const retryInstruction: Localized = {
  th: 'ผู้ใช้ถามเป็นภาษาไทย แต่คำตอบก่อนหน้าไม่ได้เป็นภาษาไทย ให้เขียนคำตอบเดิมใหม่เป็นภาษาไทยทั้งหมด โดยเนื้อหา ตัวเลข และแหล่งข้อมูลเหมือนเดิม (ชื่อเฉพาะ โค้ด และลิงก์คงไว้ได้) ไม่ต้องเรียกเครื่องมือ ตอบเป็นภาษาไทยเท่านั้น (Answer in Thai only.)',
  en: 'The user wrote in English, but your previous answer is not in English. Write the same answer again entirely in English, with the same content, figures and sources (names, code and links may stay as they are). Do not call any tool. Answer in English only.',
};

// In a space that chose its language the question may well be in another one: the instruction says whose choice it is.
const fixedRetryInstruction: Localized = {
  th: 'กลุ่มนี้ตั้งให้ตอบเป็นภาษาไทย แต่คำตอบก่อนหน้าไม่ได้เป็นภาษาไทย ให้เขียนคำตอบเดิมใหม่เป็นภาษาไทยทั้งหมด โดยเนื้อหา ตัวเลข และแหล่งข้อมูลเหมือนเดิม (ชื่อเฉพาะ โค้ด และลิงก์คงไว้ได้) ไม่ต้องเรียกเครื่องมือ ตอบเป็นภาษาไทยเท่านั้น (Answer in Thai only.)',
  en: 'This chat is set to answer in English, but your previous answer is not in English. Write the same answer again entirely in English, with the same content, figures and sources (names, code and links may stay as they are). Do not call any tool. Answer in English only.',
};

const driftNotice: Localized = {
  th: '(โมเดลตอบเป็นภาษาอื่น และเขียนเป็นภาษาไทยใหม่ไม่สำเร็จ คำตอบเดิมอยู่ด้านล่าง)',
  en: '(The model answered in another language and could not rewrite it in English; its original answer is below.)',
};

export type LanguageVerdict = { action: 'pass' } | { action: 'retry'; expected: Language; instruction: string; event: GuardEvent };

/** `fixed`: the space chose record.language (TurnInput.languageFixed), so a question in another language expects it too. */
export function checkLanguageDrift(record: TurnRecord, fixed = false): LanguageVerdict {
  const text = record.finalText.trim();
  // Empty answers, the step limit and stock refusals are the refusal guard's.
  if (record.stopReason !== 'answer' || text === '' || isBudgetSentinel(text) || isEnglishStockRefusal(text)) return { action: 'pass' };
  const expected = expectedAnswerLanguage(record.question, record.language, fixed);
  if (expected === undefined || askedForCodeOnly(record.question)) return { action: 'pass' };
  if (askedForCode(record.question) && fenceRanges(text).length > 0) return { action: 'pass' }; // the code is the answer
  if (looksLikeData(text)) return { action: 'pass' };
  const drifted = findDrift(text, expected);
  if (drifted === undefined) return { action: 'pass' };
  const wanted = pick(languageName, expected);
  return {
    action: 'retry',
    expected,
    instruction: pick(fixed ? fixedRetryInstruction : retryInstruction, expected),
    event: { guard: 'language', action: 'retry', reason: `answer in ${drifted} where ${wanted} was expected: one retry asking for ${wanted}, without tools` },
  };
}

export type LanguageRetryOutcome = { action: 'pass' } | { action: 'warn'; text: string; event: GuardEvent };

/** After the one retry (its answer in `retried`): keep it when it is in the expected language, else notice + original. */
export function languageRetryOutcome(retried: string, original: string, expected: Language): LanguageRetryOutcome {
  const text = retried.trim();
  const usable = text !== '' && !isBudgetSentinel(text) && !isEnglishStockRefusal(text);
  if (usable && findDrift(text, expected) === undefined) return { action: 'pass' };
  return {
    action: 'warn',
    text: `${pick(driftNotice, expected)}\n\n${original}`,
    event: {
      guard: 'language',
      action: 'warn',
      reason: `retry ${usable ? `still not in ${pick(languageName, expected)}` : 'gave no usable answer'}: notice above the original answer`,
    },
  };
}
