import { afterEach, describe, expect, it } from 'vitest';
import { groupChat, privateChat, textMessageUpdate, user } from '../../fakes/telegram/index.js';
import { startTelegramHarness, type TelegramHarness } from './telegram-harness.js';

// /whoami through real telegraf on the fake Bot API: anyone learns their id in the form ADMIN_IDS takes, in Thai by
// default; in a group, with BOT_LANGUAGE=en, a bot admin who is not the group's administrator is told both.

const somchai = user(501, 'สมชาย', 'somchai');
const direct = privateChat(somchai);
const group = groupChat(-1001234567890, 'ทีมแสง');

let harness: TelegramHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('Telegram /whoami', () => {
  it('tells a user in a direct chat their ADMIN_IDS id, the platform and the chat, in Thai, and how to become an admin', async () => {
    harness = await startTelegramHarness();
    await harness.deliver(textMessageUpdate({ chat: direct, from: somchai, text: '/whoami' }));
    const answer = harness.sentTexts(direct.id).at(-1) ?? '';
    expect(answer).toContain('รหัสของคุณ (ใส่ใน ADMIN_IDS ได้ตามนี้): telegram:501');
    expect(answer).toContain('แพลตฟอร์ม: Telegram');
    expect(answer).toContain('ห้องสนทนานี้: telegram:501');
    expect(answer).toContain('ผู้ดูแลระบบของบอท (ADMIN_IDS): ไม่ใช่');
    expect(answer).toContain('เพิ่ม telegram:501 ลงใน ADMIN_IDS');
    expect(harness.model.chatRequests).toHaveLength(0);
  });

  it('in a group, in English: the id, the group, a bot admin by ADMIN_IDS but not the group administrator', async () => {
    harness = await startTelegramHarness({ environment: { ADMIN_IDS: 'telegram:501', BOT_LANGUAGE: 'en' } });
    await harness.deliver(textMessageUpdate({ chat: group, from: somchai, text: '/whoami@saeng_test_bot' }));
    const answer = harness.sentTexts(group.id).at(-1) ?? '';
    expect(answer).toContain('Your id (as ADMIN_IDS takes it): telegram:501');
    expect(answer).toContain(`This conversation: telegram:${group.id}`);
    expect(answer).toContain('Bot admin (ADMIN_IDS): yes');
    expect(answer).toContain('Admin of this group: no');
    expect(answer).not.toContain('To become a bot admin');
  });
});
