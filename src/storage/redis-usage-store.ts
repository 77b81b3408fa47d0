import type { RedisClient } from '../redis/redis-client.js';
import { emptyCounts, usageCounterNames, usageKeepDays, type UsageCounts, type UsageEntry, type UsageRow, type UsageStore } from './usage-store.js';

// /usage's counters shared by every bot process (REDIS_URL): one hash per day, `<prefix>usage:<day>`, with a field per
// counter, space and user (HINCRBY: atomic, so two processes never lose an update) and the user's name beside them.
// Each write (re)sets the day's expiry past the window: Redis drops old days itself, nothing to clean up.

/** Between the parts of a field: keys are `platform:id[:thread]`, which never hold a tab. */
const separator = '\t';
const nameField = 'name';

export class RedisUsageStore implements UsageStore {
  private readonly client: RedisClient;
  private readonly keyPrefix: string;

  constructor(options: { client: RedisClient; keyPrefix: string }) {
    this.client = options.client;
    this.keyPrefix = `${options.keyPrefix}usage:`;
  }

  async add(entry: UsageEntry): Promise<void> {
    const key = this.keyPrefix + entry.day;
    const tail = `${separator}${entry.spaceKey}${separator}${entry.userKey}`;
    // One MULTI: the counters, the name and the expiry land together.
    const step = this.client.multi();
    for (const name of usageCounterNames) {
      const value = entry.counts[name];
      if (value !== 0) step.hIncrBy(key, name + tail, value);
    }
    step.hSet(key, nameField + tail, entry.userName);
    step.expire(key, (usageKeepDays + 1) * 86_400);
    await step.exec();
  }

  async totals(query: { days: readonly string[]; spaceKey?: string }): Promise<UsageRow[]> {
    // Newest day first: a user's newest name is the one kept.
    const days = [...new Set(query.days)].sort().reverse();
    if (days.length === 0) return [];
    const hashes = await Promise.all(days.map((day) => this.client.hGetAll(this.keyPrefix + day)));
    const rows = new Map<string, UsageRow>();
    for (const hash of hashes) {
      for (const [field, value] of Object.entries(hash)) {
        const [name, spaceKey, userKey] = field.split(separator);
        if (name === undefined || spaceKey === undefined || userKey === undefined) continue;
        if (query.spaceKey !== undefined && spaceKey !== query.spaceKey) continue;
        const rowKey = `${spaceKey}${separator}${userKey}`;
        let row = rows.get(rowKey);
        if (!row) rows.set(rowKey, (row = { spaceKey, userKey, userName: '', counts: emptyCounts() }));
        if (name === nameField) row.userName ||= value;
        else if (isCounter(name)) row.counts[name] += Number(value) || 0;
      }
    }
    return [...rows.values()].map((row) => ({ ...row, userName: row.userName || row.userKey }));
  }
}

function isCounter(name: string): name is keyof UsageCounts {
  return (usageCounterNames as readonly string[]).includes(name);
}
