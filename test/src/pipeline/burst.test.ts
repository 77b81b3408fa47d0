import { describe, expect, it } from 'vitest';
import { takeBurst, type BurstOptions } from '../../../src/pipeline/burst.js';
import { queuedReplies, ReplySink, type MessageReplies } from '../../../src/pipeline/reply-journal.js';
import type { SqliteInboundQueue } from '../../../src/queue/sqlite-inbound-queue.js';
import type { Responder } from '../../../src/shared/channel.js';
import type { InboundMessage } from '../../../src/shared/types.js';
import { photo } from '../../support/inbound-message.js';
import { queuedMessage } from '../../support/queued-message.js';
import { queueTestSetup } from '../../support/queue-test-setup.js';

// A burst of questions on the real SQLite queue: which waiting messages join the first, the debounce (a wait the
// test drives, no timers), and exactly once when the process dies between covering the followers and storing the answer.

const conversation = 'telegram:1';
const start = Date.UTC(2026, 11, 6, 9, 30, 0, 250);
const window = 2000;

const queues = queueTestSetup('burst');
const open = (dataDir: string) => queues.sqliteQueue(dataDir);
const tempDir = () => queues.tempDir();

/** Message `id` from `sender`, `atMs` after the start; no attachments unless given. */
function sent(id: string, atMs: number, text: string, sender = '42', attachments: InboundMessage['attachments'] = []): InboundMessage {
  const message = queuedMessage(id, conversation, text);
  return { ...message, sender: { ...message.sender, id: sender }, attachments, receivedAt: new Date(start + atMs) };
}

/** A clock that moves only when the burst waits: each wait is recorded and `during` runs while it lasts. */
function testClock(nowMs: number, during?: (waited: number) => Promise<void>) {
  const waits: number[] = [];
  let now = nowMs;
  return {
    waits,
    settings: {
      windowMs: window,
      now: () => now,
      wait: async (ms: number) => {
        waits.push(ms);
        await during?.(waits.length);
        now += ms;
      },
    },
  };
}

const isQuestion = (message: InboundMessage) => !message.text.startsWith('/');

function optionsAt(nowMs: number, resumed = false): BurstOptions {
  return { settings: testClock(nowMs).settings, isQuestion, resumed };
}

async function headReplies(queue: SqliteInboundQueue): Promise<{ message: InboundMessage; replies: MessageReplies; sequence: number }> {
  const head = await queue.next(conversation);
  if (!head) throw new Error('nothing queued');
  return { message: head.message, sequence: head.sequence, replies: await queuedReplies(queue, head, await queue.startAttempt(head.sequence)) };
}

function recorder(): { responder: Responder; texts: string[] } {
  const texts: string[] = [];
  return { texts, responder: { send: async (reply) => void texts.push(reply.text) } };
}

/** The router's part, for each message in turn: a question's burst's joined text is its answer, stored after the covers. */
async function drain(queue: SqliteInboundQueue, responder: Responder, options: BurstOptions): Promise<void> {
  for (let entry = await queue.next(conversation); entry; entry = await queue.next(conversation)) {
    const attempt = await queue.startAttempt(entry.sequence);
    const replies = await queuedReplies(queue, entry, attempt);
    const sink = new ReplySink(replies, responder);
    await sink.deliverEarlier();
    if (!replies.answered) {
      const burst = isQuestion(entry.message) && (await takeBurst(entry.message, replies, { ...options, resumed: attempt > 1 }));
      if (burst) await burst.cover();
      await sink.final({ text: `ตอบ: ${(burst ? burst.message : entry.message).text}`, files: [] });
    }
    await queue.finish(entry.sequence, 'done');
  }
}

describe('takeBurst', () => {
  it('joins the questions of one sender, each within the window of the one before, and covers them only when asked', async () => {
    const queue = open(':memory:');
    await queue.accept(sent('1', 0, 'พี่แสง', '42', [photo('a')]));
    await queue.accept(sent('2', 1500, 'ช่วยหน่อย'));
    await queue.accept(sent('3', 3000, 'ดูรูปนี้ให้ที', '42', [photo('b')]));
    await queue.accept(sent('4', 9000, 'ถามอีกเรื่อง'));
    const { message, replies, sequence } = await headReplies(queue);
    const burst = await takeBurst(message, replies, optionsAt(start + 20_000));

    expect(burst?.message.text).toBe('พี่แสง\nช่วยหน่อย\nดูรูปนี้ให้ที');
    expect(burst?.message.messageId).toBe('1');
    expect(burst?.message.attachments.map((attachment) => attachment.name)).toEqual(['a.jpg', 'b.jpg']);
    expect(burst?.last.messageId).toBe('3');
    const answered = async () => (await queue.following(conversation, sequence, 10)).map((entry) => [entry.message.messageId, entry.answered]);
    expect(await answered()).toEqual([
      ['2', false],
      ['3', false],
      ['4', false],
    ]);
    await burst?.cover();
    expect(await answered()).toEqual([
      ['2', true],
      ['3', true],
      ['4', false],
    ]);
  });

  it('stops at another sender, a command or a long gap; each later message starts its own', async () => {
    const queue = open(':memory:');
    await queue.accept(sent('1', 0, 'หนึ่ง'));
    await queue.accept(sent('2', 500, 'ของคนอื่น', '77'));
    await queue.accept(sent('3', 1000, 'สอง'));
    await queue.accept(sent('4', 1200, '/help'));
    await queue.accept(sent('5', 1400, 'สาม'));
    await queue.accept(sent('6', 5000, 'สี่'));
    const { responder, texts } = recorder();
    await drain(queue, responder, optionsAt(start + 20_000));
    expect(texts).toEqual(['ตอบ: หนึ่ง', 'ตอบ: ของคนอื่น', 'ตอบ: สอง', 'ตอบ: /help', 'ตอบ: สาม', 'ตอบ: สี่']);
  });

  it('joins at most ten messages and 4,000 characters', async () => {
    const queue = open(':memory:');
    for (let id = 1; id <= 12; id++) await queue.accept(sent(String(id), id * 100, `ข้อ ${id}`));
    const long = open(':memory:');
    await long.accept(sent('1', 0, 'ก'.repeat(3000)));
    await long.accept(sent('2', 100, 'ข'.repeat(999)));
    await long.accept(sent('3', 200, 'ค'));
    const { responder, texts } = recorder();
    await drain(queue, responder, optionsAt(start + 20_000));
    expect(texts.map((text) => text.split('\n').length)).toEqual([10, 2]);
    const first = await headReplies(long);
    const burst = await takeBurst(first.message, first.replies, optionsAt(start + 20_000));
    expect(burst?.message.text.length).toBe(4000);
    expect(burst?.last.messageId).toBe('2');
    // A lower MAX_MESSAGE_CHARS bounds it too: the joined text is never refused as too long.
    expect(await takeBurst(first.message, first.replies, { ...optionsAt(start + 20_000), maxChars: 3500 })).toBeUndefined();
  });

  it('is off at 0: no look at the queue, no wait', async () => {
    const queue = open(':memory:');
    await queue.accept(sent('1', 0, 'หนึ่ง'));
    await queue.accept(sent('2', 100, 'สอง'));
    const clock = testClock(start + 100);
    const { message, replies } = await headReplies(queue);
    expect(await takeBurst(message, replies, { settings: { ...clock.settings, windowMs: 0 }, isQuestion, resumed: false })).toBeUndefined();
    expect(clock.waits).toEqual([]);
  });

  it('waits for the window after the newest message, catching what arrives meanwhile (a debounce)', async () => {
    const queue = open(':memory:');
    await queue.accept(sent('1', 0, 'พี่แสง'));
    // Its turn starts 300 ms after it was sent; the next two arrive while it waits.
    const clock = testClock(start + 300, async (waited) => {
      if (waited === 1) await queue.accept(sent('2', 1800, 'ช่วยหน่อย'));
      if (waited === 2) await queue.accept(sent('3', 3500, 'ดูรูปนี้ให้ที'));
    });
    const { message, replies } = await headReplies(queue);
    const burst = await takeBurst(message, replies, { settings: clock.settings, isQuestion, resumed: false });
    expect(burst?.message.text).toBe('พี่แสง\nช่วยหน่อย\nดูรูปนี้ให้ที');
    // Until 2 s after 1 (at 2000), then 2 s after 2 (3800), then 2 s after 3 (5500): never past the newest's window.
    expect(clock.waits).toEqual([1700, 1800, 1700]);
  });

  it('waits once more per message of the burst at most, even on a clock that does not move', async () => {
    const queue = open(':memory:');
    // Stamped 5 s in the future (a skewed clock): one wait of the window, then the burst is over.
    await queue.accept(sent('1', 5000, 'หนึ่ง'));
    const frozen = { windowMs: window, now: () => start, waits: [] as number[] };
    const { message, replies } = await headReplies(queue);
    const settings = { ...frozen, wait: async (ms: number) => void frozen.waits.push(ms) };
    const burst = await takeBurst(message, replies, { settings, isQuestion, resumed: false });
    expect(burst).toBeUndefined();
    expect(frozen.waits).toEqual([2000]);
  });

  it('does not wait when something else already follows the burst, nor for an old message', async () => {
    const queue = open(':memory:');
    await queue.accept(sent('1', 0, 'หนึ่ง'));
    await queue.accept(sent('2', 100, 'ของคนอื่น', '77'));
    const clock = testClock(start + 200);
    const { message, replies } = await headReplies(queue);
    expect(await takeBurst(message, replies, { settings: clock.settings, isQuestion, resumed: false })).toBeUndefined();
    const old = open(':memory:');
    await old.accept(sent('1', 0, 'หนึ่ง'));
    const late = testClock(start + 60_000);
    const head = await headReplies(old);
    expect(await takeBurst(head.message, head.replies, { settings: late.settings, isQuestion, resumed: false })).toBeUndefined();
    expect([...clock.waits, ...late.waits]).toEqual([]);
  });

  it("counts a whole-second timestamp (Telegram's) from the end of its second", async () => {
    const queue = open(':memory:');
    const onTheSecond = { ...sent('1', 0, 'หนึ่ง'), receivedAt: new Date(Date.UTC(2026, 11, 6, 9, 30, 0)) };
    await queue.accept(onTheSecond);
    const clock = testClock(onTheSecond.receivedAt.getTime() + 400);
    const { message, replies } = await headReplies(queue);
    await takeBurst(message, replies, { settings: clock.settings, isQuestion, resumed: false });
    expect(clock.waits).toEqual([2599]);
  });

  it('answers once, with every text, when the process dies after covering part of the burst', async () => {
    const dataDir = tempDir();
    const first = open(dataDir);
    await first.accept(sent('1', 0, 'หนึ่ง'));
    await first.accept(sent('2', 100, 'สอง'));
    await first.accept(sent('3', 200, 'สาม'));
    const { message, replies } = await headReplies(first);
    // The process dies on its second cover: 2 is covered, 3 is not, no answer stored, nothing sent.
    let covers = 0;
    const dying: MessageReplies = {
      ...replies,
      later: async (limit) =>
        (await replies.later(limit)).map((later) => ({
          ...later,
          cover: async () => {
            if (++covers === 2) throw new Error('killed');
            await later.cover();
          },
        })),
    };
    const burst = await takeBurst(message, dying, optionsAt(start + 20_000));
    await expect(burst!.cover()).rejects.toThrow('killed');
    first.close();

    const { responder, texts } = recorder();
    await drain(open(dataDir), responder, optionsAt(start + 20_000));
    expect(texts).toEqual(['ตอบ: หนึ่ง\nสอง\nสาม']);
  });

  it('joins the followers an earlier attempt covered even when bursts were turned off meanwhile', async () => {
    const dataDir = tempDir();
    const first = open(dataDir);
    await first.accept(sent('1', 0, 'หนึ่ง'));
    await first.accept(sent('2', 100, 'สอง'));
    const { message, replies } = await headReplies(first);
    await (await takeBurst(message, replies, optionsAt(start + 20_000)))?.cover();
    first.close();

    const { responder, texts } = recorder();
    const off = optionsAt(start + 20_000);
    await drain(open(dataDir), responder, { ...off, settings: { ...off.settings, windowMs: 0 } });
    expect(texts).toEqual(['ตอบ: หนึ่ง\nสอง']);
  });

  it('delivers the stored answer as stored after a crash, reading the burst only to reply to its last message', async () => {
    const dataDir = tempDir();
    const first = open(dataDir);
    await first.accept(sent('1', 0, 'หนึ่ง'));
    await first.accept(sent('2', 100, 'สอง'));
    const head = await headReplies(first);
    const burst = await takeBurst(head.message, head.replies, optionsAt(start + 20_000));
    await burst?.cover();
    await head.replies.store(0, { text: `ตอบ: ${burst?.message.text}`, files: [] }, true);
    // A third message arrives before the restart: not part of the answered burst.
    await first.accept(sent('3', 300, 'สาม'));
    first.close();

    const queue = open(dataDir);
    const resumed = await headReplies(queue);
    expect(resumed.replies.answered).toBe(true);
    const read = await takeBurst(resumed.message, resumed.replies, { ...optionsAt(start + 20_000), resumed: true });
    expect(read?.last.messageId).toBe('2');
    await queue.finish(resumed.sequence, 'done');
    const { responder, texts } = recorder();
    await drain(queue, responder, optionsAt(start + 20_000));
    expect(texts).toEqual(['ตอบ: สาม']);
  });
});
