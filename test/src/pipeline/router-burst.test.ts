import { afterEach, describe, expect, it } from 'vitest';
import { queuedReplies } from '../../../src/pipeline/reply-journal.js';
import { SqliteInboundQueue } from '../../../src/queue/sqlite-inbound-queue.js';
import type { Responder } from '../../../src/shared/channel.js';
import { silentLogger } from '../../../src/shared/log.js';
import type { InboundMessage } from '../../../src/shared/types.js';
import { startFakeModelServer, type FakeModelServer } from '../../fakes/model-server.js';
import { newestUserContent } from '../../fakes/recorded-messages.js';
import { inboundMessage } from '../../support/inbound-message.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

// The router's one place for a burst (burst.ts): the joined question goes to the model once, the answer goes through
// the responder of the last message and names it, and the followers are covered only once the answer is stored —
// a turn that fails first leaves them to be answered on their own.

const now = Date.UTC(2026, 11, 6, 9, 30, 0, 500);
const conversation = 'telegram:1';

let fake: FakeModelServer | undefined;
let test: TestApp | undefined;
const queues: SqliteInboundQueue[] = [];
afterEach(async () => {
  queues.splice(0).forEach((queue) => queue.close());
  await test?.close();
  await fake?.close();
  [test, fake] = [undefined, undefined];
});

async function start() {
  fake = await startFakeModelServer({ flavour: 'generic' });
  // Sent 10 s before the clock: past the window, so the burst is read without waiting.
  test = createTestApp({
    modelUrl: fake.url,
    environment: { MODEL_TOOLS: 'off', MODEL_VISION: 'off', BURST_WINDOW_MS: '2000' },
    now: () => new Date(now),
    wait: () => Promise.reject(new Error('no wait expected')),
  });
  const queue = new SqliteInboundQueue({ dataDir: ':memory:', dedupeTtlMs: 60_000, log: silentLogger() });
  queues.push(queue);
  for (const [index, text] of ['พี่แสง', 'ช่วยหน่อย', 'ดูรูปนี้ให้ที'].entries()) {
    const message = inboundMessage({ messageId: String(index + 1), chatKind: 'direct', conversationKey: conversation, spaceKey: conversation, text });
    await queue.accept({ ...message, receivedAt: new Date(now - 10_000 + index * 700) });
  }
  return { fake, test, queue };
}

/** Runs the conversation's next message through the router's queued path; each responder says whose it is. */
async function processNext(test: TestApp, queue: SqliteInboundQueue, answeredBy: string[], working?: Responder['working']) {
  const entry = await queue.next(conversation);
  if (!entry) throw new Error('nothing queued');
  const responderFor = (message: InboundMessage): Responder => ({
    send: async () => void answeredBy.push(message.messageId),
    ...(working ? { working } : {}),
  });
  const replies = await queuedReplies(queue, entry, await queue.startAttempt(entry.sequence));
  try {
    return await test.app.router.process(entry.message, responderFor(entry.message), replies, { turnDone: () => undefined, attempt: 1, responderFor });
  } finally {
    await queue.finish(entry.sequence, 'done');
  }
}

describe('router: a burst', () => {
  it('asks the model once with the texts in order and answers through the last message', async () => {
    const { fake, test, queue } = await start();
    fake.script({ text: 'ได้เลยครับ' });
    const answeredBy: string[] = [];
    const handled = await processNext(test, queue, answeredBy);
    expect(fake.chatRequests).toHaveLength(1);
    expect(JSON.stringify(newestUserContent(fake.chatRequests[0]))).toContain('พี่แสง\\nช่วยหน่อย\\nดูรูปนี้ให้ที');
    expect(handled.replies.map((reply) => [reply.text, reply.replyTo])).toEqual([['ได้เลยครับ', '3']]);
    expect(answeredBy).toEqual(['3']);
    // The two followers complete without a send.
    await processNext(test, queue, answeredBy);
    await processNext(test, queue, answeredBy);
    expect(answeredBy).toEqual(['3']);
    expect(fake.chatRequests).toHaveLength(1);
  });

  it('leaves the followers uncovered when the turn fails before its answer is stored', async () => {
    const { fake, test, queue } = await start();
    const answeredBy: string[] = [];
    const failing = () => {
      throw new Error('the turn failed');
    };
    await expect(processNext(test, queue, answeredBy, failing)).rejects.toThrow('the turn failed');
    // The second starts a burst of its own with the third, as if the first had not been there.
    fake.script({ text: 'ตอบสองข้อ' });
    await processNext(test, queue, answeredBy);
    expect(JSON.stringify(newestUserContent(fake.chatRequests[0]))).toContain('ช่วยหน่อย\\nดูรูปนี้ให้ที');
    expect(answeredBy).toEqual(['3']);
  });
});
