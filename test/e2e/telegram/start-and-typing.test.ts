import { afterEach, describe, expect, it } from 'vitest';
import { privateChat, textMessageUpdate, user } from '../../fakes/telegram/index.js';
import { startTelegramHarness, type TelegramHarness } from './telegram-harness.js';

// What the adapter does when it starts (getMe, the command menus per scope, the privacy-mode warning) and the
// typing indicator while a turn runs.

const somchai = user(501, 'สมชาย', 'somchai');
const direct = privateChat(somchai);

let harness: TelegramHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const privacyWarning = (harness: TelegramHarness) => harness.adapterLog.filter((record) => record.warning === 'telegram-privacy-mode');

describe('Telegram start', () => {
  it('publishes the command menus: everyone, and /kb, /usage, /web and /settings for chat administrators, in Thai', async () => {
    harness = await startTelegramHarness();
    const everyone = [
      { command: 'help', description: 'แสดงคำสั่งทั้งหมด' },
      { command: 'status', description: 'สถานะเซิร์ฟเวอร์โมเดลและความสามารถ' },
      { command: 'reset', description: 'ล้างประวัติการสนทนาในห้องนี้' },
      { command: 'whoami', description: 'รหัสผู้ใช้ของคุณ (สำหรับ ADMIN_IDS)' },
    ];
    const reminders = [
      { command: 'remind', description: 'ตั้งเตือนในห้องนี้' },
      { command: 'summary', description: 'สรุปที่คุยกันในกลุ่ม' },
      { command: 'reminders', description: 'รายการการเตือนในห้องนี้' },
    ];
    expect(harness.telegram.commands()).toEqual([...everyone, ...reminders]);
    expect(harness.telegram.commands({ type: 'all_chat_administrators' })).toEqual([
      ...everyone,
      ...reminders,
      { command: 'kb', description: 'จัดการคลังความรู้ (ผู้ดูแล)' },
      { command: 'usage', description: 'สถิติการใช้งานของบอท (ผู้ดูแล)' },
      { command: 'web', description: 'ลิงก์เข้าหน้าผู้ดูแลบนเว็บ (ผู้ดูแล)' },
      { command: 'settings', description: 'ตั้งค่าของกลุ่มนี้ (ผู้ดูแล)' },
    ]);
    expect(harness.telegram.calls[0]?.method).toBe('getMe');
    expect(privacyWarning(harness)).toEqual([]);
  });

  it('lists /research when web search is configured, in English with BOT_LANGUAGE=en', async () => {
    harness = await startTelegramHarness({ environment: { SEARCH_PROVIDER: 'searxng', SEARXNG_URL: 'http://127.0.0.1:9', BOT_LANGUAGE: 'en' } });
    expect(harness.telegram.commands()?.map((command) => command.command)).toEqual([
      'help',
      'status',
      'reset',
      'whoami',
      'research',
      'remind',
      'summary',
      'reminders',
    ]);
    expect(harness.telegram.commands()?.[0]?.description).toBe('Show the commands');
  });

  it('stops cleanly right after start (polling by then)', async () => {
    harness = await startTelegramHarness();
    await harness.adapter.stop();
    // The loop settled only after its last getUpdates (the offset sync) was answered.
    expect(harness.telegram.callsOf('getUpdates').length).toBeGreaterThan(0);
  });

  it('warns once, clearly, when privacy mode hides group messages from the bot', async () => {
    harness = await startTelegramHarness({ telegram: { privacyMode: true } });
    expect(privacyWarning(harness)).toHaveLength(1);
    expect(privacyWarning(harness)[0]?.msg).toContain('privacy mode เปิดอยู่');
    expect(privacyWarning(harness)[0]?.msg).toContain('/setprivacy');
    await harness.deliver(textMessageUpdate({ chat: direct, from: somchai, text: '/status' }));
    expect(harness.sentTexts(direct.id).at(-1)).toContain('ในกลุ่ม บอทเห็นเฉพาะข้อความที่เรียกบอท');
  });

  it('says in /status that the bot reads every group message when privacy mode is off', async () => {
    harness = await startTelegramHarness();
    await harness.deliver(textMessageUpdate({ chat: direct, from: somchai, text: '/status' }));
    expect(harness.sentTexts(direct.id).at(-1)).toContain('ในกลุ่ม บอทเห็นทุกข้อความ');
  });
});

describe('Telegram typing', () => {
  it('shows typing while the model holds its answer, and none after the answer', async () => {
    harness = await startTelegramHarness();
    const { telegram, model, test } = harness;
    const modelAsked = new Promise<void>((resolve) => model.script({ hang: true, expect: () => resolve() }));
    telegram.pushUpdate(textMessageUpdate({ chat: direct, from: somchai, text: 'คิดนาน ๆ หน่อย' }));
    await modelAsked;
    const typing = await telegram.waitForCall('sendChatAction');
    expect(typing.params).toMatchObject({ chat_id: direct.id, action: 'typing' });
    expect(telegram.callsOf('sendMessage')).toEqual([]);
    // The model server goes away: the turn ends with its error sentence.
    await model.close();
    const answer = await telegram.waitForCall('sendMessage');
    await test.app.inbound.idle();
    expect(telegram.calls.filter((call) => call.method === 'sendChatAction' && call.sequence > answer.sequence)).toEqual([]);
    expect(harness.sentTexts(direct.id)).toHaveLength(1);
  });
});
