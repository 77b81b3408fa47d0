import { Claims, extendBack, freeMatches, matchAt } from './text-claims.js';

// Durations from now: "อีก 30 นาที", "อีกครึ่งชั่วโมง", "อีกชั่วโมงครึ่ง", "อีก 1 ชั่วโมง 30 นาที", "ใน 5 นาที",
// "10 นาทีข้างหน้า"; "in 30 minutes", "in an hour", "in half an hour", "in 2 hours and 15 minutes",
// "20 minutes from now". Minutes and hours give an exact instant. Days and weeks ("อีก 3 วัน", "in 2 days") name a
// day, not an instant: the time of day must still be said, as for "มะรืนนี้".

export interface FoundDuration {
  start: number;
  end: number;
  minutes: number;
  days: number;
}

const thaiDuration = /(?:อีก|ใน)\s?(?:สัก\s?|ประมาณ\s?)?(?:(\d{1,4})\s?|(ครึ่ง)\s?)?(นาที|ชั่วโมง|ชม\.?|วัน|สัปดาห์|อาทิตย์)(\s?ครึ่ง)?/g;
const thaiFromNow = /(\d{1,4})\s?(นาที|ชั่วโมง|ชม\.?)\s?(?:ข้างหน้า|ต่อจากนี้|จากนี้)/g;
const englishDuration = /\bin\s+(?:(\d{1,4})|(an?|one)|(half)\s+an?)\s+(minutes?|mins?|hours?|hrs?|days?|weeks?)\b/g;
const englishFromNow = /\b(\d{1,4})\s+(minutes?|mins?|hours?|hrs?)\s+from\s+now\b/g;

const thaiMoreMinutes = /\s?(?:กับ\s?|และ\s?)?(\d{1,2})\s?นาที/y;
const thaiOneAfterUnit = /\s?1(?!\d)/y;
const thaiAhead = /\s?(?:ข้างหน้า|ต่อจากนี้|จากนี้)/y;
const englishHalf = /\s+and\s+a\s+half\b/y;
const englishMoreMinutes = /,?\s+(?:and\s+)?(\d{1,2})\s+(?:minutes?|mins?)\b/y;

type Unit = 'minute' | 'hour' | 'day' | 'week';

function unitOf(word: string): Unit {
  if (word.startsWith('นาที') || word.startsWith('min')) return 'minute';
  if (word.startsWith('ชั่วโมง') || word.startsWith('ชม') || word.startsWith('h')) return 'hour';
  if (word.startsWith('วัน') || word.startsWith('day')) return 'day';
  return 'week';
}

function amount(count: number, unit: Unit, extraMinutes: number): { minutes: number; days: number } {
  switch (unit) {
    case 'minute':
      return { minutes: Math.round(count), days: 0 };
    case 'hour':
      return { minutes: Math.round(count * 60) + extraMinutes, days: 0 };
    case 'day':
      return { minutes: 0, days: Math.round(count) };
    case 'week':
      return { minutes: 0, days: Math.round(count * 7) };
  }
}

/** Follows a sticky regex from `end` while it matches free text; returns the new end and the match. */
function extend(text: string, end: number, regex: RegExp, claims: Claims): { end: number; match?: RegExpExecArray } {
  const match = matchAt(regex, text, end);
  if (!match || !claims.isFree(end, end + match[0].length)) return { end };
  return { end: end + match[0].length, match };
}

export function findDurations(text: string, claims: Claims): FoundDuration[] {
  const found: FoundDuration[] = [];
  const push = (start: number, end: number, value: { minutes: number; days: number }): void => {
    if (value.minutes <= 0 && value.days <= 0) return;
    const from = extendBack(text, start, ['ภาย'], claims);
    claims.claim(from, end);
    found.push({ start: from, end, ...value });
  };
  for (const match of freeMatches(thaiDuration, text, claims)) {
    const [, digits, half, unitWord = '', halfAfter] = match;
    const unit = unitOf(unitWord);
    // "ในวันจันทร์", "อีกวัน" (another day) are not durations: only hours may go without a number.
    if (digits === undefined && half === undefined && unit !== 'hour') continue;
    let end = match.index + match[0].length;
    let count = half !== undefined ? 0.5 : Number(digits ?? 1);
    if (digits === undefined && half === undefined) end = extend(text, end, thaiOneAfterUnit, claims).end;
    if (halfAfter !== undefined) count += 0.5;
    const more = unit === 'hour' && halfAfter === undefined ? extend(text, end, thaiMoreMinutes, claims) : { end };
    end = extend(text, more.end, thaiAhead, claims).end;
    push(match.index, end, amount(count, unit, Number(more.match?.[1] ?? 0)));
  }
  for (const match of freeMatches(thaiFromNow, text, claims)) {
    push(match.index, match.index + match[0].length, amount(Number(match[1]), unitOf(match[2] ?? ''), 0));
  }
  for (const match of freeMatches(englishDuration, text, claims)) {
    const [, digits, one, half, unitWord = ''] = match;
    const unit = unitOf(unitWord);
    let count = half !== undefined ? 0.5 : one !== undefined ? 1 : Number(digits);
    let end = match.index + match[0].length;
    const halfMore = extend(text, end, englishHalf, claims);
    if (halfMore.match) count += 0.5;
    const more = unit === 'hour' && !halfMore.match ? extend(text, halfMore.end, englishMoreMinutes, claims) : { end: halfMore.end };
    end = more.end;
    push(match.index, end, amount(count, unit, Number(more.match?.[1] ?? 0)));
  }
  for (const match of freeMatches(englishFromNow, text, claims)) {
    push(match.index, match.index + match[0].length, amount(Number(match[1]), unitOf(match[2] ?? ''), 0));
  }
  return found.sort((a, b) => a.start - b.start);
}
