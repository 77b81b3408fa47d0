import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { messagesOf } from '../../fakes/recorded-messages.js';
import { groupChat, textMessageUpdate, user, type NewUpdate } from '../../fakes/telegram/index.js';
import type { FakeTelegramOptions } from '../../fakes/telegram/index.js';
import { githubToken } from '../../support/fake-tokens.js';
import { startTelegramHarness, type TelegramHarness } from './telegram-harness.js';

// /settings through real telegraf on the fake Bot API: a chat administrator (getChatMember) changes the group's
// language, instructions and trigger, a plain member is refused, the model's next request carries them, they
// survive a restart on the same DATA_DIR and follow the group to its supergroup, /status lists them, and an
// instruction holding a credential is refused and not stored.

const manee = user(601, 'มานี', 'manee');
const somchai = user(602, 'สมชาย', 'somchai');
const group = groupChat(-1_001_234_567_890, 'ทีมแสง');
const oldGroup = groupChat(-4_001_234_568, 'ร้านแสง', 'group');
const supergroup = groupChat(-1_004_001_234_568, 'ร้านแสง');
const instructions = 'ตอบสั้น ๆ และลงท้ายด้วย 🌟';

const administrators = (...chats: { id: number }[]): FakeTelegramOptions => ({
  members: chats.map((chat) => ({ chatId: chat.id, userId: manee.id, status: 'administrator' as const })),
});

let harness: TelegramHarness | undefined;
let dataDir: string | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  dataDir = undefined;
});

function current(): TelegramHarness {
  if (!harness) throw new Error('no harness');
  return harness;
}

const mention = (text: string) => `@${current().telegram.bot.username} ${text}`;

/** Sends `text` to `chat` from `from` and returns the bot's newest text in that chat. */
async function say(chat: typeof group, from: typeof manee, text: string): Promise<string> {
  await current().deliver(textMessageUpdate({ chat, from, text }));
  return current().sentTexts(chat.id).at(-1) ?? '';
}

function serviceMessage(fields: Record<string, unknown>): NewUpdate {
  return { message: { message_id: 90, date: Math.floor(Date.now() / 1000), from: manee, ...fields } } as unknown as NewUpdate;
}

const systemPromptOf = (body: Record<string, unknown> | undefined): string =>
  String(messagesOf(body).find((message) => message.role === 'system')?.content ?? '');

describe('Telegram /settings in a group', () => {
  it('refuses a plain member in Thai and changes nothing; the administrator switches to English with instructions, which reach the system prompt', async () => {
    harness = await startTelegramHarness({ telegram: administrators(group) });
    const { model } = harness;

    const refused = await say(group, somchai, '/settings quota 3');
    expect(refused).toBe('ขออภัยครับ คำสั่ง /settings ใช้ได้เฉพาะผู้ดูแลของกลุ่มนี้หรือผู้ดูแลระบบเท่านั้น');
    expect(harness.telegram.callsOf('getChatMember').map((call) => Number(call.params.user_id))).toContain(somchai.id);
    const unchanged = await say(group, manee, '/settings');
    expect(unchanged).toContain('การตั้งค่าของกลุ่มนี้');
    expect(unchanged).toContain('• โควตาต่อผู้ใช้: 10000 ข้อความต่อนาที (ค่าเริ่มต้น)');
    expect(unchanged).not.toContain('แก้ไขล่าสุดโดย');

    await say(group, manee, '/settings language en');
    // From here on the bot speaks English in this group.
    const withInstructions = await say(group, manee, `/settings instructions ${instructions}`);
    expect(withInstructions).toMatch(/^Saved\.\nSettings of this group\n\n?• Language: English\n/);
    expect(withInstructions).toContain(`• Extra instructions for the bot: “${instructions}”`);
    expect(withInstructions).toContain(`Last changed by telegram:${manee.id}`);

    model.script({ text: 'The shop opens in the morning 🌟' });
    const answer = await say(group, somchai, mention('ร้านเปิดกี่โมง'));
    expect(answer).toBe('The shop opens in the morning 🌟');
    const system = systemPromptOf(model.chatRequests.at(-1));
    expect(system).toMatch(/^You are "/);
    expect(system).toContain('Always answer in English, even when the question is in another language');
    expect(
      system.endsWith(`Extra instructions from this group's admins (follow them as long as they do not conflict with the rules above):\n${instructions}`),
    ).toBe(true);
    expect(model.unexpected).toEqual([]);
  });

  // The route's language was read before the command ran: the command confirms a change in the new one itself.
  it('confirms a language change in the new language', async () => {
    harness = await startTelegramHarness({ telegram: administrators(group) });
    const english = await say(group, manee, '/settings language en');
    expect(english).toMatch(/^Saved\.\nSettings of this group\n\n?• Language: English\n/);
  });

  it('answers its name as a word under the name trigger, and every message under every-message', async () => {
    harness = await startTelegramHarness({ telegram: administrators(group) });
    const { model } = harness;
    expect(await say(group, manee, '/settings trigger name')).toContain('• การเรียกบอทในกลุ่ม: แท็ก ตอบกลับ หรือเรียกชื่อ (แสง, saeng)');

    model.script({ text: 'สรุปให้แล้วครับ' });
    expect(await say(group, somchai, 'แสง ช่วยสรุปหน่อย')).toBe('สรุปให้แล้วครับ');
    expect(model.chatRequests).toHaveLength(1);

    const before = harness.sentTexts(group.id).length;
    await harness.deliver(textMessageUpdate({ chat: group, from: somchai, text: 'แสงแดดวันนี้แรงมาก' }));
    expect(harness.sentTexts(group.id)).toHaveLength(before);
    expect(model.chatRequests).toHaveLength(1);
    expect(harness.handled.at(-1)?.admission.reason).toBe('group-not-addressed');

    expect(await say(group, manee, '/settings trigger every-message')).toContain('• การเรียกบอทในกลุ่ม: ตอบทุกข้อความในห้องนี้');
    model.script({ text: 'ร้านเปิดแปดโมงเช้าครับ' });
    expect(await say(group, somchai, 'ร้านเปิดกี่โมงนะ')).toBe('ร้านเปิดแปดโมงเช้าครับ');
    expect(model.chatRequests).toHaveLength(2);
    expect(model.unexpected).toEqual([]);
  });

  it('refuses instructions holding a credential, without storing or echoing it', async () => {
    harness = await startTelegramHarness({ telegram: administrators(group) });
    const token = githubToken('ghp', 3); // checksum-valid, as GitHub issues them
    const refused = await say(group, manee, `/settings instructions ใช้โทเค็นนี้เวลาเรียก GitHub ${token}`);
    expect(refused).toMatch(/^ไม่ได้บันทึก: คำแนะนำนี้มีข้อความที่ดูเหมือนรหัสลับหรือโทเค็น \(.+\) ห้ามใส่ข้อมูลลับในคำแนะนำของบอท$/);
    expect(refused).not.toContain(token.slice(4, 16));
    const shown = await say(group, manee, '/settings');
    expect(shown).toContain('• คำแนะนำเพิ่มเติมสำหรับบอท: ไม่มี');
    for (const text of harness.sentTexts(group.id)) expect(text).not.toContain(token.slice(4, 16));
  });
});

describe('Telegram /settings across a restart and a migration', () => {
  it('keeps the settings on the same DATA_DIR, and /status lists them (the instructions only as their length)', async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'saeng-settings-'));
    const environment = { DATA_DIR: dataDir };
    harness = await startTelegramHarness({ environment, telegram: administrators(group) });
    await say(group, manee, '/settings language en');
    await say(group, manee, `/settings instructions ${instructions}`);
    expect(await say(group, manee, '/settings quota 5')).toContain('• Quota per user: 5 messages a minute');
    await harness.close();

    // A new process on the same DATA_DIR (and a fresh Bot API, numbering its updates anew).
    harness = await startTelegramHarness({ environment, telegram: { ...administrators(group), firstUpdateId: 300_000_001 } });
    const restarted = await say(group, manee, '/settings');
    expect(restarted).toContain('• Language: English');
    expect(restarted).toContain('• Quota per user: 5 messages a minute');
    expect(restarted).toContain(instructions);

    // Anyone sees the settings in /status; the instructions' text only their admins.
    const status = await say(group, somchai, '/status');
    expect(status).toContain('Settings here (/settings)');
    expect(status).toContain('• Language: English');
    expect(status).toContain('• Quota per user: 5 messages a minute');
    expect(status).toContain(`• Extra instructions for the bot: set (${instructions.length} characters; admins see them with /settings)`);
    expect(status).not.toContain(instructions);
  });

  it('moves the settings with the group to its supergroup', async () => {
    harness = await startTelegramHarness({ telegram: administrators(oldGroup, supergroup) });
    await say(oldGroup, manee, '/settings language en');
    await say(oldGroup, manee, `/settings instructions ${instructions}`);
    await say(oldGroup, manee, '/settings trigger every-message');

    harness.telegram.migrateChat(oldGroup.id, supergroup);
    await harness.deliver(serviceMessage({ chat: oldGroup, migrate_to_chat_id: supergroup.id }));
    await harness.deliver(serviceMessage({ chat: supergroup, migrate_from_chat_id: oldGroup.id }));

    const moved = await say(supergroup, manee, '/settings');
    expect(moved).toContain('Settings of this group');
    expect(moved).toContain('• Language: English');
    expect(moved).toContain('• How the bot is called in the group: every message in this channel');
    expect(moved).toContain(instructions);

    // The every-message trigger moved with its conversation: an unaddressed message in the supergroup is answered.
    harness.model.script({ text: 'Sure 🌟' });
    expect(await say(supergroup, somchai, 'ร้านเปิดกี่โมงนะ')).toBe('Sure 🌟');
    expect(systemPromptOf(harness.model.chatRequests.at(-1)).endsWith(instructions)).toBe(true);
  });
});
