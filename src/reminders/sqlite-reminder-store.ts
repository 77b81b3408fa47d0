import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import {
  boundedReminder,
  checkedClaim,
  checkedLimits,
  checkedPart,
  checkedTime,
  readReminder,
  reminderBody,
  reminderBounds,
  smallestFreeNumber,
  type AddResult,
  type ClaimedReminder,
  type NewReminder,
  type Reminder,
  type ReminderLimits,
  type ReminderStore,
} from './reminder-store.js';

// Reminders in DATA_DIR/state.db (one process; several processes share Redis instead). One row per reminder:
// ready_at is when it may be claimed next — its due_at, or while a claim holds it, the lease's expiry — so a claim is
// one range read on its index. A claim writes a fresh token into lease; every later write of that claim matches it.
// Each step that reads and then writes is one immediate transaction: two store objects (or connections) never hand
// one reminder out twice nor pass a limit together.

interface Row {
  id: string;
  space_key: string;
  number: number;
  due_at: number;
  body: string;
  sent_parts: string;
}

export interface SqliteReminderStoreOptions {
  /** Reminders kept in all (default `reminderBounds.capacity`); add answers 'space-full' beyond it. */
  capacity?: number;
}

export class SqliteReminderStore implements ReminderStore {
  private readonly statements;
  private readonly capacity: number;
  private readonly transaction: <Result>(work: () => Result) => Result;

  constructor(database: Database.Database, options: SqliteReminderStoreOptions = {}) {
    this.capacity = options.capacity ?? reminderBounds.capacity;
    database.exec(`CREATE TABLE IF NOT EXISTS reminders (
      id TEXT NOT NULL PRIMARY KEY, space_key TEXT NOT NULL, number INTEGER NOT NULL, user_key TEXT NOT NULL,
      due_at INTEGER NOT NULL, ready_at INTEGER NOT NULL, lease TEXT, sent_parts TEXT NOT NULL, body TEXT NOT NULL,
      UNIQUE (space_key, number)) WITHOUT ROWID;
      CREATE INDEX IF NOT EXISTS reminders_ready ON reminders (ready_at)`);
    const columns = 'id, space_key, number, due_at, body, sent_parts';
    this.statements = {
      total: database.prepare<[], { total: number }>('SELECT count(*) AS total FROM reminders'),
      spaces: database.prepare<[number], { space_key: string }>('SELECT DISTINCT space_key FROM reminders ORDER BY space_key LIMIT ?'),
      numbers: database.prepare<[string], { number: number }>('SELECT number FROM reminders WHERE space_key = ?'),
      ofUser: database.prepare<[string, string], { total: number }>('SELECT count(*) AS total FROM reminders WHERE space_key = ? AND user_key = ?'),
      insert: database.prepare<[string, string, number, string, number, number, string]>(
        `INSERT INTO reminders (id, space_key, number, user_key, due_at, ready_at, lease, sent_parts, body) VALUES (?, ?, ?, ?, ?, ?, NULL, '', ?)`,
      ),
      list: database.prepare<[string], Row>(`SELECT ${columns} FROM reminders WHERE space_key = ? ORDER BY due_at, number`),
      cancel: database.prepare<[string, number], Row>(`DELETE FROM reminders WHERE space_key = ? AND number = ? RETURNING ${columns}`),
      due: database.prepare<[number, number], Row>(`SELECT ${columns} FROM reminders WHERE ready_at <= ? ORDER BY ready_at LIMIT ?`),
      lease: database.prepare<[string, number, string]>('UPDATE reminders SET lease = ?, ready_at = ? WHERE id = ?'),
      renew: database.prepare<[number, string, string]>('UPDATE reminders SET ready_at = ? WHERE id = ? AND lease = ?'),
      parts: database.prepare<[string, string], { sent_parts: string }>('SELECT sent_parts FROM reminders WHERE id = ? AND lease = ?'),
      markPart: database.prepare<[string, string]>('UPDATE reminders SET sent_parts = ? WHERE id = ?'),
      delete: database.prepare<[string, string]>('DELETE FROM reminders WHERE id = ? AND lease = ?'),
      drop: database.prepare<[string]>('DELETE FROM reminders WHERE id = ?'),
      next: database.prepare<[number, number, string, string]>(
        `UPDATE reminders SET due_at = ?, ready_at = ?, lease = NULL, sent_parts = '' WHERE id = ? AND lease = ?`,
      ),
      earliest: database.prepare<[], { earliest: number | null }>('SELECT min(ready_at) AS earliest FROM reminders'),
      moving: database.prepare<[string], { id: string; number: number }>('SELECT id, number FROM reminders WHERE space_key = ? ORDER BY number'),
      move: database.prepare<[string, number, string]>('UPDATE reminders SET space_key = ?, number = ? WHERE id = ?'),
    };
    // Immediate: the write lock is taken before the reads it depends on (another connection cannot slip in between).
    this.transaction = (work) => database.transaction(work).immediate();
  }

  // Async so that a failing statement (a closed or full database) rejects instead of throwing into the caller.
  async add(input: NewReminder, limits: ReminderLimits): Promise<AddResult> {
    const reminder = boundedReminder(input);
    const { perSpace, perUser } = checkedLimits(limits);
    const body = reminderBody(reminder);
    return this.transaction((): AddResult => {
      if ((this.statements.total.get()?.total ?? 0) >= this.capacity) return { added: false, reason: 'space-full' };
      const numbers = this.statements.numbers.all(reminder.spaceKey).map((row) => row.number);
      if (numbers.length >= perSpace) return { added: false, reason: 'space-full' };
      if ((this.statements.ofUser.get(reminder.spaceKey, reminder.userKey)?.total ?? 0) >= perUser) return { added: false, reason: 'user-full' };
      const stored: Reminder = { ...reminder, id: randomUUID(), number: smallestFreeNumber(numbers), sentParts: [] };
      this.statements.insert.run(stored.id, stored.spaceKey, stored.number, stored.userKey, stored.dueAt, stored.dueAt, body);
      return { added: true, reminder: stored };
    });
  }

  async list(spaceKey: string): Promise<Reminder[]> {
    return this.statements.list.all(spaceKey).flatMap((row) => readRow(row) ?? []);
  }

  async cancel(spaceKey: string, number: number): Promise<Reminder | undefined> {
    const row = this.statements.cancel.get(spaceKey, number);
    return row && readRow(row);
  }

  async claimDue(now: number, leaseMs: number, max: number): Promise<ClaimedReminder[]> {
    checkedClaim(now, leaseMs, max);
    return this.transaction(() => {
      const claims: ClaimedReminder[] = [];
      for (;;) {
        const rows = this.statements.due.all(now, max - claims.length);
        let dropped = 0;
        for (const row of rows) {
          const reminder = readRow(row);
          if (reminder === undefined) {
            // A row this version cannot read would be claimed again at every lease's end: it is dropped.
            this.statements.drop.run(row.id);
            dropped++;
            continue;
          }
          const lease = randomUUID();
          this.statements.lease.run(lease, now + leaseMs, row.id);
          claims.push({ reminder, lease });
        }
        // Claimed rows are ready only after the lease (leaseMs > 0): the next read finds only others.
        if (dropped === 0 || claims.length >= max) return claims;
      }
    });
  }

  async renew(claim: ClaimedReminder, now: number, leaseMs: number): Promise<boolean> {
    checkedClaim(now, leaseMs, 0);
    return this.statements.renew.run(now + leaseMs, claim.reminder.id, claim.lease).changes > 0;
  }

  async markPartSent(claim: ClaimedReminder, part: number): Promise<boolean> {
    const text = checkedPart(part);
    return this.transaction(() => {
      const row = this.statements.parts.get(claim.reminder.id, claim.lease);
      if (row === undefined) return false;
      const sent = row.sent_parts === '' ? [] : row.sent_parts.split(',');
      if (!sent.includes(text)) this.statements.markPart.run([...sent, text].join(','), claim.reminder.id);
      return true;
    });
  }

  async complete(claim: ClaimedReminder, nextDueAt?: number): Promise<boolean> {
    if (nextDueAt === undefined) return this.statements.delete.run(claim.reminder.id, claim.lease).changes > 0;
    checkedTime(nextDueAt);
    return this.statements.next.run(nextDueAt, nextDueAt, claim.reminder.id, claim.lease).changes > 0;
  }

  async nextDueAt(): Promise<number | undefined> {
    return this.statements.earliest.get()?.earliest ?? undefined;
  }

  async moveSpace(from: string, to: string): Promise<void> {
    if (from === to) return;
    this.transaction(() => {
      const numbers = new Set(this.statements.numbers.all(to).map((row) => row.number));
      for (const row of this.statements.moving.all(from)) {
        const number = numbers.has(row.number) ? smallestFreeNumber(numbers) : row.number;
        numbers.add(number);
        this.statements.move.run(to, number, row.id);
      }
    });
  }

  async count(): Promise<number> {
    return this.statements.total.get()?.total ?? 0;
  }

  async spaces(limit: number): Promise<string[]> {
    return this.statements.spaces.all(limit).map((row) => row.space_key);
  }
}

function readRow(row: Row): Reminder | undefined {
  return readReminder({ id: row.id, spaceKey: row.space_key, number: row.number, dueAt: row.due_at, body: row.body, sentParts: row.sent_parts });
}
