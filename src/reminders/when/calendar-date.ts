import { Claims, extendBack, freeMatches, matchAt } from './text-claims.js';
import { compareDates, isValidDate, type CivilDate } from './zoned-time.js';

// Dates written out: "25 ธ.ค.", "25 ธันวาคม 2569", "25 ธ.ค. 69", "25/12/2569", "25/12", "2026-12-25",
// "25 December 2026", "Dec 25", "วันที่ 25", "the 25th".
// Years: above 2400 a Buddhist-Era year (2569 → 2026); a two-digit year is the BE short form in Thai text (69 → 2569
// → 2026) and CE in English (26 → 2026). Numbers with slashes are day first, as Thailand writes them.
// Without a year, the date's next coming: this year's if that day is today or later, else next year's. A day of the
// month alone is this month's if not yet gone, else the first later month that has it. A day that does not exist
// (31 ก.พ., 29 Feb 2027) is kept as invalid: the bot says so instead of moving it.

export interface FoundDate {
  start: number;
  end: number;
  date: CivilDate;
  valid: boolean;
  /** The weekday said with it (0 = Sunday), when one was. */
  saidWeekday?: number;
}

const thaiMonthDay =
  /(\d{1,2})\s?(มกราคม|มกรา|ม\.?ค\.?|กุมภาพันธ์|กุมภา|ก\.?พ\.?|มีนาคม|มีนา|มี\.?ค\.?|เมษายน|เมษา|เม\.?ย\.?|พฤษภาคม|พฤษภา|พ\.?ค\.?|มิถุนายน|มิถุนา|มิ\.?ย\.?|กรกฎาคม|กรกฎา|ก\.?ค\.?|สิงหาคม|สิงหา|ส\.?ค\.?|กันยายน|กันยา|ก\.?ย\.?|ตุลาคม|ตุลา|ต\.?ค\.?|พฤศจิกายน|พฤศจิกา|พ\.?ย\.?|ธันวาคม|ธันวา|ธ\.?ค\.?)/g;
const englishDayMonth =
  /(\d{1,2})(?:st|nd|rd|th)?\s*(?:of\s+)?(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\b\.?/g;
const englishMonthDay =
  /\b(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\.?\s*(\d{1,2})(?:st|nd|rd|th)?(?![\d:a-z])/g;
const slashed = /(\d{1,2})\/(\d{1,2})(?:\/(\d{4}|\d{2}))?(?![\d/])/g;
const iso = /(\d{4})-(\d{1,2})-(\d{1,2})(?!\d)/g;
const dayOnly = /วันที่\s?(\d{1,2})(?![\d/:.])|\bthe\s+(\d{1,2})(?:st|nd|rd|th)\b/g;

const yearAfterThaiMonth = /\s?(?:(พ\.?\s?ศ\.?|ค\.?\s?ศ\.?)\s?)?(\d{4}|\d{2})(?!\d)/y;
const yearAfterEnglishMonth = /,?\s*(\d{4})(?!\d)/y;
const spaces = /\s*/y;

const thaiAbbreviations: Record<string, number> = { มค: 1, กพ: 2, มีค: 3, เมย: 4, พค: 5, มิย: 6, กค: 7, สค: 8, กย: 9, ตค: 10, พย: 11, ธค: 12 };
const thaiMonths = ['มกรา', 'กุมภา', 'มีนา', 'เมษา', 'พฤษภา', 'มิถุนา', 'กรกฎา', 'สิงหา', 'กันยา', 'ตุลา', 'พฤศจิกา', 'ธันวา'];
const englishMonths = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const before = ['ภายในวันที่', 'วันที่', 'ภายใน', 'ใน', 'ตอน', 'on the', 'on', 'by'];
// A weekday said with the date ("วันจันทร์ที่ 14 ธ.ค.", "Monday, 14 December") belongs to it; when the date falls
// on another weekday, parse-when asks which was meant. Indexes from Sunday (0), as Date#getUTCDay.
const thaiWeekdayNames = ['อาทิตย์', 'จันทร์', 'อังคาร', 'พุธ', 'พฤหัสบดี', 'ศุกร์', 'เสาร์'];
const englishWeekdayNames = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const weekdayWords = [
  ...thaiWeekdayNames.flatMap((day, weekday) => [`วัน${day}ที่`, `วัน${day}`, `${day}ที่`].map((word) => ({ word, weekday }))),
  ...['วันพฤหัสที่', 'วันพฤหัส', 'พฤหัสที่'].map((word) => ({ word, weekday: 4 })),
  ...englishWeekdayNames.flatMap((day, weekday) => [`${day},`, day].map((word) => ({ word, weekday }))),
  // Longest first: "วันพฤหัสบดีที่" before "วันพฤหัส", which extendBack would otherwise take as a part.
].sort((a, b) => b.word.length - a.word.length);
const weekdaysBefore = weekdayWords.map(({ word }) => word);

/** The weekday of the word that ends at `end` (taken by extendBack), if one does. */
function weekdayEndingAt(text: string, from: number, end: number): number | undefined {
  const said = text.slice(from, end).trimEnd();
  return weekdayWords.find(({ word }) => said === word)?.weekday;
}

function thaiMonthOf(word: string): number {
  const bare = word.replaceAll('.', '');
  return thaiAbbreviations[bare] ?? thaiMonths.findIndex((name) => bare.startsWith(name)) + 1;
}

function englishMonthOf(word: string): number {
  return englishMonths.indexOf(word.slice(0, 3)) + 1;
}

/** A written year as CE; `era` 'be' / 'ce' when "พ.ศ." / "ค.ศ." said which. */
export function yearFromText(digits: string, thai: boolean, era?: 'be' | 'ce'): number {
  const value = Number(digits);
  if (digits.length <= 2) return thai ? 2500 + value - 543 : 2000 + value;
  if (era === 'be' || (era === undefined && value > 2400)) return value - 543;
  return value;
}

/** A year is not one when a clock follows it: "25 ธ.ค. 10 โมง", "Dec 25 10:30". */
function isClockAfter(text: string, end: number): boolean {
  const next = text.charAt(end);
  if (next === ':' || (next === '.' && /[0-9]/.test(text.charAt(end + 1)))) return true;
  const gap = matchAt(spaces, text, end)?.[0].length ?? 0;
  const rest = text.slice(end + gap, end + gap + 7);
  return ['โมง', 'ทุ่ม', 'นาฬิกา', 'น.', 'am', 'pm', 'a.m', 'p.m', "o'clock", 'oclock'].some((word) => rest.startsWith(word));
}

function readYear(text: string, at: number, regex: RegExp, thai: boolean): { year: number; end: number } | undefined {
  const match = matchAt(regex, text, at);
  const digits = match?.[match.length - 1];
  if (!match || digits === undefined) return undefined;
  const end = at + match[0].length;
  if (isClockAfter(text, end)) return undefined;
  const eraWord = regex === yearAfterThaiMonth ? match[1] : undefined;
  const era = eraWord === undefined ? undefined : eraWord.startsWith('พ') ? 'be' : 'ce';
  return { year: yearFromText(digits, thai, era), end };
}

/** This year's day if not yet gone, else next year's. */
function comingYear(month: number, day: number, today: CivilDate): number {
  return month > today.month || (month === today.month && day >= today.day) ? today.year : today.year + 1;
}

function found(start: number, end: number, year: number, month: number, day: number): FoundDate {
  const date = { year, month, day };
  return { start, end, date, valid: year >= 1900 && year <= 9999 && isValidDate(date) };
}

/** Every written date, in text order; each is claimed. */
export function findCalendarDates(text: string, thai: boolean, today: CivilDate, claims: Claims): FoundDate[] {
  const dates: FoundDate[] = [];
  const take = (start: number, end: number, year: number | undefined, month: number, day: number): void => {
    if (month < 1 || month > 12 || day < 1 || day > 31 || !claims.isFree(start, end)) return;
    const beforeWeekday = extendBack(text, start, before, claims);
    const withWeekday = extendBack(text, beforeWeekday, weekdaysBefore, claims);
    const from = extendBack(text, withWeekday, before, claims);
    claims.claim(from, end);
    const date = found(from, end, year ?? comingYear(month, day, today), month, day);
    const saidWeekday = withWeekday < beforeWeekday ? weekdayEndingAt(text, withWeekday, beforeWeekday) : undefined;
    dates.push(saidWeekday === undefined ? date : { ...date, saidWeekday });
  };
  const notAfterDigit = (index: number) => !/[0-9]/.test(text.charAt(index - 1));
  for (const match of freeMatches(iso, text, claims)) {
    if (notAfterDigit(match.index)) take(match.index, match.index + match[0].length, Number(match[1]), Number(match[2]), Number(match[3]));
  }
  for (const match of freeMatches(slashed, text, claims)) {
    if (!notAfterDigit(match.index) || text.charAt(match.index - 1) === '/') continue;
    const year = match[3] === undefined ? undefined : yearFromText(match[3], thai);
    take(match.index, match.index + match[0].length, year, Number(match[2]), Number(match[1]));
  }
  for (const match of freeMatches(thaiMonthDay, text, claims)) {
    if (!notAfterDigit(match.index)) continue;
    const end = match.index + match[0].length;
    const year = readYear(text, end, yearAfterThaiMonth, thai);
    take(match.index, year?.end ?? end, year?.year, thaiMonthOf(match[2] ?? ''), Number(match[1]));
  }
  for (const [regex, dayGroup, monthGroup] of [
    [englishDayMonth, 1, 2],
    [englishMonthDay, 2, 1],
  ] as const) {
    for (const match of freeMatches(regex, text, claims)) {
      if (!notAfterDigit(match.index)) continue;
      const end = match.index + match[0].length;
      const year = readYear(text, end, yearAfterEnglishMonth, thai);
      take(match.index, year?.end ?? end, year?.year, englishMonthOf(match[monthGroup] ?? ''), Number(match[dayGroup]));
    }
  }
  for (const match of freeMatches(dayOnly, text, claims)) {
    const day = Number(match[1] ?? match[2]);
    const month = comingMonthWith(day, today);
    if (month) take(match.index, match.index + match[0].length, month.year, month.month, day);
  }
  return dates.sort((a, b) => a.start - b.start);
}

/** The first month from this one in which `day` exists and is not before today. */
function comingMonthWith(day: number, today: CivilDate): { year: number; month: number } | undefined {
  if (day < 1 || day > 31) return undefined;
  for (let step = 0; step < 13; step++) {
    const month0 = today.month - 1 + step;
    const candidate = { year: today.year + Math.floor(month0 / 12), month: (month0 % 12) + 1, day };
    if (isValidDate(candidate) && compareDates(candidate, today) >= 0) return candidate;
  }
  return undefined;
}
