import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteGroupLogStore } from '../../../src/catchup/sqlite-group-log-store.js';
import { openStorage } from '../../../src/storage/storage.js';
import { groupLogStoreContract, logEntry, t0, type StoredField } from '../../support/group-log-store-contract.js';

// The catch-up log in DATA_DIR/state.db (the Redis one: redis-group-log-store.test.ts, the same contract). Two store
// objects over one Database stand for two processes; reopening the file stands for a restart.

const folders: string[] = [];
const databases: Database.Database[] = [];
afterEach(() => {
  databases.splice(0).forEach((database) => database.close());
  folders.splice(0).forEach((folder) => rmSync(folder, { recursive: true, force: true }));
});

function freshFolder(): string {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'saeng-group-log-'));
  folders.push(folder);
  return folder;
}

function open(file: string): Database.Database {
  const database = new Database(file);
  database.pragma('journal_mode = WAL');
  databases.push(database);
  return database;
}

const columns: Record<StoredField, string> = { body: 'body', at: 'at' };

describe('SqliteGroupLogStore', () => {
  groupLogStoreContract(async () => {
    const file = path.join(freshFolder(), 'state.db');
    let database = open(file);
    return {
      store: new SqliteGroupLogStore(database),
      other: new SqliteGroupLogStore(database),
      bounded: (perSpace) => [new SqliteGroupLogStore(database, { perSpace }), new SqliteGroupLogStore(database, { perSpace })],
      reopen: async () => {
        database.close();
        database = open(file);
        return new SqliteGroupLogStore(database);
      },
      corrupt: async (spaceKey, messageId, field, value) => {
        database.prepare(`UPDATE group_log SET ${columns[field]} = ? WHERE space_key = ? AND message_id = ?`).run(value, spaceKey, messageId);
      },
    };
  });

  it('is part of the storage in state.db, and its reads use its indexes', async () => {
    const folder = freshFolder();
    const first = openStorage(folder);
    expect(await first.groupLog.append(logEntry(1, t0))).toBe(true);
    first.close();
    const second = openStorage(folder);
    expect(await second.groupLog.count(logEntry(1, t0).spaceKey)).toBe(1);
    second.close();

    const database = open(path.join(folder, 'state.db'));
    const plan = (sql: string, ...args: unknown[]) => JSON.stringify(database.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args));
    expect(plan('SELECT body FROM group_log WHERE space_key = ? AND at >= ? AND at < ? ORDER BY at DESC, message_id DESC LIMIT 5', 's', 0, t0)).toContain(
      'group_log_at',
    );
    expect(plan('SELECT max(at) FROM group_log WHERE space_key = ? AND speaker_key = ? AND at < ?', 's', 'u', t0)).toContain('group_log_speaker');
  });

  it("keeps each space's count beside the log through every write, and none for a space with nothing left", async () => {
    const database = open(path.join(freshFolder(), 'state.db'));
    const store = new SqliteGroupLogStore(database, { perSpace: 4 });
    const counted = () => database.prepare('SELECT space_key, entries FROM group_log_counts ORDER BY space_key').all();
    const actual = () => database.prepare('SELECT space_key, count(*) AS entries FROM group_log GROUP BY space_key ORDER BY space_key').all();
    for (let index = 0; index < 6; index++) await store.append(logEntry(index, t0 + index, { spaceKey: `telegram:-${index % 2}` }));
    await store.append(logEntry(9, t0 + 9, { spaceKey: 'telegram:-1' }));
    await store.moveSpace('telegram:-0', 'telegram:-1');
    expect(counted()).toEqual([{ space_key: 'telegram:-1', entries: 4 }]);
    expect(counted()).toEqual(actual());
    await store.prune('telegram:-1', t0 + 5);
    expect(counted()).toEqual(actual());
    await store.deleteSpace('telegram:-1');
    expect(counted()).toEqual([]);
  });
});
