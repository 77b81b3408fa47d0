import { expect, it } from 'vitest';
import { emptyCounts, type UsageCounts, type UsageStore } from '../../src/storage/usage-store.js';

// What every usage store keeps (test/src/storage/usage-store.test.ts on SQLite, redis-usage-store.test.ts on Redis).

export const counts = (more: Partial<UsageCounts>): UsageCounts => ({ ...emptyCounts(), ...more });
export const entry = (day: string, spaceKey: string, userKey: string, more: Partial<UsageCounts>, userName = userKey) => ({
  day,
  spaceKey,
  userKey,
  userName,
  counts: counts(more),
});

/** The contract both backends keep; `store()` makes a fresh, empty one. */
export function usageStoreContract(store: () => UsageStore | Promise<UsageStore>): void {
  it('adds counts per day, space and user, sums them over the days asked for, and filters by space', async () => {
    const usage = await store();
    await usage.add(entry('2026-03-05', 'telegram:-1', 'telegram:1', { turns: 1, modelMs: 1500, promptTokens: 100, generatedTokens: 20 }, 'สมชาย'));
    await usage.add(entry('2026-03-05', 'telegram:-1', 'telegram:1', { turns: 1, searches: 2, ocrPages: 1 }, 'สมชาย'));
    await usage.add(entry('2026-03-04', 'telegram:-1', 'telegram:2', { turns: 1 }, 'สมหญิง'));
    await usage.add(entry('2026-03-05', 'discord:9', 'discord:3', { turns: 4 }));
    const both = await usage.totals({ days: ['2026-03-05', '2026-03-04'], spaceKey: 'telegram:-1' });
    expect(both.sort((a, b) => a.userKey.localeCompare(b.userKey))).toEqual([
      {
        spaceKey: 'telegram:-1',
        userKey: 'telegram:1',
        userName: 'สมชาย',
        counts: counts({ turns: 2, modelMs: 1500, promptTokens: 100, generatedTokens: 20, searches: 2, ocrPages: 1 }),
      },
      { spaceKey: 'telegram:-1', userKey: 'telegram:2', userName: 'สมหญิง', counts: counts({ turns: 1 }) },
    ]);
    const today = await usage.totals({ days: ['2026-03-05'] });
    expect(today.map((row) => [row.spaceKey, row.counts.turns]).sort()).toEqual([
      ['discord:9', 4],
      ['telegram:-1', 2],
    ]);
    expect(await usage.totals({ days: [] })).toEqual([]);
  });

  it("shows a user's newest name", async () => {
    const usage = await store();
    await usage.add(entry('2026-03-01', 'line:g', 'line:U1', { turns: 1 }, 'ชื่อเก่า'));
    await usage.add(entry('2026-03-02', 'line:g', 'line:U1', { turns: 1 }, 'ชื่อใหม่'));
    const [row] = await usage.totals({ days: ['2026-03-01', '2026-03-02'] });
    expect(row).toMatchObject({ userName: 'ชื่อใหม่', counts: { turns: 2 } });
  });
}
