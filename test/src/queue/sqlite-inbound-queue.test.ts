import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteInboundQueue } from '../../../src/queue/sqlite-inbound-queue.js';
import { silentLogger } from '../../../src/shared/log.js';
import { queuedMessage as message } from '../../support/queued-message.js';

const folders: string[] = [];
afterEach(() => folders.splice(0).forEach((folder) => rmSync(folder, { recursive: true, force: true })));

function folder(): string {
  const created = mkdtempSync(path.join(os.tmpdir(), 'saeng-inbound-'));
  folders.push(created);
  return created;
}

function open(dataDir: string, now?: () => number) {
  return new SqliteInboundQueue({ dataDir, dedupeTtlMs: 60_000, log: silentLogger(), now });
}

describe('SqliteInboundQueue', () => {
  it('stores a message once: the same platform id again is a duplicate, also after reopening', async () => {
    const dataDir = folder();
    const first = open(dataDir);
    expect(await first.accept(message('1'))).toBe('stored');
    expect(await first.accept(message('1'))).toBe('duplicate');
    expect(await first.accept({ ...message('1'), platform: 'line' })).toBe('stored');
    first.close();
    const second = open(dataDir);
    expect(await second.accept(message('1'))).toBe('duplicate');
    // The direct path's dedupe is the same table.
    expect(await second.remember(message('1'))).toBe(false);
    expect(await second.remember(message('2'))).toBe(true);
    expect(await second.remember(message('2'))).toBe(false);
    second.close();
  });

  it('gives back the stored message as it was, Date and attachments included', async () => {
    const queue = open(':memory:');
    await queue.accept(message('1'));
    expect(await queue.next('telegram:1')).toEqual({ sequence: 1, message: message('1'), answered: false });
    queue.close();
  });

  it('hands out each conversation oldest first; conversations by their oldest message', async () => {
    const queue = open(':memory:');
    await queue.accept(message('a1', 'telegram:a'));
    await queue.accept(message('b1', 'telegram:b'));
    await queue.accept(message('a2', 'telegram:a'));
    expect(await queue.openConversations()).toEqual(['telegram:a', 'telegram:b']);
    const a1 = await queue.next('telegram:a');
    expect(a1?.message.messageId).toBe('a1');
    await queue.finish(a1?.sequence ?? 0, 'done');
    expect((await queue.next('telegram:a'))?.message.messageId).toBe('a2');
    expect(await queue.openConversations()).toEqual(['telegram:b', 'telegram:a']);
    // A remembered (direct-path) message is never handed out.
    await queue.remember(message('c1', 'telegram:c'));
    expect(await queue.next('telegram:c')).toBeUndefined();
    queue.close();
  });

  it('keeps replies and part states across reopening; the final reply marks the message answered', async () => {
    const dataDir = folder();
    const first = open(dataDir);
    await first.accept(message('1'));
    const { sequence } = (await first.next('telegram:1')) ?? { sequence: 0 };
    expect(await first.startAttempt(sequence)).toBe(1);
    await first.storeReply(sequence, 0, { text: 'รูปอ่านไม่ได้', files: [] }, false);
    expect((await first.next('telegram:1'))?.answered).toBe(false);
    await first.storeReply(sequence, 1, { text: 'คำตอบ', files: [{ name: 'a.txt', path: '/tmp/a.txt', mime: 'text/plain', size: 3 }], replyTo: '1' }, true);
    await first.markPart(sequence, 1, 0, 'sending');
    await first.markPart(sequence, 1, 0, 'sent');
    await first.markPart(sequence, 1, 1, 'sending');
    first.close();

    const second = open(dataDir);
    expect(await second.next('telegram:1')).toMatchObject({ sequence, answered: true });
    expect(await second.replies(sequence)).toEqual([
      { index: 0, reply: { text: 'รูปอ่านไม่ได้', files: [] } },
      { index: 1, reply: { text: 'คำตอบ', files: [{ name: 'a.txt', path: '/tmp/a.txt', mime: 'text/plain', size: 3 }], replyTo: '1' } },
    ]);
    expect(await second.parts(sequence, 1)).toEqual(
      new Map([
        [0, 'sent'],
        [1, 'sending'],
      ]),
    );
    expect(await second.startAttempt(sequence)).toBe(2);
    await second.finish(sequence, 'done');
    expect(await second.next('telegram:1')).toBeUndefined();
    second.close();
  });

  it('forgets finished message ids after the dedupe TTL, never an unfinished one', async () => {
    let now = 1_000_000;
    const dataDir = folder();
    const first = open(dataDir, () => now);
    await first.accept(message('done'));
    await first.accept(message('waiting', 'telegram:2'));
    await first.finish((await first.next('telegram:1'))?.sequence ?? 0, 'done');
    first.close();
    now += 60_001;
    const second = open(dataDir, () => now);
    expect(await second.accept(message('done'))).toBe('stored');
    expect(await second.accept(message('waiting', 'telegram:2'))).toBe('duplicate');
    expect((await second.next('telegram:2'))?.message.messageId).toBe('waiting');
    second.close();
  });

  it('gives up a stored row it cannot read instead of blocking its conversation', async () => {
    const dataDir = folder();
    const first = open(dataDir);
    await first.accept(message('1'));
    await first.accept(message('2'));
    first.close();
    const raw = new Database(path.join(dataDir, 'inbound.db'));
    raw.prepare(`UPDATE messages SET body = '{"not":"a message"}' WHERE message_id = '1'`).run();
    raw.close();
    const second = open(dataDir);
    expect((await second.next('telegram:1'))?.message.messageId).toBe('2');
    second.close();
  });

  it('brings an inbound.db of the previous version (no live_message column) up to date, its messages kept', async () => {
    const dataDir = folder();
    const file = path.join(dataDir, 'inbound.db');
    // The messages table exactly as the release before the live message created it (user_version 0).
    const old = new Database(file);
    old.exec(`CREATE TABLE messages (
      sequence INTEGER PRIMARY KEY AUTOINCREMENT, platform TEXT NOT NULL, message_id TEXT NOT NULL, conversation TEXT NOT NULL,
      body TEXT NOT NULL, state TEXT NOT NULL CHECK (state IN ('pending', 'answered', 'done', 'failed')),
      attempts INTEGER NOT NULL DEFAULT 0, accepted_at INTEGER NOT NULL, UNIQUE (platform, message_id))`);
    old
      .prepare(`INSERT INTO messages (platform, message_id, conversation, body, state, accepted_at) VALUES ('telegram', '1', 'telegram:1', ?, 'answered', 1)`)
      .run(JSON.stringify(message('1')));
    old.close();

    const first = open(dataDir);
    const entry = await first.next('telegram:1');
    expect(entry).toEqual({ sequence: 1, message: message('1'), answered: true });
    expect(await first.accept(message('1'))).toBe('duplicate');
    await first.rememberLiveMessage(1, '-100:42');
    first.close();
    // Opening again finds the version reached and changes nothing.
    const second = open(dataDir);
    expect((await second.next('telegram:1'))?.liveMessage).toBe('-100:42');
    second.close();
    const raw = new Database(file, { readonly: true });
    expect(raw.pragma('user_version', { simple: true })).toBe(1);
    expect(raw.prepare(`SELECT count(*) AS columns FROM pragma_table_info('messages') WHERE name = 'live_message'`).get()).toEqual({ columns: 1 });
    raw.close();
  });
});
