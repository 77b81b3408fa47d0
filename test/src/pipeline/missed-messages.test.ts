import { describe, expect, it } from 'vitest';
import type { LateSettings } from '../../../src/pipeline/late-answer.js';
import { missedMessagesText } from '../../../src/pipeline/missed-messages.js';
import { queuedReplies, ReplySink, type MessageReplies } from '../../../src/pipeline/reply-journal.js';
import type { SqliteInboundQueue } from '../../../src/queue/sqlite-inbound-queue.js';
import type { Responder } from '../../../src/shared/channel.js';
import type { InboundMessage } from '../../../src/shared/types.js';
import { queuedMessage } from '../../support/queued-message.js';
import { queueTestSetup } from '../../support/queue-test-setup.js';

// The one reply to a stale backlog, on the real SQLite queue: it lists the first missed question and those behind
// it, covers them (each completes later without a send), and stays exactly once when the process dies mid-way.

const now = Date.UTC(2026, 11, 6, 9, 30);
const hour = 3_600_000;
const conversation = 'telegram:1';
const settings: LateSettings = { maxAgeMs: hour / 2, missedAgeMs: 24 * hour, timeZone: 'Asia/Bangkok', language: 'th', now: () => now };
const options = { settings, isQuestion: (message: InboundMessage) => !message.text.startsWith('chatter') };

const queues = queueTestSetup('missed');
const open = (dataDir: string) => queues.sqliteQueue(dataDir);
const tempDir = () => queues.tempDir();

function sentAgo(id: string, ms: number, text = `คำถามที่ ${id}`): InboundMessage {
  return { ...queuedMessage(id, conversation, text), attachments: [], receivedAt: new Date(now - ms) };
}

function recorder(): { responder: Responder; sent: string[] } {
  const sent: string[] = [];
  return { sent, responder: { send: async (reply) => void sent.push(reply.text) } };
}

/** What the worker does with each message of the conversation: a missed head gets the list, a covered one nothing. */
async function drain(queue: SqliteInboundQueue, responder: Responder): Promise<void> {
  for (let entry = await queue.next(conversation); entry; entry = await queue.next(conversation)) {
    const attempt = await queue.startAttempt(entry.sequence);
    const replies = await queuedReplies(queue, entry, attempt);
    const sink = new ReplySink(replies, responder);
    await sink.deliverEarlier();
    if (!replies.answered) await sink.final({ text: await missedMessagesText(entry.message, replies, options), files: [] });
    await queue.finish(entry.sequence, 'done');
  }
}

describe('missedMessagesText', () => {
  it('lists the missed question and the stale ones behind it, shortened; the others complete without a send', async () => {
    const queue = open(':memory:');
    await queue.accept(sentAgo('1', 30 * hour));
    await queue.accept(sentAgo('2', 29 * hour, `ยาวมาก ${'ก'.repeat(200)}`));
    await queue.accept(sentAgo('3', 26 * hour, 'chatter in the group'));
    await queue.accept(sentAgo('4', 25 * hour, 'อะไร *ตัวหนา*'));
    await queue.accept(sentAgo('5', hour, 'คำถามเมื่อชั่วโมงก่อน'));
    const { responder, sent } = recorder();
    const head = await queue.next(conversation);
    await queue.startAttempt(head!.sequence);
    const text = await missedMessagesText(head!.message, await queuedReplies(queue, head!, 1), options);
    const lines = text.split('\n').filter((line) => line.startsWith('- '));
    expect(lines).toEqual([`- 5 ธ.ค. 10:30 น.: คำถามที่ 1`, expect.stringMatching(/^- 5 ธ\.ค\. 11:30 น\.: ยาวมาก ก+…$/), '- 5 ธ.ค. 15:30 น.: อะไร \\*ตัวหนา\\*']);
    expect(lines[1]!.length).toBeLessThan(110);
    expect(text).toContain('ถามใหม่');
    await queue.finish(head!.sequence, 'done');
    // 2 and 4 are covered; the chatter and the one-hour-old question are not.
    const behind = await queue.following(conversation, head!.sequence, 10);
    expect(behind.map((entry) => [entry.message.messageId, entry.answered])).toEqual([
      ['2', true],
      ['3', false],
      ['4', true],
      ['5', false],
    ]);
    const covered = await queue.next(conversation);
    const replies = await queuedReplies(queue, covered!, 2);
    expect(replies.answered).toBe(true);
    await new ReplySink(replies, responder).deliverEarlier();
    expect(sent).toEqual([]);
  });

  it('lists ten and says how many more', async () => {
    const queue = open(':memory:');
    for (let id = 1; id <= 13; id++) await queue.accept(sentAgo(String(id), 48 * hour));
    const { responder, sent } = recorder();
    await drain(queue, responder);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.split('\n').filter((line) => line.startsWith('- '))).toHaveLength(11);
    expect(sent[0]).toContain('…และอีก 3 ข้อความ');
    expect((await queue.stats()).pending).toBe(0);
  });

  it('sends one list, once, when the process dies after covering some of the messages behind', async () => {
    const dataDir = tempDir();
    const first = open(dataDir);
    for (const id of ['1', '2', '3']) await first.accept(sentAgo(id, 30 * hour));
    const head = await first.next(conversation);
    const replies = await queuedReplies(first, head!, await first.startAttempt(head!.sequence));
    // The process dies on its second cover: message 2 is covered, 3 is not, nothing was sent.
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
    await expect(missedMessagesText(head!.message, dying, options)).rejects.toThrow('killed');
    first.close();

    const { responder, sent } = recorder();
    await drain(open(dataDir), responder);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.split('\n').filter((line) => line.startsWith('- '))).toEqual([
      '- 5 ธ.ค. 10:30 น.: คำถามที่ 1',
      '- 5 ธ.ค. 10:30 น.: คำถามที่ 2',
      '- 5 ธ.ค. 10:30 น.: คำถามที่ 3',
    ]);
  });

  it('delivers the stored list as stored when the process died after storing it', async () => {
    const dataDir = tempDir();
    const first = open(dataDir);
    for (const id of ['1', '2']) await first.accept(sentAgo(id, 30 * hour));
    const head = await first.next(conversation);
    const replies = await queuedReplies(first, head!, await first.startAttempt(head!.sequence));
    await replies.store(0, { text: await missedMessagesText(head!.message, replies, options), files: [] }, true);
    first.close();

    const { responder, sent } = recorder();
    await drain(open(dataDir), responder);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toContain('คำถามที่ 2');
  });
});
