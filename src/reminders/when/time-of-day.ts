import { Claims, extendBack, freeMatches, matchAt } from './text-claims.js';

// Clock times in Thai and English, read from the prepared text (digits only; see prepared-text.ts).
//
// The Thai six-hour clock: ตีหนึ่ง…ตีห้า 01–05; N โมงเช้า N (06–11); เจ็ดโมง…สิบเอ็ดโมง without a part of day are the
// morning (07–11), สิบสองโมง and เที่ยง(วัน) 12; บ่ายโมง 13, บ่ายสอง(โมง) / บ่าย 2 14 … บ่ายห้า 17; N โมงเย็น / ค่ำ
// 12+N (สี่โมงเย็น 16, หกโมงเย็น 18); N ทุ่ม / ทุ่มN 18+N (หนึ่งทุ่ม 19 … ห้าทุ่ม 23); หกทุ่ม and เที่ยงคืน are
// midnight, 00:00 at the END of the day named ("พรุ่งนี้เที่ยงคืน" is the night between tomorrow and the day after).
// ครึ่ง is :30, "X โมง Y (นาที)" X:Y. A bare "1 โมง" … "6 โมง" could be either half of the day (บ่ายโมง or ตีหนึ่ง,
// หกโมงเช้า or หกโมงเย็น): ambiguous unless a part of day (เช้า, บ่าย, เย็น, ค่ำ, กลางคืน, ดึก; morning, evening…)
// appears in the message.
// Figures: "21:00", "9.30 น.", "21 นาฬิกา", "09:30" (a leading zero) are the 24-hour clock as written, and so is a
// bare "H:MM" from 7:00 to 12:59, in both languages (how Thailand writes times: an evening 7:30 is written 19:30);
// "1:30"…"6:59" without น., am/pm or a part of day are ambiguous.
// English: "9am", "9:30 pm", "noon", "midnight"; "at 7" / "7 o'clock" without am/pm is ambiguous for 1–11 ("at 12"
// is noon, "at 15" 15:00).

export type PartOfDay = 'morning' | 'afternoon' | 'evening' | 'night';

export interface ClockTime {
  start: number;
  end: number;
  hour: number;
  minute: number;
  /** Either half of the day: `hour` (1–11) is the morning reading, `hour + 12` the other. */
  ambiguous: boolean;
  /** Midnight: 00:00 of the day after the day named. */
  nextDay: boolean;
}

type Shape = 'ampm' | 'ti' | 'bai' | 'mong' | 'thum' | 'noon' | 'figures' | 'nalika' | 'at' | 'oclock';

const patterns: readonly (readonly [Shape, RegExp])[] = [
  ['ampm', /(\d{1,2})(?:[:.](\d{2}))?\s?(a\.?m\.?|p\.?m\.?)(?![a-z])/g],
  ['ti', /ตี\s?(\d{1,2})(?!\d)/g],
  ['bai', /บ่าย\s?(?:(\d{1,2})(?!\d)(\s?โมง)?|โมง)/g],
  ['mong', /(\d{1,2})\s?โมง(?:\s?(เช้า|เย็น|ค่ำ|ตรง))?/g],
  ['thum', /(\d{1,2})\s?ทุ่ม|ทุ่ม\s?(\d)(?!\d)|ทุ่ม(?=\s?ครึ่ง)/g],
  ['noon', /เที่ยงคืน|เที่ยง(?:วัน)?(?:\s?ตรง)?|\bnoon\b|\bmidday\b|\bmidnight\b/g],
  ['figures', /(\d{1,2})[:.](\d{2})(?![\d:./])(\s?(?:น\.|นาฬิกา))?/g],
  ['nalika', /(\d{1,2})\s?นาฬิกา/g],
  ['at', /\b(?:at|around|by)\s+(\d{1,2})(?![\d:./])(?:\s?o'?clock)?/g],
  ['oclock', /(\d{1,2})\s?o'?clock/g],
];

const before = ['ตอน', 'เวลา', 'ราว', 'ประมาณ', 'at', 'around', 'by'];
const notAfterFigures = ['บาท', '%', 'ล้าน', 'เปอร์', 'baht', 'kg', 'km', 'กม', 'กก', 'ลิตร', 'คน', 'ครั้ง'];
const notAfterBareMinutes = [
  'คน',
  'บาท',
  'ครั้ง',
  'ชิ้น',
  'วัน',
  'ที่',
  'ปี',
  'เดือน',
  'ชั่วโมง',
  'ชม',
  'ห้อง',
  '/',
  '.',
  ':',
  'ม.',
  'ก.',
  'มี',
  'เม',
  'มิ',
  'พ.',
  'ส.',
  'ต.',
  'ธ.',
];

const halfHour = /\s?ครึ่ง/y;
const minutesWithUnit = /\s?(\d{1,2})\s?นาที/y;
const minutesAfterFigure = /[:.](\d{2})(?!\d)/y;
const bareMinutes = /\s?(\d{1,2})(?!\d)/y;
const spaces = /\s*/y;

/** Every clock time in the text, first in the text first; each is claimed. */
export function findClockTimes(text: string, claims: Claims): ClockTime[] {
  const found: ClockTime[] = [];
  for (const [shape, regex] of patterns) {
    for (const match of freeMatches(regex, text, claims)) {
      if (/[0-9]/.test(text.charAt(match.index - 1)) || !claims.isFree(match.index, match.index + match[0].length)) continue;
      let end = match.index + match[0].length;
      if (shape === 'figures' && followedBy(text, end, notAfterFigures)) continue;
      // ข้าวเที่ยง, มื้อเที่ยง: lunch, not noon.
      if (shape === 'noon' && ['ข้าว', 'มื้อ'].some((meal) => text.slice(0, match.index).trimEnd().endsWith(meal))) continue;
      const reading = readShape(shape, match);
      if (!reading) continue;
      if (shape === 'ti' || shape === 'bai' || shape === 'mong' || shape === 'thum' || (shape === 'noon' && !reading.nextDay)) {
        const minutes = readMinutes(text, end, shape === 'mong' || shape === 'thum' || shape === 'bai', claims);
        if (minutes) {
          reading.minute = minutes.minute;
          end = minutes.end;
        }
      }
      const start = extendBack(text, match.index, before, claims);
      claims.claim(start, end);
      found.push({ start, end, ...reading });
    }
  }
  return found.sort((a, b) => a.start - b.start);
}

type Reading = Omit<ClockTime, 'start' | 'end'>;

function exact(hour: number, minute = 0): Reading | undefined {
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59) return undefined;
  return { hour, minute, ambiguous: false, nextDay: false };
}

function either(hour: number, minute = 0): Reading | undefined {
  if (minute < 0 || minute > 59) return undefined;
  return { hour, minute, ambiguous: true, nextDay: false };
}

const midnight: Reading = { hour: 0, minute: 0, ambiguous: false, nextDay: true };

function readShape(shape: Shape, match: RegExpExecArray): Reading | undefined {
  const first = Number(match[1] ?? Number.NaN);
  const second = Number(match[2] ?? 0);
  switch (shape) {
    case 'ampm': {
      if (first < 1 || first > 12) return undefined;
      const pm = (match[3] ?? '').startsWith('p');
      return exact((first % 12) + (pm ? 12 : 0), second);
    }
    case 'ti':
      return first >= 1 && first <= 5 ? exact(first) : undefined;
    case 'bai':
      if (match[1] === undefined) return exact(13);
      if (first >= 1 && first <= 5) return exact(12 + first);
      return first >= 13 && first <= 17 ? exact(first) : undefined;
    case 'mong':
      return readMong(first, match[2]);
    case 'thum': {
      const count = match[1] !== undefined ? first : match[2] !== undefined ? second : 1;
      if (count === 6) return { ...midnight };
      return count >= 1 && count <= 5 ? exact(18 + count) : undefined;
    }
    case 'noon':
      return match[0].startsWith('เที่ยงคืน') || match[0] === 'midnight' ? { ...midnight } : exact(12);
    case 'figures':
      return readFigures(match, first, second);
    case 'nalika':
      return exact(first);
    case 'at':
    case 'oclock':
      if (first >= 13 || first === 0) return exact(first);
      return first === 12 ? exact(12) : first >= 1 ? either(first) : undefined;
  }
}

function readMong(hour: number, part: string | undefined): Reading | undefined {
  if (hour >= 13) return exact(hour);
  if (hour < 1) return undefined;
  if (part === 'เช้า') return exact(hour % 12);
  if (part === 'เย็น' || part === 'ค่ำ') return exact(hour === 12 ? 12 : hour + 12);
  if (hour >= 7) return exact(hour);
  return either(hour);
}

function readFigures(match: RegExpExecArray, hour: number, minute: number): Reading | undefined {
  const written24 = match[3] !== undefined || (match[1] ?? '').startsWith('0') || hour === 0 || hour >= 7;
  return written24 ? exact(hour, minute) : either(hour, minute);
}

function readMinutes(text: string, at: number, bareAllowed: boolean, claims: Claims): { minute: number; end: number } | undefined {
  const tries: [RegExp, boolean][] = [
    [halfHour, true],
    [minutesWithUnit, true],
    [minutesAfterFigure, /[0-9]/.test(text.charAt(at - 1))],
    [bareMinutes, bareAllowed],
  ];
  for (const [regex, allowed] of tries) {
    if (!allowed) continue;
    const match = matchAt(regex, text, at);
    if (!match) continue;
    const end = at + match[0].length;
    const minute = regex === halfHour ? 30 : Number(match[1]);
    if (minute > 59 || !claims.isFree(at, end)) continue;
    if (regex === bareMinutes && followedBy(text, end, notAfterBareMinutes)) continue;
    return { minute, end };
  }
  return undefined;
}

function followedBy(text: string, at: number, words: readonly string[]): boolean {
  const gap = matchAt(spaces, text, at)?.[0].length ?? 0;
  const rest = text.slice(at + gap, at + gap + 8);
  return words.some((word) => rest.startsWith(word));
}

const hintPattern = /เช้า|บ่าย|เย็น|ค่ำ|กลางคืน|ดึก|\b(?:morning|afternoon|evening|night)\b/g;
const hintBefore = ['ตอน', 'ช่วง', 'in the', 'at', 'this'];
const coldBefore = ['น้ำ', 'ตู้', 'ใจ', 'อากาศ', 'ห้อง', 'ความ', 'ของ'];

export interface FoundPart {
  start: number;
  end: number;
  part: PartOfDay;
}

/** Words that say which half of the day ("เย็นนี้" and "tonight" are days: day-words.ts). */
export function findPartsOfDay(text: string, claims: Claims): FoundPart[] {
  const found: FoundPart[] = [];
  for (const match of freeMatches(hintPattern, text, claims)) {
    // น้ำเย็น, ตู้เย็น, ใจเย็น, อากาศเย็น: cold or calm, not the evening.
    if (match[0] === 'เย็น' && coldBefore.some((word) => text.slice(0, match.index).endsWith(word))) continue;
    const word = match[0];
    const part: PartOfDay =
      word === 'เช้า' || word === 'morning'
        ? 'morning'
        : word === 'บ่าย' || word === 'afternoon'
          ? 'afternoon'
          : word === 'เย็น' || word === 'ค่ำ' || word === 'evening'
            ? 'evening'
            : 'night';
    const start = extendBack(text, match.index, hintBefore, claims);
    const end = match.index + word.length;
    claims.claim(start, end);
    found.push({ start, end, part });
  }
  return found;
}

/** An am/pm-ambiguous time read with a part of day; night before 5 is the small hours after midnight. */
export function withPartOfDay(time: ClockTime, part: PartOfDay | undefined): ClockTime {
  if (!time.ambiguous || part === undefined) return time;
  if (part === 'morning') return { ...time, ambiguous: false };
  if (part === 'night' && time.hour < 5) return { ...time, ambiguous: false, nextDay: true };
  return { ...time, hour: time.hour + 12, ambiguous: false };
}
