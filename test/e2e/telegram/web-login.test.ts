import { afterEach, describe, expect, it } from 'vitest';
import { groupChat, privateChat, textMessageUpdate, user } from '../../fakes/telegram/index.js';
import { openWebLink, serveAdminSite, webLinkPattern } from '../../support/admin-site.js';
import { startTelegramHarness, type TelegramHarness } from './telegram-harness.js';

// `/web` through real telegraf on the fake Bot API: the one-time link goes only to the admin's private chat (a group
// hears that it was sent), and the session it opens has the chat's scope — every group for a bot admin, the one
// group for that group's administrator. Then the link itself, over HTTP, as a browser would open it.

const somchai = user(501, 'สมชาย', 'somchai');
const manee = user(502, 'มานี', 'manee');
const piti = user(503, 'ปิติ', 'piti');
const group = groupChat(-1001234567890, 'ทีมแสง');

let harness: TelegramHarness | undefined;
let site: { baseUrl: string; close(): Promise<void> } | undefined;
afterEach(async () => {
  await site?.close();
  await harness?.close();
  harness = undefined;
  site = undefined;
});

async function start(): Promise<TelegramHarness> {
  harness = await startTelegramHarness({
    environment: { ADMIN_IDS: 'telegram:501' },
    telegram: { chats: [group], members: [{ chatId: group.id, userId: manee.id, status: 'administrator' }] },
  });
  site = await serveAdminSite(harness.test.app);
  return harness;
}

describe('Telegram /web', () => {
  it('gives a bot admin a link in the private chat that opens a session for every group, once', async () => {
    await start();
    const direct = privateChat(somchai);
    await harness?.deliver(textMessageUpdate({ chat: direct, from: somchai, text: '/web' }));
    const answer = harness?.sentTexts(direct.id).at(-1) ?? '';
    expect(answer).toContain('ลิงก์เข้าหน้าผู้ดูแล (ทุกกลุ่ม)');
    const link = webLinkPattern.exec(answer)?.[0] ?? '';
    expect(link).not.toBe('');
    const opened = await openWebLink(link);
    expect(opened.status).toBe(303);
    const page = await fetch(`${opened.origin}/admin`, { headers: { cookie: opened.cookie } });
    expect(await page.text()).toContain('ผู้ดูแลระบบ (ทุกกลุ่ม)');
    expect((await openWebLink(link)).status).toBe(403);
    expect(harness?.model.chatRequests).toHaveLength(0);
  });

  it('sends a group administrator’s link to their private chat, scoped to that group, and none into the group', async () => {
    await start();
    const direct = privateChat(manee);
    // Manee has a private chat with the bot (she pressed Start once).
    await harness?.deliver(textMessageUpdate({ chat: direct, from: manee, text: '/help' }));
    await harness?.deliver(textMessageUpdate({ chat: group, from: manee, text: '/web@saeng_test_bot' }));
    const inGroup = harness?.sentTexts(group.id) ?? [];
    expect(inGroup.at(-1)).toContain('ส่งลิงก์เข้าหน้าผู้ดูแลไปทางแชทส่วนตัวแล้ว');
    expect(inGroup.join('\n')).not.toMatch(/admin\/login/);
    const privately = harness?.sentTexts(direct.id).at(-1) ?? '';
    expect(privately).toContain(`กลุ่มนี้: telegram:${group.id}`);
    const opened = await openWebLink(webLinkPattern.exec(privately)?.[0] ?? '');
    const page = await fetch(`${opened.origin}/admin`, { headers: { cookie: opened.cookie } });
    expect(await page.text()).toContain('ผู้ดูแลกลุ่ม (1 กลุ่ม)');
  });

  it('tells a group administrator without a private chat to open one, and refuses a member', async () => {
    await start();
    await harness?.deliver(textMessageUpdate({ chat: group, from: manee, text: '/web@saeng_test_bot' }));
    expect(harness?.sentTexts(group.id).at(-1)).toContain('กรุณาเปิดแชทส่วนตัวกับบอทก่อน');
    await harness?.deliver(textMessageUpdate({ chat: group, from: piti, text: '/web@saeng_test_bot' }));
    expect(harness?.sentTexts(group.id).at(-1)).toContain('/web ใช้ได้เฉพาะผู้ดูแลระบบของบอท');
    const direct = privateChat(piti);
    await harness?.deliver(textMessageUpdate({ chat: direct, from: piti, text: '/web' }));
    expect(harness?.sentTexts(direct.id).at(-1)).toContain('พิมพ์ /web ในกลุ่มที่คุณดูแล');
    expect([...(harness?.sentTexts(group.id) ?? []), ...(harness?.sentTexts(direct.id) ?? [])].join('\n')).not.toMatch(/admin\/login/);
  });

  it('lists the sessions and logs out of all of them', async () => {
    await start();
    const direct = privateChat(somchai);
    await harness?.deliver(textMessageUpdate({ chat: direct, from: somchai, text: '/web' }));
    const opened = await openWebLink(webLinkPattern.exec(harness?.sentTexts(direct.id).at(-1) ?? '')?.[0] ?? '');
    await harness?.deliver(textMessageUpdate({ chat: direct, from: somchai, text: '/web sessions' }));
    expect(harness?.sentTexts(direct.id).at(-1)).toContain('การเข้าสู่ระบบหน้าผู้ดูแลของคุณ (1)');
    await harness?.deliver(textMessageUpdate({ chat: direct, from: somchai, text: '/web logout all' }));
    expect(harness?.sentTexts(direct.id).at(-1)).toContain('ออกจากระบบหน้าผู้ดูแลทั้งหมดแล้ว (1 รายการ)');
    expect((await fetch(`${opened.origin}/admin`, { headers: { cookie: opened.cookie } })).status).toBe(401);
  });
});
