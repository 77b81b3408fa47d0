import type { Localized } from '../../src/shared/i18n.js';
import { pick, say } from '../../src/shared/i18n.js';
import type { GuardEvent, Language, ToolCallRecord } from '../../src/shared/types.js';
import { thaiDigitsToAscii } from '../../src/shared/thai-digits.js';

// Repeat-call guard (before a tool runs): the same tool with the same canonical arguments within one turn is not
// run again. The 2nd time the model gets the earlier result with a warning; the 3rd time the call is blocked and
// the loop goes to its final answer (opencode's threshold of 3). The turn must record the warned call in its tool
// log too, so that the next identical call counts as the 3rd. Polling a changing resource with identical
// arguments within one turn is treated as a repeat as well: a 2B model's polling is a loop.
// Every call counts, failed ones too (arguments that do not parse or validate, a tool never offered, a failure
// when it ran): a 2B model re-sends a broken call until the step limit, and the reason it failed, handed back
// with the warning, is the one thing that might make it change course (issue 14).

export type RepeatVerdict = { action: 'pass' } | { action: 'warn'; earlier: ToolCallRecord; event: GuardEvent } | { action: 'block'; event: GuardEvent };

const warning: Localized = {
  th: '⚠️ คุณเรียกเครื่องมือนี้ด้วยอาร์กิวเมนต์เดิมไปแล้วในรอบนี้ ด้านล่างคือผลลัพธ์เดิม อย่าเรียกซ้ำอีก ให้ใช้ผลนี้ตอบ หรือเปลี่ยนคำค้น',
  en: '⚠️ You already called this tool with the same arguments in this turn; below is the earlier result. Do not call it again: answer from it, or change the arguments.',
};

const failedWarning: Localized = {
  th: '⚠️ การเรียก {name} ด้วยอาร์กิวเมนต์เดิมเพิ่งล้มเหลวไปในรอบนี้ จึงไม่เรียกซ้ำ เหตุผล: {reason}\nอย่าเรียกแบบเดิมอีก ให้แก้อาร์กิวเมนต์ ใช้เครื่องมืออื่น หรือตอบจากข้อมูลที่มี',
  en: '⚠️ This call of {name} with the same arguments just failed in this turn, so it was not run again. Why: {reason}\nDo not repeat it: fix the arguments, use another tool, or answer from what you have.',
};
/** Enough of the earlier failure to say why (a validation error or the tool list is shorter). */
const reasonCharacters = 400;

/** The warning the model reads above the re-used earlier result. */
export function repeatWarning(language: Language): string {
  return pick(warning, language);
}

/** What the model reads on the 2nd identical call of a call that failed: why the earlier one failed. */
export function failedRepeatWarning(earlier: ToolCallRecord, language: Language): string {
  const result = earlier.result.trim();
  const reason = result.length > reasonCharacters ? `${result.slice(0, reasonCharacters - 1)}…` : result;
  return say(failedWarning, language, { name: earlier.name, reason });
}

const plainNumber = /^-?\d{1,30}(?:\.\d{1,30})?$/;

function canonicalValue(value: unknown): unknown {
  if (typeof value === 'string') {
    const text = value.normalize('NFC').trim();
    // "5" and 5 ask for the same thing; Thai digits too.
    const ascii = thaiDigitsToAscii(text);
    return plainNumber.test(ascii) ? Number(ascii) : text;
  }
  if (typeof value === 'number') return Object.is(value, -0) ? 0 : value;
  if (Array.isArray(value)) return value.map(canonicalValue);
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .map(([key, item]): [string, unknown] => [key.normalize('NFC').trim(), canonicalValue(item)])
      .sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0));
    return Object.fromEntries(entries);
  }
  return value ?? null;
}

/** Sorted keys, NFC-normalized and trimmed strings, numeric strings as numbers, -0 as 0; JSON text. */
export function canonicalArguments(args: unknown): string {
  return JSON.stringify(canonicalValue(args)) ?? 'null';
}

/**
 * The identity of a call's arguments: canonical JSON when they parsed (`{}` and `{ }` are one call), else the raw
 * text trimmed, prefixed so that it never equals a JSON text.
 */
export function argumentsKey(args: unknown, argumentsText: string): string {
  if (args !== undefined) return canonicalArguments(args);
  try {
    return canonicalArguments(JSON.parse(argumentsText) as unknown);
  } catch {
    return `raw:${argumentsText.trim()}`;
  }
}

/**
 * `args` are the validated arguments of a valid call, the parsed ones of a rejected call, undefined when they did
 * not parse (then `argumentsText` is the call).
 */
export function checkRepeatCall(previous: readonly ToolCallRecord[], name: string, args: unknown, argumentsText = ''): RepeatVerdict {
  const key = argumentsKey(args, argumentsText);
  const same = previous.filter((record) => record.name === name && argumentsKey(record.args, record.argumentsText) === key);
  const earlier = same[0];
  if (!earlier) return { action: 'pass' };
  if (same.length === 1) {
    const reason = earlier.ok
      ? `2nd identical call of ${name}: earlier result re-used, tool not run`
      : `2nd identical call of ${name}: the earlier one failed; its reason sent back, tool not run`;
    return { action: 'warn', earlier, event: { guard: 'repeat-call', action: 'warn', reason } };
  }
  return {
    action: 'block',
    event: {
      guard: 'repeat-call',
      action: 'block',
      reason: `Blocked: 3rd identical call of ${name} in this turn. Stop calling tools and answer from the results you have.`,
    },
  };
}
