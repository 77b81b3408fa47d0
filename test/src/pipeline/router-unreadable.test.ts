import { afterEach, describe, expect, it } from 'vitest';
import { queuedReplies } from '../../../src/pipeline/reply-journal.js';
import { SqliteInboundQueue } from '../../../src/queue/sqlite-inbound-queue.js';
import type { Responder } from '../../../src/shared/channel.js';
import { silentLogger } from '../../../src/shared/log.js';
import { startFakeModelServer, type FakeModelServer } from '../../fakes/model-server.js';
import { inboundMessage } from '../../support/inbound-message.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

// A voice note or sticker sent to the bot is answered with one line through the final-reply path: no model call, no
// quota, stored in the journal (answered once, also when its attempt is resumed), and silence when not addressed.

let fake: FakeModelServer | undefined;
let test: TestApp | undefined;
afterEach(async () => {
  await test?.close();
  await fake?.close();
  [test, fake] = [undefined, undefined];
});

async function start(environment: Record<string, string> = {}) {
  fake = await startFakeModelServer({ flavour: 'generic' });
  test = createTestApp({ modelUrl: fake.url, environment: { MODEL_TOOLS: 'off', MODEL_VISION: 'off', USER_MESSAGES_PER_MINUTE: '1', ...environment } });
  return { fake, test };
}

const voiceNote = (messageId: string) =>
  inboundMessage({ messageId, chatKind: 'direct', conversationKey: 'telegram:1', spaceKey: 'telegram:1', unreadable: 'voice' });

describe('router: what the bot cannot read', () => {
  it('answers a voice note in a direct chat with the Thai line, without the model or the quota', async () => {
    const { fake, test } = await start();
    const handled = [await test.send(voiceNote('1')), await test.send(voiceNote('2'))];
    expect(handled.map((each) => each.admission)).toEqual([{ kind: 'unreadable', reason: 'direct', what: 'voice' }, expect.anything()]);
    expect(handled.map((each) => each.replies.map((reply) => reply.text))).toEqual([
      [expect.stringMatching(/^ขออภัย แสงยังฟังข้อความเสียงไม่ได้ครับ/)],
      [expect.stringMatching(/^ขออภัย/)],
    ]);
    expect(handled[0]?.replies[0]?.replyTo).toBe('1');
    expect(fake.chatRequests).toHaveLength(0);
  });

  it('speaks English under BOT_LANGUAGE=en and stays silent for a sticker to nobody in a group', async () => {
    const { test } = await start({ BOT_LANGUAGE: 'en' });
    const sticker = await test.send(inboundMessage({ messageId: '3', mentionsBot: true, unreadable: 'sticker' }));
    expect(sticker.replies[0]?.text).toMatch(/^Sorry, I cannot read stickers yet\./);
    const unaddressed = await test.send(inboundMessage({ messageId: '4', unreadable: 'sticker' }));
    expect(unaddressed).toEqual({ admission: { kind: 'ignore', reason: 'empty' }, replies: [] });
  });

  it('delivers the stored line once when its attempt is resumed after a crash, never a second time', async () => {
    const { test } = await start();
    const queue = new SqliteInboundQueue({ dataDir: ':memory:', dedupeTtlMs: 60_000, log: silentLogger() });
    await queue.accept(voiceNote('5'));
    const delivered: string[] = [];
    const crashAfterSend: Responder = {
      send: async (reply, journal) => {
        await journal.sending(0);
        delivered.push(reply.text);
        await journal.sent(0);
        throw new Error('killed');
      },
    };
    const resumed: Responder = { send: async (reply, journal) => void (journal.isSent(0) ? undefined : delivered.push(reply.text)) };
    for (const responder of [crashAfterSend, resumed]) {
      const entry = await queue.next('telegram:1');
      if (!entry) throw new Error('nothing queued');
      const replies = await queuedReplies(queue, entry, await queue.startAttempt(entry.sequence));
      await test.app.router.process(entry.message, responder, replies, { turnDone: () => undefined }).catch(() => undefined);
    }
    expect(delivered).toHaveLength(1);
    queue.close();
  });
});
