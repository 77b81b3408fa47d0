import type { Localized } from '../../src/shared/i18n.js';
import { pick } from '../../src/shared/i18n.js';
import type { GuardEvent, Language, ToolCallRecord } from '../../src/shared/types.js';
import { thaiDigitsToAscii } from '../../src/shared/thai-digits.js';

// Repeat-call guard (before a tool runs): the same tool with the same canonical arguments within one turn is not
// run again. The 2nd time the model gets the earlier result with a warning; the 3rd time the call is blocked and
// the loop goes to its final answer (opencode's threshold of 3). The turn must record the warned call in its tool
// log too, so that the next identical call counts as the 3rd. Polling a changing resource with identical
// arguments within one turn is treated as a repeat as well: a 2B model's polling is a loop.

export type RepeatVerdict = { action: 'pass' } | { action: 'warn'; earlier: ToolCallRecord; event: GuardEvent } | { action: 'block'; event: GuardEvent };

const warning: Localized = {
  th: '⚠️ คุณเรียกเครื่องมือนี้ด้วยอาร์กิวเมนต์เดิมไปแล้วในรอบนี้ ด้านล่างคือผลลัพธ์เดิม อย่าเรียกซ้ำอีก ให้ใช้ผลนี้ตอบ หรือเปลี่ยนคำค้น',
  en: '⚠️ You already called this tool with the same arguments in this turn; below is the earlier result. Do not call it again: answer from it, or change the arguments.',
};

/** The warning the model reads above the re-used earlier result. */
export function repeatWarning(language: Language): string {
  return pick(warning, language);
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

function argumentsOf(record: ToolCallRecord): unknown {
  if (record.args !== undefined) return record.args;
  try {
    return JSON.parse(record.argumentsText) as unknown;
  } catch {
    return record.argumentsText;
  }
}

export function checkRepeatCall(previous: readonly ToolCallRecord[], name: string, args: unknown): RepeatVerdict {
  const key = canonicalArguments(args);
  const same = previous.filter((record) => record.name === name && canonicalArguments(argumentsOf(record)) === key);
  const earlier = same[0];
  if (!earlier) return { action: 'pass' };
  if (same.length === 1) {
    return {
      action: 'warn',
      earlier,
      event: { guard: 'repeat-call', action: 'warn', reason: `2nd identical call of ${name}: earlier result re-used, tool not run` },
    };
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
