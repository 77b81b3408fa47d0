import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { groupChat, textMessageUpdate, user } from '../../fakes/telegram/index.js';
import { startTelegramHarness, type TelegramHarness } from './telegram-harness.js';

// Reminders through real telegraf on the fake Bot API, with the clock in the test's hands: a request in words
// addressed to the bot is confirmed with its absolute time and no model call, delivered once in the group (in reply
// to the request) when the clock reaches it, kept across a restart on the same DATA_DIR, sent late with a note when
// the bot was down at its time, listed and cancelled; an ambiguous time is asked about and nothing is stored.

const manee = user(611, 'มานี', 'manee');
const group = groupChat(-1_001_234_567_801, 'ทีมแสง');
const monday10 = Date.parse('2026-12-07T10:00:00+07:00');
const minute = 60_000;

/** A scheduler that never fires: the test moves the clock and calls `app.reminders.wake()` itself. */
const handDriven = { schedule: () => () => undefined };

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

async function say(text: string): Promise<string> {
  await current().deliver(textMessageUpdate({ chat: group, from: manee, text }));
  return current().sentTexts(group.id).at(-1) ?? '';
}

const start = (clock: { now: number }, environment: Record<string, string> = {}) =>
  // The group exists on Telegram whichever process (and fresh fake Bot API) sends to it.
  startTelegramHarness({ now: () => new Date(clock.now), reminderScheduler: handDriven, environment, telegram: { chats: [group] } });

describe('Telegram reminders', () => {
  it('takes a request in words without calling the model, and delivers it once when due, in reply to the request', async () => {
    const clock = { now: monday10 };
    harness = await start(clock);
    const mention = `@${harness.telegram.bot.username}`;

    const confirmation = await say(`${mention} เตือนประชุมทีมอีก 30 นาทีด้วยนะ`);
    expect(confirmation).toBe('⏰ ตั้งเตือนแล้ว (#1): ประชุมทีม\n🗓️ วันจันทร์ที่ 7 ธันวาคม 2569 เวลา 10:30 น.\nยกเลิกได้ด้วย /remind cancel 1');
    expect(harness.model.chatRequests).toHaveLength(0);
    const request = harness.telegram.sentMessages(group.id).length;

    clock.now = monday10 + 29 * minute;
    await harness.test.app.reminders.wake();
    expect(harness.telegram.sentMessages(group.id)).toHaveLength(request);

    clock.now = monday10 + 30 * minute;
    await harness.test.app.reminders.wake();
    await harness.test.app.reminders.wake();
    const sent = harness.telegram.sentMessages(group.id).slice(request);
    expect(sent).toHaveLength(1);
    expect('text' in sent[0]! ? sent[0].text : '').toBe('⏰ เตือนความจำ: ประชุมทีม\n(ตั้งโดย มานี)');
    const repliedTo = (sent[0] as { reply_to_message?: { text?: string } } | undefined)?.reply_to_message;
    expect(repliedTo?.text).toContain('เตือนประชุมทีมอีก 30 นาที');
    expect(await say('/reminders')).toContain('ยังไม่มีการเตือนในห้องนี้ครับ');
  });

  it('asks about an ambiguous time and stores nothing; lists and cancels with /reminders and /remind cancel', async () => {
    const clock = { now: monday10 };
    harness = await start(clock);
    const mention = `@${harness.telegram.bot.username}`;
    expect(await say(`${mention} พรุ่งนี้ 3 โมง เตือนโทรหาลูกค้า`)).toContain('ไม่แน่ใจว่าหมายถึงช่วงเช้าหรือบ่าย');
    expect(await say('/reminders')).toContain('ยังไม่มีการเตือนในห้องนี้ครับ');
    await say('/remind ทุกวันจันทร์ 8 โมงครึ่ง ส่งรายงาน');
    expect(await say('/reminders')).toContain('#1 ส่งรายงาน — ทุกวันจันทร์ เวลา 08:30 น.');
    expect(await say('/remind cancel 1')).toBe('🗑️ ยกเลิกการเตือน #1 แล้ว: ส่งรายงาน');
    expect(harness.model.chatRequests).toHaveLength(0);
  });

  it('keeps a reminder across a restart and, due while the bot was down, sends it late saying so', async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'saeng-reminders-'));
    const environment = { DATA_DIR: dataDir };
    const clock = { now: monday10 };
    harness = await start(clock, environment);
    await say('/remind พรุ่งนี้ 9 โมงเช้า ส่งใบเสนอราคา');
    await harness.close();

    // Down until Tuesday 11:00: a new process on the same DATA_DIR (and a fresh Bot API).
    clock.now = Date.parse('2026-12-08T11:00:00+07:00');
    harness = await start(clock, environment);
    await harness.test.app.reminders.wake();
    expect(harness.sentTexts(group.id)).toEqual([
      '⏰ เตือนความจำ: ส่งใบเสนอราคา\n(ตั้งโดย มานี)\n(ส่งช้ากว่ากำหนด: ควรเตือนเมื่อ วันอังคารที่ 8 ธันวาคม 2569 เวลา 09:00 น. แต่บอทไม่ได้ทำงานในช่วงนั้น)',
    ]);
    await harness.test.app.reminders.wake();
    expect(harness.sentTexts(group.id)).toHaveLength(1);
  });
});
