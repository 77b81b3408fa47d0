import { thaiDigitsToAscii } from '../../shared/thai-digits.js';
import type { TextSpan } from './when-types.js';

// The text the time patterns read: the first 500 characters (hostile input stays bounded), Thai digits as ASCII,
// lower case, and Thai number words as digits ("สิบเอ็ดโมง" → "11โมง", "บ่ายสอง" → "บ่าย2"), so each clock pattern
// is written once for figures. Number words change the length, so every character keeps where it came from and a
// span found here is given back in the caller's offsets.
//
// Two number words side by side ("สองสาม วัน", a few days) or a word glued to a figure are left as words: they are
// a vague count, not a number, and must not become "23".

export const lookedAt = 500;

export interface PreparedText {
  text: string;
  /** Whether the message is Thai (a two-digit year is then a Buddhist-Era short form). */
  thai: boolean;
  /** For each character of `text`, where it starts and ends in the original. */
  starts: number[];
  ends: number[];
}

const numberWord = /(?:ยี่สิบ|สองสิบ|สามสิบ|สี่สิบ|ห้าสิบ|สิบ)(?:เอ็ด|หนึ่ง|สอง|สาม|สี่|ห้า|หก|เจ็ด|แปด|เก้า)?|หนึ่ง|นึง|สอง|สาม|สี่|ห้า|หก|เจ็ด|แปด|เก้า/g;
const thaiLetter = /[\u0E01-\u0E4F]/;
const asciiDigit = /[0-9]/;

const tens: Record<string, number> = { ยี่สิบ: 20, สองสิบ: 20, สามสิบ: 30, สี่สิบ: 40, ห้าสิบ: 50, สิบ: 10 };
const units: Record<string, number> = { เอ็ด: 1, หนึ่ง: 1, นึง: 1, สอง: 2, สาม: 3, สี่: 4, ห้า: 5, หก: 6, เจ็ด: 7, แปด: 8, เก้า: 9 };

export function valueOfNumberWord(word: string): number {
  for (const [ten, value] of Object.entries(tens)) {
    if (word.startsWith(ten)) return value + (units[word.slice(ten.length)] ?? 0);
  }
  return units[word] ?? 0;
}

/** Lower case one character for one (a few characters grow when lower-cased; they are kept). */
function lowerInPlace(text: string): string {
  let out = '';
  for (const character of text) {
    const lower = character.toLowerCase();
    out += lower.length === character.length ? lower : character;
  }
  return out;
}

export function prepareText(original: string): PreparedText {
  const cut = original.slice(0, lookedAt);
  const base = lowerInPlace(thaiDigitsToAscii(cut));
  const matches = [...base.matchAll(numberWord)].map((match) => ({ start: match.index, end: match.index + match[0].length, word: match[0] }));
  const kept = matches.filter((match, index) => {
    const glued = (matches[index - 1]?.end ?? -1) === match.start || (matches[index + 1]?.start ?? -1) === match.end;
    return !glued && !asciiDigit.test(base.charAt(match.start - 1)) && !asciiDigit.test(base.charAt(match.end));
  });
  let text = '';
  const starts: number[] = [];
  const ends: number[] = [];
  let copied = 0;
  for (const match of kept) {
    for (let index = copied; index < match.start; index++) {
      starts.push(index);
      ends.push(index + 1);
    }
    const digits = String(valueOfNumberWord(match.word));
    text += base.slice(copied, match.start) + digits;
    for (let index = 0; index < digits.length; index++) {
      starts.push(match.start);
      ends.push(match.end);
    }
    copied = match.end;
  }
  for (let index = copied; index < base.length; index++) {
    starts.push(index);
    ends.push(index + 1);
  }
  text += base.slice(copied);
  return { text, thai: thaiLetter.test(base), starts, ends };
}

/** A span of the prepared text in the original's offsets. */
export function originalSpan(prepared: PreparedText, start: number, end: number): TextSpan {
  if (end <= start) {
    const at = prepared.starts[start] ?? prepared.ends[prepared.ends.length - 1] ?? 0;
    return { start: at, end: at };
  }
  return { start: prepared.starts[start] ?? 0, end: prepared.ends[end - 1] ?? 0 };
}
