import { afterEach, describe, expect, it } from 'vitest';
import { newestUserContent } from '../../fakes/recorded-messages.js';
import { groupChat, mediaUpdate, privateChat, user } from '../../fakes/telegram/index.js';
import { startTelegramHarness, type TelegramHarness } from './telegram-harness.js';

// Voice notes, videos and stickers through real telegraf and the real app: one sent to the bot is answered with
// what the bot can read (no model call), a caption is answered as the question, and one to nobody in a group gets
// nothing, as before.

const somchai = user(701, 'สมชาย', 'somchai');
const group = groupChat(-1001234567890, 'ทีมแสง');

let harness: TelegramHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('Telegram messages the bot cannot read', () => {
  it('answers a voice note in a private chat with the Thai line, without the model', async () => {
    harness = await startTelegramHarness();
    const chat = privateChat(somchai);
    await harness.deliver(mediaUpdate({ chat, from: somchai, kind: 'voice' }));
    expect(harness.sentTexts(chat.id)).toEqual([expect.stringMatching(/^ขออภัย แสงยังฟังข้อความเสียงไม่ได้ครับ .*\/kb add/)]);
    expect(harness.handled.map((handled) => handled.admission)).toEqual([{ kind: 'unreadable', reason: 'direct', what: 'voice' }]);
    expect(harness.model.chatRequests).toHaveLength(0);
  });

  it('answers the caption of a video that mentions the bot, and leaves a sticker to nobody in the group unanswered', async () => {
    harness = await startTelegramHarness();
    harness.model.script({ text: 'น่าจะเป็นเชียงใหม่ครับ' });
    await harness.deliver(mediaUpdate({ chat: group, from: somchai, kind: 'video', caption: '@saeng_test_bot คลิปนี้ถ่ายที่ไหน' }));
    expect(newestUserContent(harness.model.chatRequests[0])).toContain('คลิปนี้ถ่ายที่ไหน');
    await harness.deliver(mediaUpdate({ chat: group, from: somchai, kind: 'sticker' }));
    expect(harness.sentTexts(group.id)).toEqual(['น่าจะเป็นเชียงใหม่ครับ']);
    expect(harness.handled.map((handled) => handled.admission.reason)).toEqual(['mention', 'empty']);
  });
});
