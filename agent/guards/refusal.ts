import type { TurnRecord } from '../../src/shared/types.js';

// Refusal replacement (Thai-first). Replaced by an answer built from the tool log:
//   - the step limit was hit, or the answer is empty (a cut stream, a blocked repeat with nothing usable);
//   - a step-budget sentinel parroted from agent traces ("Sorry, need more steps to process this request.",
//     "Agent stopped due to iteration limit or time limit.") — a loop signal, in any language of question;
//   - a SHORT English-only stock refusal ("I'm sorry, but I can't…") to a Thai question.
// Thai answers are never replaced, even when they contain ขออภัย or ไม่สามารถ ("ระบบไม่สามารถเชื่อมต่อได้
// เนื่องจาก…" is a real answer).

const maxStockLength = 400;
const thaiScript = /[\u0e00-\u0e7f]/;

const budgetSentinels = [
  /need more steps to process this request/i,
  /agent stopped due to (?:iteration|time|max(?:imum)? iterations?) limit/i,
  /recursion limit of \d{1,5} reached/i,
  /max(?:imum)? (?:number of )?(?:iterations|steps) (?:reached|exceeded)/i,
];

const stockRefusals = [
  /^\W{0,4}(?:i'?m|i am|we'?re|we are) (?:so |very )?(?:sorry|afraid)\b/i,
  /^\W{0,4}(?:sorry|apologies|unfortunately)\b/i,
  /\b(?:i|we) (?:can(?:no|')t|cannot|am unable to|am not able to|won't be able to|are unable to)\b/i,
  /\bas an ai(?: language model| assistant)?\b/i,
  /\bi (?:do not|don't) have (?:access|the ability|enough information|information|real-time)/i,
];

/** A step-budget sentinel (any question language). */
export function isBudgetSentinel(text: string): boolean {
  const trimmed = text.trim();
  return trimmed.length <= maxStockLength && budgetSentinels.some((pattern) => pattern.test(trimmed));
}

/** A short English-only stock refusal (no Thai script at all). */
export function isEnglishStockRefusal(text: string): boolean {
  const trimmed = text.trim();
  if (trimmed.length > maxStockLength || thaiScript.test(trimmed)) return false;
  return isBudgetSentinel(trimmed) || stockRefusals.some((pattern) => pattern.test(trimmed));
}

export type RefusalVerdict = { action: 'pass' } | { action: 'rewrite'; reason: string };

export function checkRefusal(record: TurnRecord): RefusalVerdict {
  const text = record.finalText.trim();
  if (record.stopReason === 'step-limit') return { action: 'rewrite', reason: 'step limit reached: answer built from the tool log' };
  if (text === '') return { action: 'rewrite', reason: `no usable answer (${record.stopReason}): answer built from the tool log` };
  if (isBudgetSentinel(text)) return { action: 'rewrite', reason: 'step-budget sentinel text: answer built from the tool log' };
  const thaiQuestion = thaiScript.test(record.question);
  if (thaiQuestion && isEnglishStockRefusal(text)) {
    return { action: 'rewrite', reason: 'English stock refusal to a Thai question: Thai answer built from the tool log' };
  }
  return { action: 'pass' };
}
