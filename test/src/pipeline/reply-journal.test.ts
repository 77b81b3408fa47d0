import { describe, expect, it } from 'vitest';
import { directReplies, queuedReplies, ReplySink } from '../../../src/pipeline/reply-journal.js';
import { SqliteInboundQueue } from '../../../src/queue/sqlite-inbound-queue.js';
import type { Responder } from '../../../src/shared/channel.js';
import { silentLogger } from '../../../src/shared/log.js';
import { queuedMessage } from '../../support/queued-message.js';

// The reply journal: every reply is stored before its parts go out, each part is marked before and after its send,
// and a replay delivers what is stored instead of producing it again.

class Crash extends Error {}

/** Splits a reply on "|" into parts, as a platform adapter splits a long answer; `crashAt` a part stops it like a kill. */
function splittingResponder(delivered: string[], crashAt?: { text: string; when: 'before-sent' | 'after-sent' }): Responder {
  return {
    send: async (reply, journal) => {
      const parts = reply.text.split('|');
      for (const [part, text] of parts.entries()) {
        if (journal.isSent(part)) continue;
        await journal.sending(part);
        delivered.push(text);
        if (crashAt?.text === text && crashAt.when === 'before-sent') throw new Crash();
        await journal.sent(part);
        if (crashAt?.text === text && crashAt.when === 'after-sent') throw new Crash();
      }
    },
  };
}

async function attempt(queue: SqliteInboundQueue, responder: Responder) {
  const entry = await queue.next('telegram:1');
  if (!entry) throw new Error('nothing queued');
  const attempts = await queue.startAttempt(entry.sequence);
  const replies = await queuedReplies(queue, entry, attempts);
  return { entry, sink: new ReplySink(replies, responder), replies };
}

describe('reply journal', () => {
  it('after a crash between two parts of an answer, sends only the part that did not go out', async () => {
    const queue = new SqliteInboundQueue({ dataDir: ':memory:', dedupeTtlMs: 60_000, log: silentLogger() });
    await queue.accept(queuedMessage('1'));
    const delivered: string[] = [];
    const first = await attempt(queue, splittingResponder(delivered, { text: 'ส่วนแรก', when: 'after-sent' }));
    await first.sink.notice({ text: 'รูปอ่านไม่ได้', files: [] });
    await expect(first.sink.final({ text: 'ส่วนแรก|ส่วนสอง', files: [] })).rejects.toThrow(Crash);

    const second = await attempt(queue, splittingResponder(delivered));
    expect(second.replies.answered).toBe(true);
    await second.sink.deliverEarlier();
    expect(delivered).toEqual(['รูปอ่านไม่ได้', 'ส่วนแรก', 'ส่วนสอง']);
    expect(second.sink.sent.map((reply) => reply.text)).toEqual(['รูปอ่านไม่ได้', 'ส่วนแรก|ส่วนสอง']);
    queue.close();
  });

  it('sends again only the part that was in flight at the crash', async () => {
    const queue = new SqliteInboundQueue({ dataDir: ':memory:', dedupeTtlMs: 60_000, log: silentLogger() });
    await queue.accept(queuedMessage('1'));
    const delivered: string[] = [];
    const first = await attempt(queue, splittingResponder(delivered, { text: 'สอง', when: 'before-sent' }));
    await expect(first.sink.final({ text: 'หนึ่ง|สอง|สาม', files: [] })).rejects.toThrow(Crash);
    const second = await attempt(queue, splittingResponder(delivered));
    await second.sink.deliverEarlier();
    expect(delivered).toEqual(['หนึ่ง', 'สอง', 'สอง', 'สาม']);
    queue.close();
  });

  it('a turn cut before its answer runs again: stored notices stand for the new ones, the answer gets the next index', async () => {
    const queue = new SqliteInboundQueue({ dataDir: ':memory:', dedupeTtlMs: 60_000, log: silentLogger() });
    await queue.accept(queuedMessage('1'));
    const delivered: string[] = [];
    const first = await attempt(queue, splittingResponder(delivered));
    await first.sink.notice({ text: 'รูปแรกอ่านไม่ได้', files: [] });
    // Killed during the model call: no answer stored.

    const second = await attempt(queue, splittingResponder(delivered));
    expect(second.replies.answered).toBe(false);
    await second.sink.deliverEarlier();
    await second.sink.notice({ text: 'รูปแรกอ่านไม่ได้ (อีกครั้ง)', files: [] });
    await second.sink.notice({ text: 'รูปสองอ่านไม่ได้', files: [] });
    await second.sink.final({ text: 'คำตอบ', files: [] });
    expect(delivered).toEqual(['รูปแรกอ่านไม่ได้', 'รูปสองอ่านไม่ได้', 'คำตอบ']);
    const stored = await queue.replies(second.entry.sequence);
    expect(stored.map(({ index, reply }) => [index, reply.text])).toEqual([
      [0, 'รูปแรกอ่านไม่ได้'],
      [1, 'รูปสองอ่านไม่ได้'],
      [2, 'คำตอบ'],
    ]);
    expect((await queue.next('telegram:1'))?.answered).toBe(true);
    queue.close();
  });

  it('a replay whose answer is stored delivers nothing more when every part went out', async () => {
    const queue = new SqliteInboundQueue({ dataDir: ':memory:', dedupeTtlMs: 60_000, log: silentLogger() });
    await queue.accept(queuedMessage('1'));
    const delivered: string[] = [];
    const first = await attempt(queue, splittingResponder(delivered));
    await first.sink.final({ text: 'หนึ่ง|สอง', files: [] });
    // Killed before the message was marked done.
    const second = await attempt(queue, splittingResponder(delivered));
    await second.sink.deliverEarlier();
    expect(delivered).toEqual(['หนึ่ง', 'สอง']);
    queue.close();
  });

  it('a first attempt reads nothing back (nothing can be stored before it starts); a second one reads it all', async () => {
    const reads: string[] = [];
    class CountingQueue extends SqliteInboundQueue {
      override async replies(sequence: number) {
        reads.push('replies');
        return super.replies(sequence);
      }
      override async parts(sequence: number, index: number) {
        reads.push('parts');
        return super.parts(sequence, index);
      }
    }
    const queue = new CountingQueue({ dataDir: ':memory:', dedupeTtlMs: 60_000, log: silentLogger() });
    await queue.accept(queuedMessage('1'));
    const delivered: string[] = [];
    const first = await attempt(queue, splittingResponder(delivered, { text: 'สอง', when: 'before-sent' }));
    await first.sink.notice({ text: 'แจ้ง', files: [] });
    await expect(first.sink.final({ text: 'หนึ่ง|สอง', files: [] })).rejects.toThrow(Crash);
    expect(reads).toEqual([]);
    const second = await attempt(queue, splittingResponder(delivered));
    await second.sink.deliverEarlier();
    expect(reads).toEqual(['replies', 'parts', 'parts']);
    expect(delivered).toEqual(['แจ้ง', 'หนึ่ง', 'สอง', 'สอง']);
    queue.close();
  });
});

/** Records each reply with the live message its journal names ('none': the journal has no such key at all). */
function liveRecorder(seen: [string, string][], crashAt?: string): Responder {
  return {
    send: async (reply, journal) => {
      seen.push([reply.text, 'liveMessage' in journal ? String(journal.liveMessage) : 'none']);
      for (const [part, text] of reply.text.split('|').entries()) {
        if (journal.isSent(part)) continue;
        await journal.sending(part);
        if (text === crashAt) throw new Crash();
        await journal.sent(part);
      }
    },
  };
}

describe('reply journal: the live (streamed) message', () => {
  it('names the handle remembered in this attempt in the final reply only, and stores it with the message', async () => {
    const queue = new SqliteInboundQueue({ dataDir: ':memory:', dedupeTtlMs: 60_000, log: silentLogger() });
    await queue.accept(queuedMessage('1'));
    const seen: [string, string][] = [];
    const first = await attempt(queue, liveRecorder(seen));
    expect(first.replies.live.earlier).toBeUndefined();
    await first.sink.notice({ text: 'รูปอ่านไม่ได้', files: [] });
    await first.replies.live.remember('-100:41');
    await first.replies.live.remember('-100:42');
    await first.sink.notice({ text: 'ไฟล์ใหญ่เกิน', files: [] });
    await first.sink.final({ text: 'คำตอบ', files: [] });
    expect(seen).toEqual([
      ['รูปอ่านไม่ได้', 'none'],
      ['ไฟล์ใหญ่เกิน', 'none'],
      ['คำตอบ', '-100:42'],
    ]);
    expect((await queue.next('telegram:1'))?.liveMessage).toBe('-100:42');
    queue.close();
  });

  it('after a crash mid-stream the next attempt continues in the earlier live message and completes it', async () => {
    const queue = new SqliteInboundQueue({ dataDir: ':memory:', dedupeTtlMs: 60_000, log: silentLogger() });
    await queue.accept(queuedMessage('1'));
    const seen: [string, string][] = [];
    const first = await attempt(queue, liveRecorder(seen));
    await first.sink.notice({ text: 'รูปอ่านไม่ได้', files: [] });
    await first.replies.live.remember('-100:42');
    // Killed while the answer streamed: no answer stored, the turn runs again.

    const second = await attempt(queue, liveRecorder(seen));
    expect(second.replies.answered).toBe(false);
    expect(second.replies.live.earlier).toBe('-100:42');
    await second.sink.deliverEarlier();
    await second.sink.notice({ text: 'รูปอ่านไม่ได้ (อีกครั้ง)', files: [] });
    await second.sink.final({ text: 'คำตอบ', files: [] });
    expect(seen).toEqual([
      ['รูปอ่านไม่ได้', 'none'],
      ['รูปอ่านไม่ได้', 'none'],
      ['คำตอบ', '-100:42'],
    ]);
    queue.close();
  });

  it('a stored answer cut mid-delivery is completed in the live message after a restart; its notices name none', async () => {
    const queue = new SqliteInboundQueue({ dataDir: ':memory:', dedupeTtlMs: 60_000, log: silentLogger() });
    await queue.accept(queuedMessage('1'));
    const seen: [string, string][] = [];
    const first = await attempt(queue, liveRecorder(seen, 'สอง'));
    await first.sink.notice({ text: 'แจ้ง', files: [] });
    await first.replies.live.remember('-100:42');
    await expect(first.sink.final({ text: 'หนึ่ง|สอง', files: [] })).rejects.toThrow(Crash);

    const second = await attempt(queue, liveRecorder(seen));
    expect(second.replies.answered).toBe(true);
    await second.sink.deliverEarlier();
    expect(seen).toEqual([
      ['แจ้ง', 'none'],
      ['หนึ่ง|สอง', '-100:42'],
      ['แจ้ง', 'none'],
      ['หนึ่ง|สอง', '-100:42'],
    ]);
    queue.close();
  });

  it('a handle remembered again in the resumed attempt wins over the earlier one', async () => {
    const queue = new SqliteInboundQueue({ dataDir: ':memory:', dedupeTtlMs: 60_000, log: silentLogger() });
    await queue.accept(queuedMessage('1'));
    const seen: [string, string][] = [];
    await (await attempt(queue, liveRecorder(seen))).replies.live.remember('-100:41');
    const second = await attempt(queue, liveRecorder(seen));
    // The earlier message was deleted in the chat meanwhile: the adapter started a new one.
    await second.replies.live.remember('-100:43');
    await second.sink.final({ text: 'คำตอบ', files: [] });
    expect(seen).toEqual([['คำตอบ', '-100:43']]);
    expect((await queue.next('telegram:1'))?.liveMessage).toBe('-100:43');
    queue.close();
  });

  it('the direct path keeps the handle in memory for its final reply', async () => {
    const seen: [string, string][] = [];
    const replies = directReplies();
    const sink = new ReplySink(replies, liveRecorder(seen));
    expect(replies.live.earlier).toBeUndefined();
    await replies.live.remember('7');
    await sink.notice({ text: 'แจ้ง', files: [] });
    await sink.final({ text: 'คำตอบ', files: [] });
    expect(seen).toEqual([
      ['แจ้ง', 'none'],
      ['คำตอบ', '7'],
    ]);
  });
});
