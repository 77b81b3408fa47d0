import type { QueryIntent } from './query-intent.js';
import type { RejectReason } from './types.js';
import { extractVersions, sameVersionLine } from './versions.js';
import { extractYears } from './years.js';
import { thaiDigitsToAscii } from '../../../src/shared/thai-digits.js';

// Layer 2 hard rejects: a result scores 0 whatever its overlap when it plainly answers a different question.
// Result text is matched by substring (cheap, run 50 times per search); the words are chosen to be safe
// as substrings.

const titlePriceWords = /ราคา|บาท|ค่า|อัตรา|เรท|price|pricing|cost|fee|tariff|rate|\$|฿|€|£|thb|usd|baht|dollar/i;
const deadlineWords = /หมดเขต|ภายในวันที่|ภายใน|ถึงวันที่|สิ้นสุด|วันสุดท้าย|กำหนด|ปิดรับ|เส้นตาย|deadline|due|until|closes|closing|last day|no later than|expires?/i;
const thaiMonths =
  'มกราคม|กุมภาพันธ์|มีนาคม|เมษายน|พฤษภาคม|มิถุนายน|กรกฎาคม|สิงหาคม|กันยายน|ตุลาคม|พฤศจิกายน|ธันวาคม|ม\\.ค\\.|ก\\.พ\\.|มี\\.ค\\.|เม\\.ย\\.|พ\\.ค\\.|มิ\\.ย\\.|ก\\.ค\\.|ส\\.ค\\.|ก\\.ย\\.|ต\\.ค\\.|พ\\.ย\\.|ธ\\.ค\\.';
const englishMonths = 'jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec';
const dateEvidence = new RegExp(
  [
    `\\d{1,2}\\s{0,2}(?:${thaiMonths})`,
    `\\b\\d{1,2}\\s{0,2}(?:${englishMonths})[a-z]{0,7}\\b`,
    `\\b(?:${englishMonths})[a-z]{0,7}\\.?\\s{0,2}\\d{1,2}\\b`,
    '\\b\\d{1,2}[/.-]\\d{1,2}[/.-]\\d{2,4}\\b',
    '\\b\\d{4}-\\d{2}-\\d{2}\\b',
  ].join('|'),
  'i',
);
const strongForecastWords = /คาดการณ์|พยากรณ์|ทำนาย|forecast|prediction|predict|outlook|projection|projected/i;
const titleForecastWords = /แนวโน้ม|คาดว่า|will reach|expected to/i;

function rejectsYear(intent: QueryIntent, text: string): boolean {
  if (intent.years.length === 0) return false;
  const named = extractYears(text);
  return named.length > 0 && !named.some((year) => intent.years.includes(year));
}

function rejectsVersion(intent: QueryIntent, text: string): boolean {
  if (intent.versions.length === 0) return false;
  const named = extractVersions(text);
  return intent.versions.some((wanted) => {
    const sameProduct = named.filter((mention) => mention.product === wanted.product);
    return sameProduct.length > 0 && !sameProduct.some((mention) => sameVersionLine(mention.version, wanted.version));
  });
}

function hasDeadlineEvidence(text: string): boolean {
  const ascii = thaiDigitsToAscii(text);
  return deadlineWords.test(ascii) || dateEvidence.test(ascii);
}

/** The rule that rejects this result, or null. `text` is title + snippet. */
export function hardReject(intent: QueryIntent, title: string, text: string): RejectReason | null {
  if (rejectsYear(intent, text)) return 'year';
  if (rejectsVersion(intent, text)) return 'version';
  if (intent.wantsDeadline && !hasDeadlineEvidence(text)) return 'deadline';
  if (intent.wantsPrice && !titlePriceWords.test(title)) return 'price';
  if (intent.wantsLatest && (strongForecastWords.test(text) || titleForecastWords.test(title))) return 'forecast';
  return null;
}
