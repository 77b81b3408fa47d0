import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Keyv } from 'keyv';
import type { GroupLogStore } from '../catchup/group-log-store.js';
import { SqliteGroupLogStore } from '../catchup/sqlite-group-log-store.js';
import type { ReminderStore } from '../reminders/reminder-store.js';
import { SqliteReminderStore } from '../reminders/sqlite-reminder-store.js';
import { SqliteKeyvStore } from './sqlite-keyv-store.js';
import { SqliteUsageStore } from './sqlite-usage-store.js';
import type { UsageStore } from './usage-store.js';

/** The keyv namespaces Saeng keeps: conversation history, caches and space settings (dedupe lives in the inbound queue). */
export interface Storage {
  history: Keyv;
  cache: Keyv;
  /** Each space's /settings (src/settings/space-settings-store.ts), kept without a TTL. */
  settings: Keyv;
  /** The admin web page's one-time log-in tokens, sessions and audit log (src/web/web-sessions.ts), each with its expiry. */
  web: Keyv;
  /** /usage's counters per day, space and user (bounded to about a month). */
  usage: UsageStore;
  /** /remind's reminders with their delivery leases (src/reminders/reminder-store.ts), kept until delivered or cancelled. */
  reminders: ReminderStore;
  /** The catch-up log of the groups that turned /summary on (src/catchup/group-log-store.ts), kept for their retention. */
  groupLog: GroupLogStore;
  /**
   * Whether the store answers a cheap query now, for /readyz (SQLite: `SELECT 1`; Redis: `PING`): false once it is
   * closed, unreadable or unreachable. Never rejects.
   */
  healthy(): Promise<boolean>;
  /** Closes what this store owns (a Redis client shared with other stores is left to its owner). */
  close(): void;
}

/** Opens `DATA_DIR/state.db` (or an in-memory database for ':memory:'). */
export function openStorage(dataDir: string | ':memory:'): Storage {
  let file = ':memory:';
  if (dataDir !== ':memory:') {
    fs.mkdirSync(dataDir, { recursive: true });
    file = path.join(dataDir, 'state.db');
  }
  const database = new Database(file);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  const open = (namespace: string) => new Keyv({ store: new SqliteKeyvStore(database), namespace });
  return {
    history: open('history'),
    cache: open('cache'),
    settings: open('settings'),
    web: open('web'),
    usage: new SqliteUsageStore(database),
    reminders: new SqliteReminderStore(database),
    groupLog: new SqliteGroupLogStore(database),
    healthy: async () => {
      try {
        return database.prepare('SELECT 1 AS one').get() !== undefined;
      } catch {
        return false;
      }
    },
    close: () => database.close(),
  };
}
