import type { Localized } from '../../src/shared/i18n.js';
import { pick } from '../../src/shared/i18n.js';
import type { Language } from '../../src/shared/types.js';
import { englishMonths, thaiMonthAbbreviations, thaiMonths } from './number-context.js';
import { extractFigures, type Figure, type Reading } from './number-figures.js';
import { thaiDigitsToAscii } from '../../src/shared/thai-digits.js';

// Unsupported-numbers guard: the one policy.
//
// Every figure the answer writes with digits (Thai ๐–๙ too) is compared with the figures of this turn's tool
// results, the user's question and the date line (the "support"). A figure is supported when:
//   - any of its readings equals a support figure, where readings are the number as written, times its scale word
//     (พัน หมื่น แสน ล้าน …ล้าน, thousand/million/billion, k/M/B: "1.5 ล้าน" = 1,500,000 = "1,500,000"), and for
//     years both eras (BE = CE + 543 in both directions; a two-digit BE year "พ.ศ. 67" is 2567);
//   - it is the rounding of a support figure to fewer decimals (support 12.46 → "12.5" or "12"); a written figure
//     stands for everything within half a unit of its last digit;
//   - separators and units do not matter (1,234 = 1234; 12.5% = ร้อยละ 12.5 = 12.5 เปอร์เซ็นต์); signs are ignored;
//   - a range ("10-20", "2.5–3%") or a date (15/1/2567, 2025-01-15, "15 มกราคม 2567") needs each of its numbers;
//     month names in the support count as month numbers;
//   - a time (14:30, "14.30 น.") needs the same time; an identifier (version 2.1.0, IP, phone 081-234-5678)
//     needs the same exact form.
// Exempt (never marked): list numbering ("1.", "ข้อ 2", "[3]"), whole numbers ≤ 10 that are not percentages,
// money, dates, times or scaled, numbers inside code spans/blocks, URLs and e-mail addresses, and numbers glued to
// a Latin word (COVID-19, Qwen3, GPT-4: names, not figures). Figures written in words are not checked.
// Derived figures (sums, differences the model computed) are not in the support and are marked.
// An unsupported figure — with its % sign, scale word or currency symbol — is replaced by one marker:
// Thai `[ตัวเลขยังไม่ยืนยัน]`, English `[unconfirmed figure]`. The rest of the sentence stays.

const marker: Localized = { th: '[ตัวเลขยังไม่ยืนยัน]', en: '[unconfirmed figure]' };

export function unconfirmedMarker(language: Language): string {
  return pick(marker, language);
}

export interface Support {
  values: Float64Array;
  keys: Set<string>;
}

const monthPattern = new RegExp(
  [...thaiMonths, ...thaiMonthAbbreviations.map((abbreviation) => abbreviation.replaceAll('.', '\\.')), ...englishMonths.map((month) => `\\b${month}\\b`)].join(
    '|',
  ),
  'gi',
);

function monthNumber(word: string): number {
  const lower = word.toLowerCase();
  const index = [thaiMonths, thaiMonthAbbreviations, englishMonths].map((list) => list.indexOf(lower)).find((found) => found >= 0);
  return (index ?? -1) + 1;
}

/** "08:00–20:00" (an identifier to the scanner) as its two times, `8:00` and `20:00`; null when it is not one. */
export function timeRangeKeys(key: string): string[] | null {
  const sides = key.split(/[-–—]/);
  if (sides.length !== 2) return null;
  const times = sides.map((side) => /^(\d{1,2}):([0-5]\d)$/.exec(side.trim()));
  if (times.some((time) => time === null || Number(time[1]) > 24)) return null;
  return times.map((time) => `${Number(time?.[1])}:${time?.[2] ?? ''}`);
}

/** The figures a turn's answer may use: from tool results, the question and the date line. */
export function buildSupport(texts: readonly string[]): Support {
  const values: number[] = [];
  const keys = new Set<string>();
  for (const text of texts) {
    for (const figure of extractFigures(text)) {
      if (figure.key !== undefined) keys.add(figure.key);
      if (figure.kind === 'identifier' && figure.key !== undefined) timeRangeKeys(figure.key)?.forEach((key) => keys.add(key));
      for (const part of figure.parts) {
        for (const { value } of part) {
          values.push(value);
          // Years in both eras.
          if (Number.isInteger(value) && value >= 1800 && value <= 2300) values.push(value + 543);
          if (Number.isInteger(value) && value >= 2343 && value <= 2843) values.push(value - 543);
        }
      }
      if (figure.kind === 'time' && figure.key) {
        const [hours = '', minutes = ''] = figure.key.split(':');
        values.push(Number(hours), Number(minutes), Number(`${hours}.${minutes}`));
      }
    }
    monthPattern.lastIndex = 0;
    const ascii = thaiDigitsToAscii(text);
    for (let match = monthPattern.exec(ascii); match !== null; match = monthPattern.exec(ascii)) {
      const month = monthNumber(match[0]);
      if (month > 0) values.push(month);
    }
  }
  return { values: Float64Array.from(values).sort(), keys };
}

/** Is there a support value within the reading's tolerance? (binary search over the sorted values) */
function matches(reading: Reading, values: Float64Array): boolean {
  const slack = reading.tolerance + Math.abs(reading.value) * 1e-9;
  const low = reading.value - slack;
  let lowIndex = 0;
  let highIndex = values.length;
  while (lowIndex < highIndex) {
    const middle = (lowIndex + highIndex) >> 1;
    if ((values[middle] ?? 0) < low) lowIndex = middle + 1;
    else highIndex = middle;
  }
  const found = values[lowIndex];
  return found !== undefined && found <= reading.value + slack;
}

export function isSupported(figure: Figure, support: Support): boolean {
  if (figure.exempt) return true;
  if (figure.kind === 'time' || figure.kind === 'identifier') {
    if (figure.key === undefined) return false;
    if (support.keys.has(figure.key)) return true;
    // A time range is supported when both of its times are.
    const times = figure.kind === 'identifier' ? timeRangeKeys(figure.key) : null;
    return times !== null && times.every((key) => support.keys.has(key));
  }
  return figure.parts.every((part) => part.some((candidate) => matches(candidate, support.values)));
}

export interface NumberCheck {
  text: string;
  /** How many figures were replaced by the marker. */
  unsupported: number;
  checked: number;
}

/** Replaces every unsupported figure of `answer` by the marker (see the policy at the top of this file). */
export function markUnsupportedNumbers(answer: string, supportTexts: readonly string[], language: Language): NumberCheck {
  const text = answer.normalize('NFC');
  const figures = extractFigures(text);
  if (figures.length === 0) return { text: answer, unsupported: 0, checked: 0 };
  const support = buildSupport(supportTexts.map((supportText) => supportText.normalize('NFC')));
  const pieces: string[] = [];
  let cursor = 0;
  let unsupported = 0;
  for (const figure of figures) {
    if (isSupported(figure, support) || figure.start < cursor) continue;
    unsupported++;
    pieces.push(text.slice(cursor, figure.start), unconfirmedMarker(language));
    cursor = figure.end;
    // Keep a word that followed the figure apart from the marker.
    if (/^[\p{L}\p{N}]/u.test(text.slice(cursor, cursor + 1))) pieces.push(' ');
  }
  pieces.push(text.slice(cursor));
  return { text: unsupported === 0 ? answer : pieces.join(''), unsupported, checked: figures.length };
}
