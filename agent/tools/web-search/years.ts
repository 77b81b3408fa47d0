import { thaiDigitsToAscii } from '../../../src/shared/thai-digits.js';

// Years named in a text, all converted to CE: "2026", "พ.ศ. 2569", "๒๕๖๙", "ปี 69", "5 ม.ค. 69", "12/05/2567".

export const buddhistEraOffset = 543;

const eraBefore = /(?:พ\.\s?ศ\.|b\.\s?e\.)\s{0,2}$/i;
const commonEraBefore = /(?:ค\.\s?ศ\.|c\.\s?e\.|a\.\s?d\.)\s{0,2}$/i;
// Two-digit BE years only after a word that makes them years: "ปี 68", "พ.ศ. 68", "5 ม.ค. 68".
const shortYearBefore = /(?:พ\.\s?ศ\.|ปี|ม\.ค\.|ก\.พ\.|มี\.ค\.|เม\.ย\.|พ\.ค\.|มิ\.ย\.|ก\.ค\.|ส\.ค\.|ก\.ย\.|ต\.ค\.|พ\.ย\.|ธ\.ค\.)\s{0,2}$/;
const priceBefore = /(?:ราคา|price|\$|฿|usd|thb)\s{0,2}$/i;
// Phone numbers: "โทร 1900-123-456", "call 2024-555".
const phoneBefore = /(?:โทร\.?|tel\.?|phone|call|hotline)\s{0,2}:?\s{0,2}$/i;
const phoneAfter = /^-\d{3}(?!\d)/;
const unitAfter = /^\s{0,2}(?:บาท|baht|thb|usd|ดอลลาร์|คน|ราย|ครั้ง|ชิ้น|กม|km|เมตร|ไร่|ล้าน|พัน|หมื่น|แสน|%|ตัว|หน่วย|kwh|gb|mb)/i;

const maxTextLength = 4000;

function isDigit(character: string | undefined): boolean {
  return character !== undefined && character >= '0' && character <= '9';
}

/** True when the digits at [start, end) are part of a longer number such as 1,2024 or 2024.5. */
function isPartOfNumber(text: string, start: number, end: number): boolean {
  if (isDigit(text[start - 1]) || isDigit(text[end])) return true;
  const before = text[start - 1];
  const after = text[end];
  if ((before === '.' || before === ',') && isDigit(text[start - 2])) return true;
  if ((after === '.' || after === ',') && isDigit(text[end + 1])) return true;
  return false;
}

function yearAt(text: string, start: number, digits: string): number | null {
  const value = Number(digits);
  const before = text.slice(Math.max(0, start - 10), start);
  if (digits.length === 2) return shortYearBefore.test(before) ? 2500 + value - buddhistEraOffset : null;
  if (digits.length !== 4) return null;
  if (eraBefore.test(before)) return value >= 2400 && value <= 2700 ? value - buddhistEraOffset : null;
  if (commonEraBefore.test(before)) return value;
  const after = text.slice(start + 4, start + 14);
  if (priceBefore.test(before) || phoneBefore.test(before) || unitAfter.test(after) || phoneAfter.test(after)) return null;
  if (value >= 1900 && value <= 2099) return value;
  if (value >= 2400 && value <= 2699) return value - buddhistEraOffset;
  return null;
}

/** Distinct CE years named in the text, ascending. */
export function extractYears(text: string): number[] {
  const ascii = thaiDigitsToAscii(text.slice(0, maxTextLength));
  const years = new Set<number>();
  for (const match of ascii.matchAll(/\d{2,4}/g)) {
    const start = match.index;
    const digits = match[0];
    if (isPartOfNumber(ascii, start, start + digits.length)) continue;
    const year = yearAt(ascii, start, digits);
    if (year !== null) years.add(year);
  }
  return [...years].sort((left, right) => left - right);
}

/** The calendar year (CE) of a moment in a time zone. */
export function yearIn(moment: Date, timeZone: string): number {
  const text = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric' }).format(moment);
  return Number(thaiDigitsToAscii(text));
}

/** `2026-03-05 (พ.ศ. 2569)`: the date line given to helper prompts. */
export function dateLine(moment: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(moment);
  return `${parts} (CE ${yearIn(moment, timeZone)}, BE ${yearIn(moment, timeZone) + buddhistEraOffset})`;
}
