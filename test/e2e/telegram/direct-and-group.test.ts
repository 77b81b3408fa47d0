import { afterEach, describe, expect, it } from 'vitest';
import { newestUserContent } from '../../fakes/recorded-messages.js';
import { groupChat, privateChat, textMessageUpdate, user } from '../../fakes/telegram/index.js';
import { startTelegramHarness, type TelegramHarness } from './telegram-harness.js';

// Questions through real telegraf polling the fake Bot API, answered by the real app: a direct chat, a group
// where only a mention is answered (as a reply, the mention out of what the model reads), /cmd@otherbot.

const somchai = user(501, 'สมชาย', 'somchai');
const direct = privateChat(somchai);
const group = groupChat(-1001234567890, 'ทีมแสง');

let harness: TelegramHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('Telegram end to end', () => {
  it('answers a direct message in the chat, without a reply quote', async () => {
    harness = await startTelegramHarness();
    harness.model.script({ text: 'สวัสดีครับ **สมชาย**' });
    await harness.deliver(textMessageUpdate({ chat: direct, from: somchai, text: 'สวัสดี' }));
    const [answer] = harness.telegram.sentMessages(direct.id);
    expect(answer).toMatchObject({ text: 'สวัสดีครับ สมชาย', entities: [{ type: 'bold', offset: 11, length: 5 }] });
    expect(answer && 'reply_to_message' in answer).toBe(false);
    expect(harness.telegram.callsOf('sendMessage')[0]?.params.parse_mode).toBe('HTML');
  });

  it('ignores an unaddressed group message and answers a mention as a reply, the mention stripped', async () => {
    harness = await startTelegramHarness();
    await harness.deliver(textMessageUpdate({ chat: group, from: somchai, text: 'ใครไปกินข้าวบ้าง' }));
    expect(harness.handled.at(-1)?.admission).toEqual({ kind: 'ignore', reason: 'group-not-addressed' });
    expect(harness.telegram.sentMessages(group.id)).toEqual([]);

    harness.model.script({ text: 'ร้านเปิด 8 โมงครับ' });
    const question = await harness.deliver(textMessageUpdate({ chat: group, from: somchai, text: '@saeng_test_bot ร้านเปิดกี่โมง' }));
    expect(harness.model.chatRequests).toHaveLength(1);
    expect(JSON.stringify(newestUserContent(harness.model.chatRequests[0]))).toContain('ร้านเปิดกี่โมง');
    expect(JSON.stringify(newestUserContent(harness.model.chatRequests[0]))).not.toContain('@saeng_test_bot');
    const [answer] = harness.telegram.sentMessages(group.id);
    expect(answer).toMatchObject({ text: 'ร้านเปิด 8 โมงครับ', reply_to_message: { message_id: 'message' in question ? question.message.message_id : -1 } });
  });

  it('ignores /cmd@otherbot and answers /help@thisbot', async () => {
    harness = await startTelegramHarness();
    await harness.deliver(textMessageUpdate({ chat: group, from: somchai, text: '/help@other_bot' }));
    expect(harness.handled.at(-1)?.admission).toEqual({ kind: 'ignore', reason: 'command-for-another-bot' });
    await harness.deliver(textMessageUpdate({ chat: group, from: somchai, text: '/help@saeng_test_bot' }));
    expect(harness.sentTexts(group.id)[0]).toContain('/reset');
    expect(harness.model.chatRequests).toHaveLength(0);
  });

  it("keeps a chat's order when a command waits for getChatMember and the next message does not", async () => {
    harness = await startTelegramHarness();
    const { telegram } = harness;
    // One tick, one getUpdates batch: telegraf runs both handlers side by side.
    telegram.pushUpdate(textMessageUpdate({ chat: group, from: somchai, text: '/reset' }));
    const last = telegram.pushUpdate(textMessageUpdate({ chat: group, from: somchai, text: 'ใครไปกินข้าวบ้าง' }));
    await telegram.waitForCall('getUpdates', (call) => Number(call.params.offset) > (last?.update_id ?? Infinity));
    await harness.test.app.inbound.idle();
    expect(telegram.callsOf('getChatMember')).toHaveLength(1);
    expect(harness.handled.map((handled) => handled.admission.reason)).toEqual(['command', 'group-not-addressed']);
  });
});
