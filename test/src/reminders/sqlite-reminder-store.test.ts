import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultReminderLimits } from '../../../src/reminders/reminder-store.js';
import { SqliteReminderStore } from '../../../src/reminders/sqlite-reminder-store.js';
import { openStorage } from '../../../src/storage/storage.js';
import { newReminder, reminderStoreContract, t0, type StoredField } from '../../support/reminder-store-contract.js';

// The reminder store in DATA_DIR/state.db (the Redis one: redis-reminder-store.test.ts, the same contract). Two
// store objects over one Database stand for two claimers; reopening the file stands for a restart.

const folders: string[] = [];
const databases: Database.Database[] = [];
afterEach(() => {
  databases.splice(0).forEach((database) => database.close());
  folders.splice(0).forEach((folder) => rmSync(folder, { recursive: true, force: true }));
});

function open(file: string): Database.Database {
  const database = new Database(file);
  database.pragma('journal_mode = WAL');
  databases.push(database);
  return database;
}

const columns: Record<StoredField, string> = { body: 'body', number: 'number', dueAt: 'due_at', sentParts: 'sent_parts' };

describe('SqliteReminderStore', () => {
  reminderStoreContract(async () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'saeng-reminders-'));
    folders.push(folder);
    const file = path.join(folder, 'state.db');
    let database = open(file);
    const store = new SqliteReminderStore(database);
    return {
      store,
      other: new SqliteReminderStore(database),
      withCapacity: (capacity) => new SqliteReminderStore(database, { capacity }),
      reopen: async () => {
        database.close();
        database = open(file);
        return new SqliteReminderStore(database);
      },
      corrupt: async (id, field, value) => {
        database.prepare(`UPDATE reminders SET ${columns[field]} = ? WHERE id = ?`).run(value, id);
      },
    };
  });

  it('is part of the storage in state.db: a claim reads the ready-time index, and the table survives reopening', async () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'saeng-reminders-'));
    folders.push(folder);
    const first = openStorage(folder);
    expect(await first.reminders.add(newReminder(), defaultReminderLimits)).toMatchObject({ added: true, reminder: { number: 1 } });
    first.close();
    const second = openStorage(folder);
    expect(await second.reminders.count()).toBe(1);
    expect(await second.reminders.nextDueAt()).toBe(t0);
    second.close();

    const database = open(path.join(folder, 'state.db'));
    const plan = database.prepare('EXPLAIN QUERY PLAN SELECT id FROM reminders WHERE ready_at <= ? ORDER BY ready_at LIMIT ?').all(t0, 10);
    expect(JSON.stringify(plan)).toContain('reminders_ready');
  });
});
