import { afterEach, describe, expect, it } from 'vitest';
import { describeDeliveryFailure, TelegramDeliveryError } from '../../../adapters/telegram/delivery-failure.js';
import { botBlockedByUser, tooManyRequests } from '../../fakes/telegram/index.js';
import { direct, group, setUpDelivery, textsOf, type DeliverySetup } from './delivery-setup.js';

// Rendered parts through real telegraf to the fake: order per chat, 429 and connection retries, the plain-text
// fallback, and 403.

const setups: DeliverySetup[] = [];
afterEach(async () => {
  for (const setup of setups.splice(0)) await setup.close();
});

async function start(options: Parameters<typeof setUpDelivery>[0] = {}): Promise<DeliverySetup> {
  const setup = await setUpDelivery(options);
  setups.push(setup);
  return setup;
}

const html = (text: string) => ({ text, parseMode: 'HTML' as const });

async function failure(promise: Promise<unknown>): Promise<TelegramDeliveryError> {
  const error: unknown = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof TelegramDeliveryError)) throw new Error(`expected a TelegramDeliveryError, got ${String(error)}`);
  return error;
}

describe('TelegramDelivery.sendParts', () => {
  it('sends parts as HTML, the first replying to the question, and reports each part after Telegram took it', async () => {
    const { fake, delivery, question } = await start();
    const asked = question('@saeng_test_bot สรุปให้หน่อย');
    const journal: [number, number][] = [];
    const sent = await delivery.sendParts(group.id, [html('<b>ส่วนที่ 1</b>'), html('ส่วนที่ 2')], {
      replyToMessageId: asked.message_id,
      onPartSent: (index) => {
        journal.push([index, fake.sentMessages(group.id).length]);
      },
    });
    expect(textsOf(sent)).toEqual(['ส่วนที่ 1', 'ส่วนที่ 2']);
    expect(sent[0]).toMatchObject({ entities: [{ type: 'bold', offset: 0, length: 9 }], reply_to_message: { message_id: asked.message_id } });
    expect('reply_to_message' in (sent[1] ?? {})).toBe(false);
    expect(journal).toEqual([
      [0, 1],
      [1, 2],
    ]);
  });

  it('still answers when the question was deleted (allow_sending_without_reply)', async () => {
    const { delivery } = await start();
    const [sent] = await delivery.sendParts(group.id, [html('คำตอบ')], { replyToMessageId: 999_999 });
    expect(sent?.text).toBe('คำตอบ');
  });

  it('keeps two turns of one chat in order while another chat goes ahead', async () => {
    let releaseWait: () => void = () => undefined;
    let waitAsked: (ms: number) => void = () => undefined;
    const asked = new Promise<number>((resolve) => (waitAsked = resolve));
    const { fake, delivery } = await start({
      sleep: (ms) => {
        waitAsked(ms);
        return new Promise((resolve) => (releaseWait = resolve));
      },
    });
    fake.failNext('sendMessage', tooManyRequests(3));
    const first = delivery.sendParts(group.id, [html('ก1'), html('ก2'), html('ก3')]);
    const second = delivery.sendParts(group.id, [html('ข1'), html('ข2')]);
    expect(await asked).toBe(3000);
    // The first turn is held by the flood wait: the second has sent nothing, another chat is not held.
    await delivery.sendParts(direct.id, [html('แชตอื่น')]);
    expect(fake.callsOf('sendMessage').map((call) => call.params.text)).toEqual(['ก1', 'แชตอื่น']);
    releaseWait();
    await Promise.all([first, second]);
    expect(textsOf(fake.sentMessages(group.id))).toEqual(['ก1', 'ก2', 'ก3', 'ข1', 'ข2']);
  });

  it('waits the retry_after of a 429, then sends, and reports the 429, the retry and the one message sent', async () => {
    const { fake, delivery, waits, deliveryEvents } = await start();
    fake.failNext('sendMessage', tooManyRequests(7));
    expect(textsOf(await delivery.sendParts(group.id, [html('หลังรอ')]))).toEqual(['หลังรอ']);
    expect(waits).toEqual([7000]);
    expect(fake.callsOf('sendMessage')).toHaveLength(2);
    expect(deliveryEvents).toEqual(['rate-limited', 'retried', 'sent']);
  });

  it('gives up at once on a flood wait over the cap, with a Thai notice that says how long', async () => {
    const { fake, delivery, waits, deliveryEvents } = await start();
    fake.failNext('sendMessage', tooManyRequests(120));
    const error = await failure(delivery.sendParts(group.id, [html('ไม่ทัน')]));
    expect(error).toMatchObject({ kind: 'rate-limited', sentParts: 0, detail: { retryAfterSeconds: 120 } });
    expect(waits).toEqual([]);
    expect(deliveryEvents).toEqual(['rate-limited']);
    expect(describeDeliveryFailure(error, 'th')).toContain('120 วินาที');
    expect(describeDeliveryFailure(error, 'en')).toContain('120 seconds');
  });

  it('retries lost connections with backoff, then sends', async () => {
    const { fake, delivery, waits, deliveryEvents } = await start();
    fake.disconnectNext('sendMessage', 2);
    expect(textsOf(await delivery.sendParts(group.id, [html('ผ่านแล้ว')]))).toEqual(['ผ่านแล้ว']);
    expect(waits).toEqual([500, 1000]);
    expect(deliveryEvents).toEqual(['retried', 'retried', 'sent']);
  });

  it('stops after a bounded number of lost connections and says how many parts went out', async () => {
    const { fake, delivery, waits } = await start();
    await delivery.sendParts(group.id, [html('ก่อนหน้า')]);
    const parts = [html('หนึ่ง'), html('สอง')];
    const sending = delivery.sendParts(group.id, parts);
    await fake.waitForCall('sendMessage', (call) => call.params.text === 'หนึ่ง');
    fake.disconnectNext('sendMessage', 5);
    const error = await failure(sending);
    expect(error).toMatchObject({ kind: 'network', sentParts: 1 });
    expect(waits).toEqual([500, 1000, 2000, 4000]);
    expect(error.message).not.toContain(fake.token);
  });

  it("resends a part Telegram can't parse as plain text with the same visible words", async () => {
    const { fake, delivery, records, deliveryEvents } = await start();
    const broken = '<b>ราคาทอง</b> วันนี้ &lt;ประมาณ&gt; <i>ขึ้น 200 บาท 📈';
    const [sent] = await delivery.sendParts(group.id, [html(broken)]);
    expect(fake.callsOf('sendMessage').map((call) => call.outcome?.ok)).toEqual([false, true]);
    expect(sent?.text).toBe('ราคาทอง วันนี้ <ประมาณ> ขึ้น 200 บาท 📈');
    expect(fake.callsOf('sendMessage')[1]?.params.parse_mode).toBeUndefined();
    expect(records.filter((record) => record.msg.includes('plain text'))).toHaveLength(1);
    expect(deliveryEvents).toEqual(['sent']);
  });

  it('marks a chat that blocked the bot, logs it once, and sends nothing more there', async () => {
    const { fake, delivery, records, scheduler } = await start();
    fake.failNext('sendMessage', botBlockedByUser());
    const error = await failure(delivery.sendParts(direct.id, [html('หนึ่ง'), html('สอง')]));
    expect(error).toMatchObject({ kind: 'blocked', chatId: direct.id, sentParts: 0 });
    expect(delivery.isBlocked(direct.id)).toBe(true);
    expect((await failure(delivery.sendParts(direct.id, [html('อีกครั้ง')]))).kind).toBe('blocked');
    const typing = delivery.startTyping(direct.id);
    scheduler.advance(10_000);
    await typing.stop();
    expect(fake.callsOf('sendMessage')).toHaveLength(1);
    expect(fake.callsOf('sendChatAction')).toHaveLength(0);
    expect(records.filter((record) => record.msg.includes('unreachable'))).toEqual([
      expect.objectContaining({ level: 40, chatId: direct.id, description: 'Forbidden: bot was blocked by the user' }),
    ]);
    delivery.markReachable(direct.id);
    expect(textsOf(await delivery.sendParts(direct.id, [html('กลับมาแล้ว')]))).toEqual(['กลับมาแล้ว']);
  });

  it('turns another refusal into a typed failure without retrying', async () => {
    const { fake, delivery, waits } = await start();
    const error = await failure(delivery.sendParts(group.id, [html('ก'.repeat(4097))]));
    expect(error).toMatchObject({ kind: 'rejected', detail: { description: 'Bad Request: message is too long' } });
    expect(fake.callsOf('sendMessage')).toHaveLength(1);
    expect(waits).toEqual([]);
  });
});
