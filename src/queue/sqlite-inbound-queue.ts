import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { AcceptResult } from '../shared/channel.js';
import { describeError } from '../shared/describe-error.js';
import { parseInboundMessage } from '../shared/inbound-message-schema.js';
import type { Logger } from '../shared/log.js';
import type { InboundMessage, Platform, Reply } from '../shared/types.js';
import { parseStoredReply } from './stored-reply.js';
import {
  liveMessageFits,
  readLiveMessage,
  readStoredMessage,
  type InboundQueue,
  type PartState,
  type PendingCount,
  type QueuedMessage,
  type QueueStats,
  type StoredReply,
} from './inbound-queue.js';

// Version 0: the tables as the first release made them (an existing DATA_DIR has them, with user_version 0).
const schema = `
CREATE TABLE IF NOT EXISTS messages (
  sequence INTEGER PRIMARY KEY AUTOINCREMENT,
  platform TEXT NOT NULL,
  message_id TEXT NOT NULL,
  conversation TEXT NOT NULL,
  body TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('pending', 'answered', 'done', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  accepted_at INTEGER NOT NULL,
  UNIQUE (platform, message_id)
);
CREATE INDEX IF NOT EXISTS messages_open ON messages (conversation, sequence) WHERE state IN ('pending', 'answered');
CREATE INDEX IF NOT EXISTS messages_accepted ON messages (accepted_at);
CREATE TABLE IF NOT EXISTS replies (
  sequence INTEGER NOT NULL REFERENCES messages (sequence) ON DELETE CASCADE,
  reply_index INTEGER NOT NULL,
  body TEXT NOT NULL,
  PRIMARY KEY (sequence, reply_index)
);
CREATE TABLE IF NOT EXISTS parts (
  sequence INTEGER NOT NULL,
  reply_index INTEGER NOT NULL,
  part INTEGER NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('sending', 'sent')),
  PRIMARY KEY (sequence, reply_index, part),
  FOREIGN KEY (sequence, reply_index) REFERENCES replies (sequence, reply_index) ON DELETE CASCADE
);`;

/** 1: messages.live_message, the streamed answer's platform message id. */
const schemaVersion = 1;

/**
 * Brings the file to `schemaVersion`, one step per version (`PRAGMA user_version`). Under an immediate transaction:
 * the CLI may open the same DATA_DIR at the same moment, and the version is read again under the write lock so
 * each step (an ALTER TABLE is not idempotent) runs once.
 */
function migrate(database: Database.Database): void {
  const version = () => Number(database.pragma('user_version', { simple: true }));
  if (version() >= schemaVersion) return;
  database
    .transaction(() => {
      const from = version();
      if (from >= schemaVersion) return;
      database.exec(schema);
      if (from < 1) database.exec('ALTER TABLE messages ADD COLUMN live_message TEXT');
      database.pragma(`user_version = ${schemaVersion}`);
    })
    .immediate();
}

const purgeEveryMs = 3_600_000;

export interface SqliteInboundQueueOptions {
  /** A directory (the file is `inbound.db` in it) or ':memory:'. */
  dataDir: string;
  /** How long a finished message id is remembered for dedupe (DEDUPE_TTL_SECONDS). */
  dedupeTtlMs: number;
  log: Logger;
  now?: () => number;
}

function openDatabase(file: string, synchronous: 'FULL' | 'NORMAL'): Database.Database {
  const database = new Database(file);
  database.pragma('journal_mode = WAL');
  database.pragma(`synchronous = ${synchronous}`);
  database.pragma('foreign_keys = ON');
  // The CLI may use the same DATA_DIR while the bot runs: wait for the other writer instead of failing.
  database.pragma('busy_timeout = 5000');
  return database;
}

/**
 * The inbound queue in `DATA_DIR/inbound.db`, in WAL mode. Accepting a message commits with `synchronous = FULL`
 * (an fsync): the row survives a killed process and a power cut, so a message acknowledged to the platform is never
 * lost. The progress of its answer (attempts, the stored reply, each part's state) goes through a second connection
 * with `synchronous = NORMAL`: still durable when the process is killed, it skips the fsync per write, which was
 * most of the time the journal added to a reply on a busy disk (bench/platform.ts). After a power cut a part may
 * then go out again, and a turn whose stored answer was lost runs again.
 */
export class SqliteInboundQueue implements InboundQueue {
  private readonly database: Database.Database;
  /** The same file, for the answer's progress; the same connection for ':memory:' (a second would be another database). */
  private readonly journal: Database.Database;
  private readonly statements;
  private readonly now: () => number;
  private lastPurge = 0;

  constructor(private readonly options: SqliteInboundQueueOptions) {
    this.now = options.now ?? Date.now;
    let file = ':memory:';
    if (options.dataDir !== ':memory:') {
      fs.mkdirSync(options.dataDir, { recursive: true });
      file = path.join(options.dataDir, 'inbound.db');
    }
    this.database = openDatabase(file, 'FULL');
    migrate(this.database);
    this.journal = file === ':memory:' ? this.database : openDatabase(file, 'NORMAL');
    const database = this.database;
    const journal = this.journal;
    this.statements = {
      insert: database.prepare<[string, string, string, string, string, number]>(
        `INSERT OR IGNORE INTO messages (platform, message_id, conversation, body, state, accepted_at) VALUES (?, ?, ?, ?, ?, ?)`,
      ),
      next: database.prepare<[string], { sequence: number; body: string; state: string; live_message: string | null }>(
        `SELECT sequence, body, state, live_message FROM messages WHERE conversation = ? AND state IN ('pending', 'answered') ORDER BY sequence LIMIT 1`,
      ),
      following: database.prepare<[string, number, number], { sequence: number; body: string; state: string }>(
        `SELECT sequence, body, state FROM messages WHERE conversation = ? AND state IN ('pending', 'answered') AND sequence > ? ORDER BY sequence LIMIT ?`,
      ),
      open: database.prepare<[], { conversation: string }>(
        `SELECT conversation FROM messages WHERE state IN ('pending', 'answered') GROUP BY conversation ORDER BY min(sequence)`,
      ),
      attempt: journal.prepare<[number], { attempts: number }>(`UPDATE messages SET attempts = attempts + 1 WHERE sequence = ? RETURNING attempts`),
      replies: database.prepare<[number], { reply_index: number; body: string }>(
        `SELECT reply_index, body FROM replies WHERE sequence = ? ORDER BY reply_index`,
      ),
      storeReply: journal.prepare<[number, number, string]>(`INSERT OR IGNORE INTO replies (sequence, reply_index, body) VALUES (?, ?, ?)`),
      answered: journal.prepare<[number]>(`UPDATE messages SET state = 'answered' WHERE sequence = ? AND state = 'pending'`),
      parts: database.prepare<[number, number], { part: number; state: PartState }>(`SELECT part, state FROM parts WHERE sequence = ? AND reply_index = ?`),
      markPart: journal.prepare<[number, number, number, PartState]>(
        `INSERT INTO parts (sequence, reply_index, part, state) VALUES (?, ?, ?, ?) ON CONFLICT (sequence, reply_index, part) DO UPDATE SET state = excluded.state`,
      ),
      // Through the journal connection, like a part mark: the handle is progress of the answer.
      rememberLive: journal.prepare<[string, number]>(`UPDATE messages SET live_message = ? WHERE sequence = ? AND state IN ('pending', 'answered')`),
      finish: journal.prepare<[string, number]>(`UPDATE messages SET state = ? WHERE sequence = ?`),
      giveUp: database.prepare<[number]>(`UPDATE messages SET state = 'failed' WHERE sequence = ?`),
      // Through the partial index of open messages: as cheap as the backlog is small.
      stats: database.prepare<[], { platform: Platform; pending: number; oldest: number }>(
        `SELECT platform, count(*) AS pending, min(accepted_at) AS oldest FROM messages WHERE state IN ('pending', 'answered') GROUP BY platform`,
      ),
      purge: database.prepare<[number]>(`DELETE FROM messages WHERE state IN ('done', 'failed') AND accepted_at < ?`),
    };
    this.purgeExpired();
  }

  async accept(message: InboundMessage): Promise<AcceptResult> {
    return this.insert(message, 'pending') ? 'stored' : 'duplicate';
  }

  async remember(message: InboundMessage): Promise<boolean> {
    return this.insert(message, 'done');
  }

  async next(conversationKey: string): Promise<QueuedMessage | undefined> {
    for (;;) {
      const row = this.statements.next.get(conversationKey);
      if (!row) return undefined;
      try {
        const queued: QueuedMessage = { sequence: row.sequence, message: parseInboundMessage(JSON.parse(row.body)), answered: row.state === 'answered' };
        const liveMessage = readLiveMessage(row.live_message);
        if (liveMessage !== undefined) queued.liveMessage = liveMessage;
        return queued;
      } catch (error) {
        // A row this version cannot read would block its conversation for good.
        this.options.log.error({ conversation: conversationKey, sequence: row.sequence, error: describeError(error) }, 'stored message unreadable: given up');
        this.statements.giveUp.run(row.sequence);
      }
    }
  }

  async following(conversationKey: string, afterSequence: number, limit: number): Promise<QueuedMessage[]> {
    return this.statements.following.all(conversationKey, afterSequence, limit).flatMap((row) => {
      const message = readStoredMessage(row.body);
      return message ? [{ sequence: row.sequence, message, answered: row.state === 'answered' }] : [];
    });
  }

  async openConversations(): Promise<string[]> {
    return this.statements.open.all().map((row) => row.conversation);
  }

  async startAttempt(sequence: number): Promise<number> {
    return this.statements.attempt.get(sequence)?.attempts ?? 0;
  }

  strike(sequences: readonly number[]): void {
    for (const sequence of sequences) this.statements.attempt.run(sequence);
  }

  async replies(sequence: number): Promise<StoredReply[]> {
    return this.statements.replies.all(sequence).map((row) => ({ index: row.reply_index, reply: parseStoredReply(row.body) }));
  }

  async storeReply(sequence: number, index: number, reply: Reply, final: boolean): Promise<void> {
    // One transaction: a stored answer and "the turn is over" are never seen apart.
    this.journal.transaction(() => {
      this.statements.storeReply.run(sequence, index, JSON.stringify(reply));
      if (final) this.statements.answered.run(sequence);
    })();
  }

  async parts(sequence: number, index: number): Promise<Map<number, PartState>> {
    return new Map(this.statements.parts.all(sequence, index).map((row) => [row.part, row.state]));
  }

  async markPart(sequence: number, index: number, part: number, state: PartState): Promise<void> {
    this.statements.markPart.run(sequence, index, part, state);
  }

  async rememberLiveMessage(sequence: number, handle: string): Promise<void> {
    if (!liveMessageFits(handle)) {
      this.options.log.warn({ sequence, chars: handle.length }, 'live message id refused (empty or too long): not stored');
      return;
    }
    this.statements.rememberLive.run(handle, sequence);
  }

  async finish(sequence: number, outcome: 'done' | 'failed'): Promise<void> {
    this.statements.finish.run(outcome, sequence);
  }

  async stats(): Promise<QueueStats> {
    const now = this.now();
    const age = (acceptedAt: number) => Math.max(0, (now - acceptedAt) / 1000);
    const byPlatform: Partial<Record<Platform, PendingCount>> = {};
    let pending = 0;
    let oldest = now;
    for (const row of this.statements.stats.all()) {
      byPlatform[row.platform] = { pending: row.pending, oldestPendingAgeSeconds: age(row.oldest) };
      pending += row.pending;
      oldest = Math.min(oldest, row.oldest);
    }
    return { pending, oldestPendingAgeSeconds: age(oldest), byPlatform };
  }

  close(): void {
    if (this.journal !== this.database) this.journal.close();
    this.database.close();
  }

  private insert(message: InboundMessage, state: 'pending' | 'done'): boolean {
    if (this.now() - this.lastPurge >= purgeEveryMs) this.purgeExpired();
    const body = JSON.stringify(message);
    return this.statements.insert.run(message.platform, message.messageId, message.conversationKey, body, state, this.now()).changes > 0;
  }

  /** Finished messages are forgotten after the dedupe TTL; unfinished ones never are. */
  private purgeExpired(): void {
    this.lastPurge = this.now();
    this.statements.purge.run(this.now() - this.options.dedupeTtlMs);
  }
}
