import type Database from 'better-sqlite3';
import type { GroupLogEntry } from './group-log-entry.js';
import {
  boundedEntry,
  checkedKey,
  checkedPerSpace,
  checkedRange,
  checkedTime,
  entryBody,
  readGroupLogEntry,
  storedTime,
  type GroupLogRange,
  type GroupLogStore,
  type GroupLogStoreOptions,
} from './group-log-store.js';

// The catch-up log in DATA_DIR/state.db (one process; several processes share Redis instead). One row per message,
// unique per (space, message id) so a redelivery is logged once. The order is (at, message id), the same on Redis,
// and its index serves the range reads, the cut of the oldest and prune; a second index answers "since my last
// message" without walking the space's log. Triggers keep each space's count beside it (a count(*) over a full
// space's index on every append cost ten times the insert). Appending and moving read the count and then write:
// each is one immediate transaction, so two store objects (or connections) never pass the bound together.

interface Row {
  message_id: string;
  at: number;
  body: string;
}

export class SqliteGroupLogStore implements GroupLogStore {
  private readonly statements;
  private readonly perSpace: number;
  private readonly transaction: <Result>(work: () => Result) => Result;

  constructor(database: Database.Database, options: GroupLogStoreOptions = {}) {
    this.perSpace = checkedPerSpace(options);
    database.exec(`CREATE TABLE IF NOT EXISTS group_log (
      space_key TEXT NOT NULL, message_id TEXT NOT NULL, at INTEGER NOT NULL, speaker_key TEXT NOT NULL, body TEXT NOT NULL,
      PRIMARY KEY (space_key, message_id)) WITHOUT ROWID;
      CREATE INDEX IF NOT EXISTS group_log_at ON group_log (space_key, at, message_id);
      CREATE INDEX IF NOT EXISTS group_log_speaker ON group_log (space_key, speaker_key, at);
      CREATE TABLE IF NOT EXISTS group_log_counts (space_key TEXT NOT NULL PRIMARY KEY, entries INTEGER NOT NULL) WITHOUT ROWID;
      CREATE TRIGGER IF NOT EXISTS group_log_added AFTER INSERT ON group_log BEGIN
        INSERT OR IGNORE INTO group_log_counts (space_key, entries) VALUES (NEW.space_key, 0);
        UPDATE group_log_counts SET entries = entries + 1 WHERE space_key = NEW.space_key;
      END;
      CREATE TRIGGER IF NOT EXISTS group_log_deleted AFTER DELETE ON group_log BEGIN
        UPDATE group_log_counts SET entries = entries - 1 WHERE space_key = OLD.space_key;
        DELETE FROM group_log_counts WHERE space_key = OLD.space_key AND entries <= 0;
      END;
      CREATE TRIGGER IF NOT EXISTS group_log_moved AFTER UPDATE OF space_key ON group_log BEGIN
        UPDATE group_log_counts SET entries = entries - 1 WHERE space_key = OLD.space_key;
        DELETE FROM group_log_counts WHERE space_key = OLD.space_key AND entries <= 0;
        INSERT OR IGNORE INTO group_log_counts (space_key, entries) VALUES (NEW.space_key, 0);
        UPDATE group_log_counts SET entries = entries + 1 WHERE space_key = NEW.space_key;
      END`);
    this.statements = {
      spaces: database.prepare<[number], { space_key: string }>('SELECT space_key FROM group_log_counts WHERE entries > 0 ORDER BY space_key LIMIT ?'),
      insert: database.prepare<[string, string, number, string, string]>(
        'INSERT INTO group_log (space_key, message_id, at, speaker_key, body) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
      ),
      has: database.prepare<[string, string], { found: number }>('SELECT 1 AS found FROM group_log WHERE space_key = ? AND message_id = ?'),
      count: database.prepare<[string], { total: number }>('SELECT entries AS total FROM group_log_counts WHERE space_key = ?'),
      cutOldest: database.prepare<[string, string, number]>(
        'DELETE FROM group_log WHERE space_key = ? AND message_id IN (SELECT message_id FROM group_log WHERE space_key = ? ORDER BY at, message_id LIMIT ?)',
      ),
      read: database.prepare<[string, number, number, number], Row>(
        'SELECT message_id, at, body FROM group_log WHERE space_key = ? AND at >= ? AND at < ? ORDER BY at DESC, message_id DESC LIMIT ?',
      ),
      lastSaid: database.prepare<[string, string, number], { at: unknown }>(
        'SELECT max(at) AS at FROM group_log WHERE space_key = ? AND speaker_key = ? AND at < ?',
      ),
      prune: database.prepare<[string, number]>('DELETE FROM group_log WHERE space_key = ? AND at < ?'),
      deleteSpace: database.prepare<[string]>('DELETE FROM group_log WHERE space_key = ?'),
      oldest: database.prepare<[string], { at: unknown }>('SELECT at FROM group_log WHERE space_key = ? ORDER BY at, message_id LIMIT 1'),
      // OR IGNORE: a row whose message id the new space already has stays behind, and is deleted next.
      move: database.prepare<[string, string]>('UPDATE OR IGNORE group_log SET space_key = ? WHERE space_key = ?'),
    };
    // Immediate: the write lock is taken before the count it depends on (another connection cannot slip in between).
    this.transaction = (work) => database.transaction(work).immediate();
  }

  // Async so that a failing statement (a closed or full database) rejects instead of throwing into the caller.
  async append(input: GroupLogEntry): Promise<boolean> {
    const entry = boundedEntry(input);
    const body = entryBody(entry);
    return this.transaction(() => {
      if (this.statements.insert.run(entry.spaceKey, entry.messageId, entry.at, entry.speakerKey, body).changes === 0) return false;
      this.keepBound(entry.spaceKey);
      return this.statements.has.get(entry.spaceKey, entry.messageId) !== undefined;
    });
  }

  async read(spaceKey: string, range: GroupLogRange): Promise<GroupLogEntry[]> {
    const { from, to, limit } = checkedRange(range);
    if (limit === 0) return [];
    const rows = this.statements.read.all(spaceKey, from, to, limit);
    return rows.reverse().flatMap((row) => readGroupLogEntry({ spaceKey, messageId: row.message_id, at: row.at, body: row.body }) ?? []);
  }

  async lastSaidBy(spaceKey: string, speakerKey: string, before: number): Promise<number | undefined> {
    return storedTime(this.statements.lastSaid.get(spaceKey, checkedKey(speakerKey, 'speaker key'), checkedTime(before))?.at);
  }

  async prune(spaceKey: string, before: number): Promise<number> {
    return this.statements.prune.run(spaceKey, checkedTime(before)).changes;
  }

  async deleteSpace(spaceKey: string): Promise<number> {
    return this.statements.deleteSpace.run(spaceKey).changes;
  }

  async count(spaceKey: string): Promise<number> {
    return this.statements.count.get(spaceKey)?.total ?? 0;
  }

  async oldest(spaceKey: string): Promise<number | undefined> {
    return storedTime(this.statements.oldest.get(spaceKey)?.at);
  }

  async spaces(limit: number): Promise<string[]> {
    return this.statements.spaces.all(limit).map((row) => row.space_key);
  }

  async moveSpace(from: string, to: string): Promise<void> {
    if (from === to) return;
    checkedKey(to, 'space key');
    this.transaction(() => {
      if (this.statements.move.run(to, from).changes > 0) this.keepBound(to);
      this.statements.deleteSpace.run(from);
    });
  }

  /** Within a transaction: the oldest past the bound go. */
  private keepBound(spaceKey: string): void {
    const over = (this.statements.count.get(spaceKey)?.total ?? 0) - this.perSpace;
    if (over > 0) this.statements.cutOldest.run(spaceKey, spaceKey, over);
  }
}
