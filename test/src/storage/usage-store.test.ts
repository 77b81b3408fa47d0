import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { SqliteUsageStore, oldestKept } from '../../../src/storage/sqlite-usage-store.js';
import { lastDays, usageDay, usageOfTurn } from '../../../src/storage/usage-store.js';
import { toolCall, turnRecord } from '../../support/turn-record.js';
import { counts, entry, usageStoreContract } from '../../support/usage-store-contract.js';

// The usage store on SQLite (the Redis one: redis-usage-store.test.ts, the same contract), the day arithmetic in
// BOT_TIMEZONE and what one turn counts.

describe('SqliteUsageStore', () => {
  usageStoreContract(() => new SqliteUsageStore(new Database(':memory:')));

  it('keeps 31 days: a write on a new day deletes the rows older than that, never message text', () => {
    const database = new Database(':memory:');
    const usage = new SqliteUsageStore(database);
    void usage.add(entry('2026-01-01', 's', 'u', { turns: 1 }));
    void usage.add(entry('2026-01-31', 's', 'u', { turns: 1 }));
    void usage.add(entry('2026-02-01', 's', 'u', { turns: 1 }));
    const days = database.prepare<[], { day: string }>('SELECT day FROM usage ORDER BY day').all();
    expect(days.map((row) => row.day)).toEqual(['2026-01-31', '2026-02-01']);
    expect(oldestKept('2026-02-01')).toBe('2026-01-02');
    const columns = database.prepare<[], { name: string }>('PRAGMA table_info(usage)').all();
    expect(columns.map((column) => column.name)).not.toContain('text');
  });
});

describe('usage days and counts', () => {
  it("puts a time on the day of BOT_TIMEZONE and lists today and the days before, across a month's end", () => {
    // 23:30 UTC on 31 March is already 1 April in Bangkok.
    const late = new Date('2026-03-31T23:30:00Z');
    expect(usageDay(late, 'Asia/Bangkok')).toBe('2026-04-01');
    expect(usageDay(late, 'UTC')).toBe('2026-03-31');
    expect(lastDays(late, 3, 'Asia/Bangkok')).toEqual(['2026-04-01', '2026-03-31', '2026-03-30']);
    expect(lastDays(new Date('2026-03-29T12:00:00Z'), 2, 'Europe/Berlin')).toEqual(['2026-03-29', '2026-03-28']);
  });

  it('counts a turn: model time, the server tokens, successful web searches, images read', () => {
    const record = turnRecord({
      modelMs: 1234.6,
      imagesRead: 2,
      modelFigures: { promptTokens: 50, cachedTokens: 40, generatedTokens: 7 },
      toolCalls: [toolCall({ name: 'web_search' }), toolCall({ name: 'web_search', ok: false }), toolCall({ name: 'query_knowledge' })],
    });
    expect(usageOfTurn(record)).toEqual({ turns: 1, modelMs: 1235, promptTokens: 50, generatedTokens: 7, searches: 1, ocrPages: 2 });
    expect(usageOfTurn(turnRecord({ stopReason: 'model-error', modelMs: 0 }))).toEqual(counts({ turns: 1 }));
  });
});
