import { findCalendarDates } from './calendar-date.js';
import { findRecurrences, findRelativeDays, findVaguePeriods, findWeekdays, type FoundWeekday } from './day-words.js';
import { findDurations } from './duration.js';
import { nextOccurrence } from './next-occurrence.js';
import { originalSpan, prepareText } from './prepared-text.js';
import { Claims, type Piece } from './text-claims.js';
import { findClockTimes, findPartsOfDay, withPartOfDay, type ClockTime, type PartOfDay } from './time-of-day.js';
import type { Recurrence, TextSpan, WhenContext, WhenResult } from './when-types.js';
import { addDays, compareDates, instantOf, isValidTimeZone, wallClockOf, weekdayOf, type CivilDate } from './zoned-time.js';

// When a message says, resolved by code in the group's zone. The patterns (each file says its rules) take their
// words in a fixed order; then:
//  - a duration in minutes or hours is now plus it, whatever else is said;
//  - a recurrence needs a time of day ('no-time' without one) and fires next strictly after now;
//  - a day and a time are that instant: 'past' if it is gone; of two am/pm readings the one still ahead, and
//    'part-of-day' when both are;
//  - a day alone is 'no-time' ('past' when the day is gone: "เมื่อวาน");
//  - a time alone is the next time the clock shows it (today if still ahead, else tomorrow); am/pm unknown is
//    'part-of-day' with both next occurrences as candidates;
//  - a vague period ("สัปดาห์หน้า", "next week") without a day is 'no-date-or-time';
//  - nothing of the above is 'none'.
// Only the first 500 characters are read; any input gives a value (an unknown zone or an invalid now: 'none').

/** The result, and the pieces of the text (original offsets) that said it, for cutting them from a subject. */
export interface WhenReading {
  result: WhenResult;
  pieces: TextSpan[];
}

const none: WhenReading = { result: { kind: 'none' }, pieces: [] };

export function parseWhen(text: string, context: WhenContext): WhenResult {
  return readWhen(text, context).result;
}

export function readWhen(text: string, context: WhenContext): WhenReading {
  try {
    if (typeof text !== 'string' || !(context.now instanceof Date) || Number.isNaN(context.now.getTime()) || !isValidTimeZone(context.timeZone)) return none;
    return read(text, context);
  } catch {
    return none;
  }
}

interface Readings {
  now: Date;
  timeZone: string;
  today: CivilDate;
  used: Piece[];
  span: (pieces?: Piece[]) => TextSpan;
}

function read(text: string, { now, timeZone }: WhenContext): WhenReading {
  const prepared = prepareText(text);
  const claims = new Claims();
  const today = wallClockOf(now, timeZone);
  const source = prepared.text;
  const durations = findDurations(source, claims);
  const recurrences = findRecurrences(source, claims);
  const dates = findCalendarDates(source, prepared.thai, today, claims);
  const days = findRelativeDays(source, claims);
  const weekdays = findWeekdays(source, claims);
  const periods = findVaguePeriods(source, claims);
  const times = findClockTimes(source, claims);
  const parts = findPartsOfDay(source, claims);

  const used: Piece[] = [];
  const readings: Readings = {
    now,
    timeZone,
    today,
    used,
    span: (pieces = used) => {
      const start = Math.min(...pieces.map((piece) => piece.start));
      const end = Math.max(...pieces.map((piece) => piece.end));
      return originalSpan(prepared, start, end);
    },
  };
  const finish = (result: WhenResult): WhenReading => ({ result, pieces: used.map((piece) => originalSpan(prepared, piece.start, piece.end)) });

  const duration = durations[0];
  if (duration && duration.minutes > 0) {
    used.push(duration);
    return finish({ kind: 'at', at: new Date(now.getTime() + duration.minutes * 60_000), span: readings.span() });
  }

  const recurrence = recurrences[0];
  const date = dates[0];
  const relative = days[0] ?? (duration ? { start: duration.start, end: duration.end, offset: duration.days, part: undefined } : undefined);
  const weekday = weekdays[0];
  const dayPart = recurrence?.part ?? relative?.part;
  const hint: PartOfDay | undefined = dayPart ?? parts[0]?.part;
  // A clock time that needs no guess wins over an am/pm one said earlier ("look at 3 files tomorrow at 9am").
  const rawTime = times.find((time) => !time.ambiguous) ?? times[0];
  const time = rawTime ? withPartOfDay(rawTime, hint) : undefined;
  if (time) used.push(time);
  const saidSomething = recurrence ?? date ?? relative ?? weekday ?? periods[0] ?? time;
  if (saidSomething && parts[0]) used.push(parts[0]);

  if (recurrence) {
    used.push(recurrence);
    return finish(recurring(recurrence.recurrence, time, readings));
  }
  if (date) {
    used.push(date);
    if (!date.valid) return finish({ kind: 'ambiguous', reason: 'invalid-date', span: readings.span(), candidates: [] });
    if (date.saidWeekday !== undefined && date.saidWeekday !== weekdayOf(date.date)) {
      return finish({ kind: 'ambiguous', reason: 'weekday-mismatch', span: readings.span(), candidates: [] });
    }
    return finish(onDay(date.date, false, time, readings));
  }
  if (relative) {
    used.push(relative);
    return finish(onDay(addDays(today, relative.offset), relative.offset < 0, time, readings));
  }
  if (weekday) {
    used.push(weekday);
    return finish(onDay(dayOfWeekday(weekday, today), false, time, readings));
  }
  const period = periods[0];
  if (period) {
    used.push(period);
    return finish({ kind: 'ambiguous', reason: 'no-date-or-time', span: readings.span(), candidates: [] });
  }
  if (time) return finish(nextClockTime(time, readings));
  return none;
}

/** See day-words.ts: the first such day after today, or that weekday of next week (Monday to Sunday). */
export function dayOfWeekday(found: Pick<FoundWeekday, 'weekday' | 'nextWeek'>, today: CivilDate): CivilDate {
  const todayWeekday = weekdayOf(today);
  if (found.nextWeek) {
    const nextMonday = addDays(today, 7 - ((todayWeekday + 6) % 7));
    return addDays(nextMonday, (found.weekday + 6) % 7);
  }
  const ahead = (found.weekday - todayWeekday + 7) % 7;
  return addDays(today, ahead === 0 ? 7 : ahead);
}

function hoursOf(time: ClockTime): number[] {
  return time.ambiguous ? [time.hour, time.hour + 12] : [time.hour];
}

function recurring(recurrence: Recurrence | undefined, time: ClockTime | undefined, readings: Readings): WhenResult {
  const span = readings.span();
  if (!recurrence) return { kind: 'ambiguous', reason: 'no-date-or-time', span, candidates: [] };
  if (!time) return { kind: 'ambiguous', reason: 'no-time', span, candidates: [] };
  // Midnight of a weekly day is the start of the day after it ("ทุกวันจันทร์เที่ยงคืน": Monday night).
  const shifted: Recurrence = time.nextDay && recurrence.kind === 'weekly' ? { kind: 'weekly', weekday: (recurrence.weekday + 1) % 7 } : recurrence;
  const next = hoursOf(time).map((hour) => nextOccurrence(shifted, readings.now, { hour, minute: time.minute }, readings.timeZone));
  if (next.length > 1) return { kind: 'ambiguous', reason: 'part-of-day', span, candidates: next.sort((a, b) => a.getTime() - b.getTime()) };
  return { kind: 'at', at: next[0] ?? readings.now, recurrence, span };
}

function onDay(day: CivilDate, saidAsPast: boolean, time: ClockTime | undefined, readings: Readings): WhenResult {
  const span = readings.span();
  if (!time) {
    if (saidAsPast || compareDates(day, readings.today) < 0) return { kind: 'past', at: instantOf(day, 0, 0, readings.timeZone), span };
    return { kind: 'ambiguous', reason: 'no-time', span, candidates: [] };
  }
  const on = time.nextDay ? addDays(day, 1) : day;
  const instants = hoursOf(time)
    .map((hour) => instantOf(on, hour, time.minute, readings.timeZone))
    .sort((a, b) => a.getTime() - b.getTime());
  const ahead = instants.filter((at) => at.getTime() > readings.now.getTime());
  const last = instants[instants.length - 1] ?? readings.now;
  if (saidAsPast || ahead.length === 0) return { kind: 'past', at: last, span };
  if (ahead.length > 1) return { kind: 'ambiguous', reason: 'part-of-day', span, candidates: ahead };
  return { kind: 'at', at: ahead[0] ?? last, span };
}

function nextClockTime(time: ClockTime, readings: Readings): WhenResult {
  const span = readings.span();
  const next = hoursOf(time)
    .map((hour) => nextOccurrence({ kind: 'daily' }, readings.now, { hour, minute: time.minute }, readings.timeZone))
    .sort((a, b) => a.getTime() - b.getTime());
  if (next.length > 1) return { kind: 'ambiguous', reason: 'part-of-day', span, candidates: next };
  return { kind: 'at', at: next[0] ?? readings.now, span };
}
