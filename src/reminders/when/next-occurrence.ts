import type { Recurrence } from './when-types.js';
import { addDays, instantOf, isValidTimeZone, wallClockOf, weekdayOf, type CivilDate } from './zoned-time.js';

// The next time a recurring reminder fires: the first day from `after`'s own day (in the zone) that the recurrence
// takes, at the wall-clock time of day, strictly after `after`. Eight days always hold one (a weekly day comes back
// within seven, and today may already be gone). A skipped DST hour moves forward (see instantOf).

export function matchesRecurrence(recurrence: Recurrence, date: CivilDate): boolean {
  const weekday = weekdayOf(date);
  switch (recurrence.kind) {
    case 'daily':
      return true;
    case 'weekdays':
      return weekday >= 1 && weekday <= 5;
    case 'weekly':
      return weekday === ((Math.trunc(recurrence.weekday) % 7) + 7) % 7;
  }
}

/** Strictly after `after`. An unknown zone is read as UTC and an out-of-range time of day clamped: never a throw. */
export function nextOccurrence(recurrence: Recurrence, after: Date, timeOfDay: { hour: number; minute: number }, timeZone: string): Date {
  const zone = isValidTimeZone(timeZone) ? timeZone : 'UTC';
  const hour = clamp(timeOfDay.hour, 0, 23);
  const minute = clamp(timeOfDay.minute, 0, 59);
  const from = Number.isNaN(after.getTime()) ? new Date(0) : after;
  const today = wallClockOf(from, zone);
  for (let offset = 0; offset <= 8; offset++) {
    const day = addDays(today, offset);
    if (!matchesRecurrence(recurrence, day)) continue;
    const at = instantOf(day, hour, minute, zone);
    if (at.getTime() > from.getTime()) return at;
  }
  return instantOf(addDays(today, 1), hour, minute, zone);
}

function clamp(value: number, low: number, high: number): number {
  return Number.isFinite(value) ? Math.min(high, Math.max(low, Math.trunc(value))) : low;
}
