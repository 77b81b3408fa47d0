import type { PartOfDay } from './time-of-day.js';
import { Claims, extendBack, freeMatches } from './text-claims.js';
import type { Recurrence } from './when-types.js';

// Days said in words: วันนี้, พรุ่งนี้, มะรืน(นี้), เมื่อวาน, คืนนี้; today, tomorrow, tonight, yesterday; weekdays;
// vague periods (สัปดาห์หน้า, next week, เดือนหน้า); and recurrences (ทุกวัน, ทุกวันธรรมดา, ทุกวันจันทร์, every
// Monday, weekdays).
//
// A weekday ("วันศุกร์", "ศุกร์นี้", "Friday", "this Friday") is the first such day AFTER today: on a Friday,
// "วันศุกร์" is next week's (today is said "วันนี้"). "วันศุกร์หน้า", "ศุกร์สัปดาห์หน้า", "next Friday" are that
// weekday in next week, weeks running Monday to Sunday: on Monday 7 Dec "ศุกร์นี้" is 11 Dec and "ศุกร์หน้า" 18 Dec;
// on Saturday 12 Dec both are 18 Dec. "อาทิตย์" without "วัน" before "หน้า/นี้" is the week, not Sunday; a bare
// "จันทร์" or "อาทิตย์" (moon, sun) is a weekday only after วัน or ทุก or before หน้า/นี้.
// A recurrence is one rule: "ทุกวันจันทร์และพฤหัส" is read as every Monday (the rest stays in the subject), and
// midnight with "ทุกวันธรรมดา" is 00:00 of Monday to Friday (with a weekly day it is the night after that day).

export interface FoundDay {
  start: number;
  end: number;
  /** Days from today; negative for yesterday. */
  offset: number;
  part?: PartOfDay;
}

export interface FoundWeekday {
  start: number;
  end: number;
  weekday: number;
  nextWeek: boolean;
}

export interface FoundPeriod {
  start: number;
  end: number;
}

export interface FoundRecurrence {
  start: number;
  end: number;
  /** Undefined for "every week" without a day: too vague to schedule. */
  recurrence?: Recurrence;
  part?: PartOfDay;
}

const relativeDay =
  /มะรืนนี้|มะรืน|พรุ่งนี้|วันนี้|เมื่อวานซืน|เมื่อวานนี้|เมื่อวาน|คืนนี้|เย็นนี้|ค่ำนี้|บ่ายนี้|เช้านี้|ดึกนี้|\b(?:the\s+)?day\s+after\s+tomorrow\b|\btomorrow\b|\btmrw?\b|\btoday\b|\btonight\b|\byesterday\b|\bthis\s+(?:morning|afternoon|evening)\b/g;
const thaiWeekday = /(วัน)?(จันทร์|อังคาร|พุธ|พฤหัสบดี|พฤหัส|ศุกร์|เสาร์|อาทิตย์)(\s?(?:หน้า|สัปดาห์หน้า|อาทิตย์หน้า|วีคหน้า|นี้|ที่จะถึง))?/g;
const englishWeekday = /\b(?:(next|this|coming)\s+)?(monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b(\s+next\s+week)?/g;
const vaguePeriod = /สัปดาห์หน้า|อาทิตย์หน้า|วีคหน้า|เดือนหน้า|ปีหน้า|\bnext\s+(?:week|month|year)\b/g;

const everyWorkingDay =
  /ทุก\s?(?:วัน\s?)?(?:จันทร์\s?(?:ถึง|-|–)\s?(?:วัน)?ศุกร์|ธรรมดา|ทำงาน)|(?:วัน)?จันทร์\s?(?:ถึง|-|–)\s?(?:วัน)?ศุกร์|\bevery\s+(?:weekday|work\s?day)\b|\bweekdays\b|\bmonday\s+(?:to|through|-|–)\s+friday\b/g;
const everyWeekday =
  /ทุก\s?(วัน\s?)?(จันทร์|อังคาร|พุธ|พฤหัสบดี|พฤหัส|ศุกร์|เสาร์|อาทิตย์)|\bevery\s+(monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b|\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday)s\b/g;
const everyDay = /ทุก\s?วัน|ทุก\s?(เช้า|เย็น|ค่ำ|คืน)|\bevery\s?day\b|\bdaily\b|\bevery\s+(morning|afternoon|evening|night)\b/g;
const everyWeek = /ทุก\s?(?:สัปดาห์|วีค|เดือน)|\bevery\s+(?:week|month)\b|\bweekly\b|\bmonthly\b/g;

const thaiDays: Record<string, number> = { อาทิตย์: 0, จันทร์: 1, อังคาร: 2, พุธ: 3, พฤหัส: 4, พฤหัสบดี: 4, ศุกร์: 5, เสาร์: 6 };
const englishDays = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const dayBefore = ['ภายใน', 'ใน', 'ตอน', 'on', 'by', 'within'];

const relativeDays: Record<string, { offset: number; part?: PartOfDay }> = {
  มะรืนนี้: { offset: 2 },
  มะรืน: { offset: 2 },
  พรุ่งนี้: { offset: 1 },
  วันนี้: { offset: 0 },
  เมื่อวานซืน: { offset: -2 },
  เมื่อวานนี้: { offset: -1 },
  เมื่อวาน: { offset: -1 },
  คืนนี้: { offset: 0, part: 'night' },
  เย็นนี้: { offset: 0, part: 'evening' },
  ค่ำนี้: { offset: 0, part: 'evening' },
  บ่ายนี้: { offset: 0, part: 'afternoon' },
  เช้านี้: { offset: 0, part: 'morning' },
  ดึกนี้: { offset: 0, part: 'night' },
  tomorrow: { offset: 1 },
  tmr: { offset: 1 },
  tmrw: { offset: 1 },
  today: { offset: 0 },
  tonight: { offset: 0, part: 'night' },
  yesterday: { offset: -1 },
};

function partOfWord(word: string | undefined): PartOfDay | undefined {
  if (word === undefined) return undefined;
  if (word === 'เช้า' || word === 'morning') return 'morning';
  if (word === 'afternoon') return 'afternoon';
  return word === 'เย็น' || word === 'ค่ำ' || word === 'evening' ? 'evening' : 'night';
}

export function findRelativeDays(text: string, claims: Claims): FoundDay[] {
  return freeMatches(relativeDay, text, claims).map((match) => {
    const word = match[0];
    const known = relativeDays[word];
    const meaning = known ?? (word.includes('after') ? { offset: 2 } : { offset: 0, part: partOfWord(word.split(/\s+/).pop()) });
    const start = extendBack(text, match.index, dayBefore, claims);
    const end = match.index + word.length;
    claims.claim(start, end);
    return { start, end, ...meaning };
  });
}

export function findWeekdays(text: string, claims: Claims): FoundWeekday[] {
  const found: FoundWeekday[] = [];
  for (const match of freeMatches(thaiWeekday, text, claims)) {
    const [, wan, name = '', suffix] = match;
    const after = suffix?.trim();
    if (wan === undefined) {
      const godly = ['พระ', 'ดวง', 'แสง'].some((word) => text.slice(0, match.index).endsWith(word));
      if (godly || (name === 'อาทิตย์' && after !== undefined) || ((name === 'อาทิตย์' || name === 'จันทร์') && after === undefined)) continue;
    }
    const nextWeek = after !== undefined && after !== 'นี้' && after !== 'ที่จะถึง';
    found.push(claimed(text, match, claims, { weekday: thaiDays[name] ?? 0, nextWeek }));
  }
  for (const match of freeMatches(englishWeekday, text, claims)) {
    const nextWeek = match[1] === 'next' || match[3] !== undefined;
    found.push(claimed(text, match, claims, { weekday: englishDays.indexOf(match[2] ?? ''), nextWeek }));
  }
  return found.sort((a, b) => a.start - b.start);
}

function claimed<T extends object>(text: string, match: RegExpExecArray, claims: Claims, value: T): T & FoundPeriod {
  const start = extendBack(text, match.index, dayBefore, claims);
  const end = match.index + match[0].length;
  claims.claim(start, end);
  return { start, end, ...value };
}

export function findVaguePeriods(text: string, claims: Claims): FoundPeriod[] {
  return freeMatches(vaguePeriod, text, claims).map((match) => claimed(text, match, claims, {}));
}

/** Recurrences, in text order; the most specific pattern first so "ทุกวันจันทร์" is not read as "ทุกวัน". */
export function findRecurrences(text: string, claims: Claims): FoundRecurrence[] {
  const found: FoundRecurrence[] = [];
  for (const match of freeMatches(everyWorkingDay, text, claims)) found.push(claimed(text, match, claims, { recurrence: { kind: 'weekdays' } }));
  for (const match of freeMatches(everyWeekday, text, claims)) {
    const [, wan, thaiName, everyName, pluralName] = match;
    // "ทุกอาทิตย์" is every week; "ทุกวันอาทิตย์" every Sunday.
    if (thaiName === 'อาทิตย์' && wan === undefined) {
      found.push(claimed(text, match, claims, {}));
      continue;
    }
    const weekday = thaiName !== undefined ? (thaiDays[thaiName] ?? 0) : englishDays.indexOf(everyName ?? pluralName ?? '');
    found.push(claimed(text, match, claims, { recurrence: { kind: 'weekly', weekday } }));
  }
  for (const match of freeMatches(everyDay, text, claims)) {
    const part = partOfWord(match[1] ?? match[2]);
    found.push(claimed(text, match, claims, part ? { recurrence: { kind: 'daily' }, part } : { recurrence: { kind: 'daily' } }));
  }
  for (const match of freeMatches(everyWeek, text, claims)) found.push(claimed(text, match, claims, {}));
  return found.sort((a, b) => a.start - b.start);
}
