import { afterEach, describe, expect, it } from 'vitest';
import { groupChat, privateChat, textMessageUpdate, user } from '../../fakes/telegram/index.js';
import { startTelegramHarness, type TelegramHarness } from './telegram-harness.js';

// /usage through real telegraf on the fake Bot API and the real app: two members ask in a group, then the group's
// view (a bot admin), the refusal of a member (Thai), the bot-wide view in a direct chat, and the days moving on
// (the app's clock is injected, so "today" is the test's).

const somchai = user(501, 'สมชาย', 'somchai');
const somying = user(502, 'สมหญิง', 'somying');
const admin = user(901, 'แอดมิน', 'admin');
const group = groupChat(-1001234567890, 'ทีมแสง');
const adminChat = privateChat(admin);

let harness: TelegramHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('Telegram /usage', () => {
  it("counts two members' questions; a bot admin sees 2 turns and both users, a member is refused in Thai", async () => {
    const clock = { at: new Date() };
    harness = await startTelegramHarness({ environment: { ADMIN_IDS: 'telegram:901' }, now: () => clock.at });
    harness.model.script({ text: 'ร้านเปิด 8 โมงครับ' }, { text: 'ปิด 2 ทุ่มครับ' });
    await harness.deliver(textMessageUpdate({ chat: group, from: somchai, text: '@saeng_test_bot ร้านเปิดกี่โมง' }));
    await harness.deliver(textMessageUpdate({ chat: group, from: somying, text: '@saeng_test_bot ร้านปิดกี่โมง' }));
    expect(harness.model.chatRequests).toHaveLength(2);

    await harness.deliver(textMessageUpdate({ chat: group, from: admin, text: '/usage@saeng_test_bot' }));
    const view = harness.sentTexts(group.id).at(-1) ?? '';
    expect(view).toContain(`การใช้งานของกลุ่มนี้ (telegram:${group.id})`);
    expect(view).toMatch(/• วันนี้: 2 ครั้ง · เวลาโมเดล \d+ วินาที · โทเค็นพรอมต์ \d+/);
    expect(view).toContain('ผู้ใช้ที่ใช้มากที่สุด (7 วัน):');
    expect(view).toMatch(/\d\. สมชาย — 1 ครั้ง/);
    expect(view).toMatch(/\d\. สมหญิง — 1 ครั้ง/);
    expect(view).not.toContain('แอดมิน');

    await harness.deliver(textMessageUpdate({ chat: group, from: somchai, text: '/usage' }));
    expect(harness.sentTexts(group.id).at(-1)).toBe('ขออภัยครับ คำสั่ง /usage ใช้ได้เฉพาะผู้ดูแลของกลุ่มนี้หรือผู้ดูแลระบบเท่านั้น');

    // In a direct chat the bot admin sees every space.
    await harness.deliver(textMessageUpdate({ chat: adminChat, from: admin, text: '/usage 30d' }));
    const all = harness.sentTexts(adminChat.id).at(-1) ?? '';
    expect(all).toContain('การใช้งานทั้งหมดของบอท');
    expect(all).toContain('กลุ่ม/แชตที่ใช้มากที่สุด (30 วัน):');
    expect(all).toContain(`1. telegram:${group.id} — 2 ครั้ง`);

    // Eight days on: nothing today, both turns still in the 30 days.
    clock.at = new Date(clock.at.getTime() + 8 * 86_400_000);
    await harness.deliver(textMessageUpdate({ chat: adminChat, from: admin, text: '/usage today' }));
    const later = harness.sentTexts(adminChat.id).at(-1) ?? '';
    expect(later).toMatch(/• วันนี้: 0 ครั้ง/);
    expect(later).toMatch(/• 7 วัน: 0 ครั้ง/);
    expect(later).toMatch(/• 30 วัน: 2 ครั้ง/);
    expect(later).toContain('(ยังไม่มีการใช้งานในช่วงนี้)');
    expect(harness.model.chatRequests).toHaveLength(2);
  });

  it("lets the group's own administrator see the group, in English under BOT_LANGUAGE=en", async () => {
    harness = await startTelegramHarness({ environment: { BOT_LANGUAGE: 'en' } });
    harness.telegram.setMember(group.id, admin.id, 'administrator');
    harness.model.script({ text: 'Opens at 8.' });
    await harness.deliver(textMessageUpdate({ chat: group, from: somchai, text: '@saeng_test_bot when do you open?' }));
    await harness.deliver(textMessageUpdate({ chat: group, from: admin, text: '/usage' }));
    const view = harness.sentTexts(group.id).at(-1) ?? '';
    expect(view).toContain(`Usage of this group (telegram:${group.id})`);
    expect(view).toMatch(/• Today: turns 1 · model time \d+ s/);
    expect(view).toMatch(/1\. สมชาย — turns 1/);
    // Not a bot admin: the bot-wide view in a direct chat is refused.
    await harness.deliver(textMessageUpdate({ chat: adminChat, from: admin, text: '/usage' }));
    expect(harness.sentTexts(adminChat.id).at(-1)).toBe('Sorry, /usage is only for the bot admins (ADMIN_IDS). Type /whoami to see your id for ADMIN_IDS.');
  });
});
