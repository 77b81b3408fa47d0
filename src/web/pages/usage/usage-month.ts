import { periodDays, ranked, type UsagePeriod } from '../../../commands/usage-report.js';
import { lastDays, type UsageCounts, type UsageRow, type UsageStore } from '../../../storage/usage-store.js';
import { canSeeSpace } from '../../web-scope.js';
import type { WebSession } from '../../web-sessions.js';

// The usage page's figures: the last 30 days read one day at a time, as /usage reads them (one read; the shorter
// periods are the same rows cut to their days), only the rows of spaces the session may see.

export interface UsageMonth {
  /** `YYYY-MM-DD` in BOT_TIMEZONE, newest first. */
  days: string[];
  /** The visible rows of each day, in the order of `days`. */
  daily: UsageRow[][];
}

export interface UserUsage {
  spaceKey: string;
  userKey: string;
  userName: string;
  counts: UsageCounts;
}

export async function readUsageMonth(store: Pick<UsageStore, 'totals'>, session: Pick<WebSession, 'scope'>, now: Date, timeZone: string): Promise<UsageMonth> {
  const days = lastDays(now, periodDays['30d'], timeZone);
  const daily = await Promise.all(days.map(async (day) => (await store.totals({ days: [day] })).filter((row) => canSeeSpace(session, row.spaceKey))));
  return { days, daily };
}

export function rowsOf(month: UsageMonth, period: UsagePeriod): UsageRow[] {
  return month.daily.slice(0, periodDays[period]).flat();
}

/** Each space's sums, most turns first, at most `limit`. */
export function bySpace(rows: readonly UsageRow[], limit: number): { spaceKey: string; counts: UsageCounts }[] {
  return ranked(
    rows,
    (row) => row.spaceKey,
    (row) => row.spaceKey,
    limit,
  ).map((entry) => ({ spaceKey: entry.label, counts: entry.counts }));
}

/** Each (space, user)'s sums, most turns first, at most `limit`; the name is the newest day's (rows come newest first). */
export function byUser(rows: readonly UsageRow[], limit: number): UserUsage[] {
  const keyOf = (row: UsageRow) => JSON.stringify([row.spaceKey, row.userKey]);
  const first = new Map<string, UsageRow>();
  for (const row of rows) if (!first.has(keyOf(row))) first.set(keyOf(row), row);
  return ranked(rows, keyOf, keyOf, limit).flatMap((entry) => {
    const row = first.get(entry.label);
    return row ? [{ spaceKey: row.spaceKey, userKey: row.userKey, userName: row.userName, counts: entry.counts }] : [];
  });
}
