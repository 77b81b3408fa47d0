// Wall-clock arithmetic in an IANA time zone with Intl only (no date library). Days are civil dates counted in UTC
// milliseconds, so adding days never meets a DST change; only the last step, wall clock → instant, asks the zone.

export interface CivilDate {
  year: number;
  /** 1–12 */
  month: number;
  day: number;
}

export interface WallClock extends CivilDate {
  hour: number;
  minute: number;
  /** 0=Sunday…6 */
  weekday: number;
}

const dayMs = 86_400_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

/** Whether Intl knows the zone (a formatter for an unknown zone throws). */
export function isValidTimeZone(timeZone: string): boolean {
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
  }
}

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      era: 'short',
    });
    // Bounded: a zone name comes from configuration, but a hostile caller must not grow the map forever.
    if (formatters.size > 64) formatters.clear();
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Milliseconds of a civil date and time counted as if UTC (years below 100 kept as written). */
export function civilMs(date: CivilDate, hour = 0, minute = 0, second = 0): number {
  const value = new Date(0);
  value.setUTCFullYear(date.year, date.month - 1, date.day);
  value.setUTCHours(hour, minute, second, 0);
  return value.getTime();
}

function civilOfMs(ms: number): CivilDate {
  const value = new Date(ms);
  return { year: value.getUTCFullYear(), month: value.getUTCMonth() + 1, day: value.getUTCDate() };
}

/** The wall clock in `timeZone` at the instant `at`. */
export function wallClockOf(at: Date, timeZone: string): WallClock {
  const parts: Record<string, string> = {};
  for (const part of formatterFor(timeZone).formatToParts(at)) parts[part.type] = part.value;
  const yearOfEra = Number(parts['year']);
  const year = parts['era'] === 'BC' || parts['era'] === 'B' ? 1 - yearOfEra : yearOfEra;
  const date = { year, month: Number(parts['month']), day: Number(parts['day']) };
  // Some ICU versions write midnight as 24 even with h23.
  const hour = Number(parts['hour']) % 24;
  return { ...date, hour, minute: Number(parts['minute']), weekday: weekdayOf(date) };
}

/** How far the zone's wall clock is ahead of UTC at `ms`, in milliseconds (seconds dropped). */
function offsetAt(ms: number, timeZone: string): number {
  const wall = wallClockOf(new Date(ms), timeZone);
  return civilMs(wall, wall.hour, wall.minute) - (ms - (((ms % 60_000) + 60_000) % 60_000));
}

/**
 * The instant at which the wall clock in `timeZone` shows `date` `hour`:`minute`. In a repeated hour (DST ends) the
 * earlier instant; in a skipped hour (DST starts) the time is moved forward by the gap (02:30 → 03:30), as Temporal's
 * 'compatible' disambiguation does.
 */
export function instantOf(date: CivilDate, hour: number, minute: number, timeZone: string): Date {
  const local = civilMs(date, hour, minute);
  const before = offsetAt(local - dayMs, timeZone);
  const after = offsetAt(local + dayMs, timeZone);
  const fits = [local - before, local - after].filter((ms) => offsetAt(ms, timeZone) === local - ms).sort((a, b) => a - b);
  return new Date(fits[0] ?? local - before);
}

export function addDays(date: CivilDate, days: number): CivilDate {
  return civilOfMs(civilMs(date) + days * dayMs);
}

/** 0=Sunday…6 */
export function weekdayOf(date: CivilDate): number {
  return new Date(civilMs(date)).getUTCDay();
}

export function daysInMonth(year: number, month: number): number {
  return new Date(civilMs({ year, month: month + 1, day: 0 })).getUTCDate();
}

/** Negative when a is before b, 0 on the same day. */
export function compareDates(a: CivilDate, b: CivilDate): number {
  return civilMs(a) - civilMs(b);
}

export function isValidDate(date: CivilDate): boolean {
  return date.month >= 1 && date.month <= 12 && date.day >= 1 && date.day <= daysInMonth(date.year, date.month);
}
