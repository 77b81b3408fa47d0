import { thaiDigitsToAscii } from '../shared/thai-digits.js';

// What `/summary …` asks for, from its words (a Discord slash command is turned into the same words; Thai words and
// Thai digits too): a summary of some span of the group's log, or an admin's change of catch-up itself.

/** Which part of the log a summary covers. */
export type SummarySpan =
  /** Since the asker's own last message (the default), else the last day. */
  | { kind: 'since-me' }
  /** Since midnight in BOT_TIMEZONE. */
  | { kind: 'today' }
  | { kind: 'hours'; hours: number };

export type SummaryRequest =
  | { kind: 'summary'; span: SummarySpan }
  | { kind: 'on'; days?: number }
  | { kind: 'off' }
  /** The daily digest at a time said in words ("18:00", "6 โมงเย็น"), or off (`at` undefined). */
  | { kind: 'digest'; at: string | undefined }
  | { kind: 'help' }
  | { kind: 'invalid'; problem: 'days' | 'hours' | 'unknown' };

const onWords = new Set(['on', 'เปิด', 'start']);
const offWords = new Set(['off', 'ปิด', 'stop']);
const todayWords = new Set(['today', 'วันนี้']);
const digestWords = new Set(['digest', 'daily', 'ประจำวัน', 'รายวัน']);
const helpWords = new Set(['help', 'วิธีใช้', 'ช่วย']);
const hourUnits = ['ชั่วโมง', 'ชม.', 'ชม', 'hours', 'hour', 'hrs', 'hr', 'h'];
const dayUnits = ['วัน', 'days', 'day', 'd'];

/** "3", "3h", "3 ชม.", "๓ ชั่วโมง" → 3 (with one of `units`, or none); undefined when it is not a count. */
function countWithUnit(words: readonly string[], units: readonly string[]): number | undefined {
  const joined = thaiDigitsToAscii(words.join('')).toLowerCase();
  const digits = /^(\d{1,4})/.exec(joined)?.[1];
  if (digits === undefined) return undefined;
  const unit = joined.slice(digits.length);
  return unit === '' || units.includes(unit) ? Number(digits) : undefined;
}

export function parseSummaryRequest(words: readonly string[], maxDays: number): SummaryRequest {
  const [first, ...rest] = words.map((word) => word.toLowerCase());
  if (first === undefined) return { kind: 'summary', span: { kind: 'since-me' } };
  if (helpWords.has(first)) return { kind: 'help' };
  if (todayWords.has(first)) return { kind: 'summary', span: { kind: 'today' } };
  if (onWords.has(first)) {
    if (rest.length === 0) return { kind: 'on' };
    const days = countWithUnit(rest, dayUnits);
    return days !== undefined && days >= 1 && days <= maxDays ? { kind: 'on', days } : { kind: 'invalid', problem: 'days' };
  }
  if (offWords.has(first)) return { kind: 'off' };
  if (digestWords.has(first)) {
    const at = words.slice(1).join(' ').trim();
    return { kind: 'digest', at: at === '' || offWords.has(at.toLowerCase()) ? undefined : at };
  }
  const hours = countWithUnit(words, hourUnits);
  if (hours !== undefined)
    return hours >= 1 && hours <= maxDays * 24 ? { kind: 'summary', span: { kind: 'hours', hours } } : { kind: 'invalid', problem: 'hours' };
  return { kind: 'invalid', problem: 'unknown' };
}
