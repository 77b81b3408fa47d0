import { afterEach, describe, expect, it } from 'vitest';
import { newestUserContent } from '../../fakes/recorded-messages.js';
import { groupChat, privateChat, textMessageUpdate, user } from '../../fakes/telegram/index.js';
import type { NewUpdate } from '../../fakes/telegram/index.js';
import { deferred } from '../../support/queued-message.js';
import { startTelegramHarness, type TelegramHarness } from './telegram-harness.js';

// A burst ("พี่แสง", "ช่วยหน่อย", "ดูรูปนี้ให้ที") through real telegraf polling the fake Bot API and the real app: one
// model request with the three texts in order, one answer in reply to the third. The burst's wait is the test's: it
// returns once all three are stored and moves the app's clock by what was asked (no timers, no sleeps).

const somchai = user(503, 'สมชาย', 'somchai');
const malee = user(504, 'มาลี', 'malee');
const direct = privateChat(somchai);
const group = groupChat(-1001234567891, 'ทีมแสง');
const burst = ['พี่แสง', 'ช่วยหน่อย', 'ดูรูปนี้ให้ที'];

let harness: TelegramHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** A harness whose burst waits hold until `stored` resolves; `waits` records each wait asked for. */
async function burstHarness(windowMs: string) {
  let clock = Date.now();
  const stored = deferred();
  const waits: number[] = [];
  const started = await startTelegramHarness({
    environment: { BURST_WINDOW_MS: windowMs },
    now: () => new Date(clock),
    wait: async (ms) => {
      waits.push(ms);
      await stored.promise;
      clock += ms;
    },
  });
  harness = started;
  /** Pushes the updates one by one (each its own getUpdates answer or not), then lets the waits end. */
  const deliverAll = async (updates: NewUpdate[]) => {
    const pushed = updates.map((update) => started.telegram.pushUpdate(update));
    const last = pushed.at(-1);
    await started.telegram.waitForCall('getUpdates', (call) => Number(call.params.offset) > (last?.update_id ?? Infinity));
    stored.resolve();
    await started.test.app.inbound.idle();
    return pushed;
  };
  return { harness: started, waits, deliverAll };
}

const userText = (body: unknown) => JSON.stringify(newestUserContent(body as Parameters<typeof newestUserContent>[0]));

describe('Telegram: a burst becomes one turn', () => {
  it('answers three quick messages in a private chat with one model request and one answer', async () => {
    const { harness, waits, deliverAll } = await burstHarness('2000');
    harness.model.script({ text: 'ได้เลยครับ ส่งรูปมาได้เลย' });
    await deliverAll(burst.map((text) => textMessageUpdate({ chat: direct, from: somchai, text })));

    expect(harness.model.chatRequests).toHaveLength(1);
    const asked = userText(harness.model.chatRequests[0]);
    expect(asked).toContain(burst.join('\\n'));
    expect(harness.sentTexts(direct.id)).toEqual(['ได้เลยครับ ส่งรูปมาได้เลย']);
    // The first one's turn waited for the window (whole seconds: at most 2 s after the end of the newest's second).
    expect(waits.length).toBeGreaterThan(0);
    expect(Math.max(...waits)).toBeLessThanOrEqual(2999);
    // Each was handled; the two joined ones sent nothing of their own.
    expect(harness.handled.map((handled) => handled.replies.length)).toEqual([1, 0, 0]);
  });

  it('replies to the third message of a burst in a group', async () => {
    const { harness, deliverAll } = await burstHarness('2000');
    harness.model.script({ text: 'ส่งรูปมาได้เลยครับ' });
    const pushed = await deliverAll(burst.map((text) => textMessageUpdate({ chat: group, from: somchai, text: `@saeng_test_bot ${text}` })));

    expect(harness.model.chatRequests).toHaveLength(1);
    expect(userText(harness.model.chatRequests[0])).toContain(burst.join('\\n'));
    const third = pushed[2];
    const sent = harness.telegram.sentMessages(group.id);
    expect(sent).toEqual([
      expect.objectContaining({
        text: 'ส่งรูปมาได้เลยครับ',
        reply_to_message: expect.objectContaining({ message_id: third && 'message' in third ? third.message.message_id : -1 }),
      }),
    ]);
  });

  it('is broken by another person speaking in between', async () => {
    const { harness, deliverAll } = await burstHarness('2000');
    for (const text of ['ตอบหนึ่ง', 'ตอบสอง', 'ตอบสาม']) harness.model.script({ text });
    await deliverAll([
      textMessageUpdate({ chat: group, from: somchai, text: '@saeng_test_bot พี่แสง' }),
      textMessageUpdate({ chat: group, from: malee, text: '@saeng_test_bot ของฉันด้วย' }),
      textMessageUpdate({ chat: group, from: somchai, text: '@saeng_test_bot ช่วยหน่อย' }),
    ]);
    expect(harness.model.chatRequests).toHaveLength(3);
    expect(harness.sentTexts(group.id)).toEqual(['ตอบหนึ่ง', 'ตอบสอง', 'ตอบสาม']);
  });

  it('answers each message on its own with BURST_WINDOW_MS=0, without waiting', async () => {
    const { harness, waits, deliverAll } = await burstHarness('0');
    for (const text of ['ตอบหนึ่ง', 'ตอบสอง', 'ตอบสาม']) harness.model.script({ text });
    await deliverAll(burst.map((text) => textMessageUpdate({ chat: direct, from: somchai, text })));
    expect(harness.model.chatRequests).toHaveLength(3);
    expect(harness.sentTexts(direct.id)).toEqual(['ตอบหนึ่ง', 'ตอบสอง', 'ตอบสาม']);
    expect(waits).toEqual([]);
  });
});
