import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { SqliteUsageStore } from '../../../src/storage/sqlite-usage-store.js';
import { usageRecorder } from '../../../src/storage/usage-recorder.js';
import { memoryLog } from '../../support/memory-log.js';
import { turnRecord } from '../../support/turn-record.js';

// Where a turn ends: its counts under the day in BOT_TIMEZONE, the space and the sender; a store that fails costs a
// log line, never the answer.

const message = { platform: 'telegram' as const, spaceKey: 'telegram:-100', sender: { id: '501', name: 'สมชาย', isPlatformAdmin: false } };

describe('usageRecorder', () => {
  it("records a turn under the day of BOT_TIMEZONE (already tomorrow in Bangkok) and the sender's ADMIN_IDS key", async () => {
    const database = new Database(':memory:');
    const store = new SqliteUsageStore(database);
    const { log } = memoryLog('warn', []);
    const record = usageRecorder({ store, timeZone: 'Asia/Bangkok', now: () => new Date('2026-03-31T18:00:00Z'), log });
    await record(turnRecord({ modelMs: 900 }), message);
    expect(await store.totals({ days: ['2026-04-01'] })).toEqual([
      { spaceKey: 'telegram:-100', userKey: 'telegram:501', userName: 'สมชาย', counts: expect.objectContaining({ turns: 1, modelMs: 900 }) as unknown },
    ]);
  });

  it('logs a store that fails, by space only, and resolves', async () => {
    const database = new Database(':memory:');
    const store = new SqliteUsageStore(database);
    database.close();
    const { log, records } = memoryLog('warn', []);
    const record = usageRecorder({ store, timeZone: 'UTC', now: () => new Date('2026-03-05T00:00:00Z'), log });
    await expect(record(turnRecord(), message)).resolves.toBeUndefined();
    expect(records.map((line) => [line.msg, line.space])).toEqual([['usage not recorded', 'telegram:-100']]);
    expect(JSON.stringify(records)).not.toContain('สมชาย');
  });
});
