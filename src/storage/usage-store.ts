import type { TurnRecord } from '../shared/types.js';

// Usage for /usage: counters per (day in BOT_TIMEZONE, space, user), numbers and the user's display name only —
// never message text. Bounded: a day's counts are kept `usageKeepDays` days (SQLite deletes older rows on write,
// Redis gives each day's hash an expiry), so the store never grows past about a month of active users.

export const usageKeepDays = 31;

export interface UsageCounts {
  turns: number;
  /** Time the turns waited on the model server (TurnRecord.modelMs), whole milliseconds. */
  modelMs: number;
  /** As the model server reported them (absent figures count 0). */
  promptTokens: number;
  generatedTokens: number;
  /** Successful web_search calls. */
  searches: number;
  /** Images whose text was read (OCR) in the turn. */
  ocrPages: number;
}

export const usageCounterNames = [
  'turns',
  'modelMs',
  'promptTokens',
  'generatedTokens',
  'searches',
  'ocrPages',
] as const satisfies readonly (keyof UsageCounts)[];

export interface UsageEntry {
  /** `YYYY-MM-DD` in BOT_TIMEZONE (`usageDay`). */
  day: string;
  spaceKey: string;
  /** `platform:senderId`, as ADMIN_IDS names a user. */
  userKey: string;
  /** The sender's display name when the turn ran (the newest one is shown). */
  userName: string;
  counts: UsageCounts;
}

/** One user's sums in one space over the days asked for. */
export interface UsageRow {
  spaceKey: string;
  userKey: string;
  userName: string;
  counts: UsageCounts;
}

export interface UsageStore {
  /** Adds the counts atomically (two processes on one Redis never lose an update) and drops days past the window. */
  add(entry: UsageEntry): Promise<void>;
  /** Sums per (space, user) over `days`; only `spaceKey`'s rows when given. */
  totals(query: { days: readonly string[]; spaceKey?: string }): Promise<UsageRow[]>;
}

export function emptyCounts(): UsageCounts {
  return { turns: 0, modelMs: 0, promptTokens: 0, generatedTokens: 0, searches: 0, ocrPages: 0 };
}

export function addCounts(total: UsageCounts, more: UsageCounts): void {
  for (const name of usageCounterNames) total[name] += more[name];
}

/** What one turn counts, failed and cancelled turns included (their record keeps the calls they made). */
export function usageOfTurn(record: TurnRecord): UsageCounts {
  return {
    turns: 1,
    modelMs: Math.max(0, Math.round(record.modelMs)),
    promptTokens: Math.round(record.modelFigures.promptTokens ?? 0),
    generatedTokens: Math.round(record.modelFigures.generatedTokens ?? 0),
    searches: record.toolCalls.filter((call) => call.name === 'web_search' && call.ok).length,
    ocrPages: record.imagesRead ?? 0,
  };
}

/** `YYYY-MM-DD` of `date` in `timeZone` (en-CA formats dates that way). */
export function usageDay(date: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(date);
}

/** Today and the `count - 1` days before it, newest first, in `timeZone`. */
export function lastDays(now: Date, count: number, timeZone: string): string[] {
  const days = new Set<string>();
  // Noon steps: a day that is 23 or 25 hours long (daylight saving) is neither skipped nor counted twice.
  const noon = new Date(`${usageDay(now, timeZone)}T12:00:00Z`).getTime();
  for (let back = 0; back < count; back++) days.add(new Date(noon - back * 86_400_000).toISOString().slice(0, 10));
  return [...days];
}
