import { afterEach, describe, expect, it } from 'vitest';
import { groupChat, textMessageUpdate, user } from '../../fakes/telegram/index.js';
import type { RequestBody } from '../../fakes/model-server.js';
import { fake } from '../../support/fake-tokens.js';
import { startTelegramHarness, type TelegramHarness } from './telegram-harness.js';

// Catch-up through real telegraf on the fake Bot API: a chat administrator turns it on (announced in the group), the
// group's unaddressed messages are logged with a credential masked, "สรุปให้หน่อยว่าคุยอะไรกัน" addressed to the bot
// becomes /summary over the log (the model sees the log as data, never the token), the answer links the topic's
// first message in the supergroup; a daily digest is delivered once when due; off deletes the log and the digest.

const manee = user(611, 'มานี', 'manee');
const somchai = user(612, 'สมชาย', 'somchai');
const somsri = user(613, 'สมศรี', 'somsri');
const kasem = user(614, 'เกษม', 'kasem');
const group = groupChat(-1_001_234_567_802, 'ทีมแสง');
const monday10 = Date.parse('2026-12-07T10:00:00+07:00');
const minute = 60_000;
/** The reminder loop's timer never fires by itself: the test moves the clock and wakes it. */
const handDriven = { schedule: () => () => undefined };

let harness: TelegramHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

function current(): TelegramHarness {
  if (!harness) throw new Error('no harness');
  return harness;
}

async function say(from: typeof manee, text: string, at: number, messageId?: number): Promise<string> {
  await current().deliver(textMessageUpdate({ chat: group, from, text, date: Math.floor(at / 1000), ...(messageId === undefined ? {} : { messageId }) }));
  return current().sentTexts(group.id).at(-1) ?? '';
}

/** The text of every message of a chat request, joined. */
const promptOf = (body: RequestBody | undefined): string => JSON.stringify(body?.['messages'] ?? []);

describe('Telegram catch-up', () => {
  it('logs the group once an admin turns it on, summarizes it on request with links, sends a daily digest once, and forgets it when off', async () => {
    const clock = { now: monday10 };
    harness = await startTelegramHarness({
      now: () => new Date(clock.now),
      reminderScheduler: handDriven,
      telegram: { chats: [group], members: [{ chatId: group.id, userId: manee.id, status: 'administrator' }] },
    });
    const mention = `@${harness.telegram.bot.username}`;

    expect(await say(somchai, '/summary on', clock.now)).toContain('เฉพาะผู้ดูแลกลุ่ม');
    expect(await say(manee, '/summary on', clock.now)).toContain('เก็บข้อความในกลุ่มนี้ไว้ 7 วัน');
    expect(await say(somsri, `${mention} สรุปให้หน่อยว่าคุยอะไรกัน`, clock.now)).toContain('ไม่มีข้อความให้สรุป');

    const token = fake.githubClassic();
    await say(somchai, 'เรื่องงบประมาณปีหน้า ผมเสนอ 1.2 ล้านบาท', monday10 + 1 * minute, 9001);
    await say(somsri, 'เห็นด้วยค่ะ ตกลงตามนี้', monday10 + 2 * minute);
    await say(manee, `โทเคนของ CI คือ ${token} อย่าเผลอแชร์นะ`, monday10 + 3 * minute);
    expect(harness.model.chatRequests).toHaveLength(0); // unaddressed: logged, not answered

    harness.model.script({ text: '## งบประมาณปีหน้า (#1)\n- สมชาย: เสนอ 1.2 ล้านบาท\n- ตกลง: ใช้ตามที่เสนอ' });
    clock.now = monday10 + 30 * minute;
    // Kasem has not said anything: the last day (Somsri would get what came after her last message).
    const summary = await say(kasem, `${mention} สรุปให้หน่อยว่าคุยอะไรกัน`, clock.now);
    expect(harness.model.chatRequests).toHaveLength(1);
    const prompt = promptOf(harness.model.chatRequests[0]);
    expect(prompt).toContain('สมชาย: เรื่องงบประมาณปีหน้า ผมเสนอ 1.2 ล้านบาท');
    expect(prompt).not.toContain(token);
    expect(summary).toContain('งบประมาณปีหน้า');
    expect(summary).toContain('1.2 ล้านบาท');
    expect(summary).toContain('https://t.me/c/1234567802/9001');

    // The daily digest: set for 18:00, sent once when due (the model writes it then), not before.
    expect(await say(manee, '/summary digest 18:00', clock.now)).toContain('ทุกวันเวลา 18:00 น.');
    expect(await say(manee, '/reminders', clock.now)).toContain('สรุปประจำวันของกลุ่ม');
    const before = harness.telegram.sentMessages(group.id).length;
    clock.now = Date.parse('2026-12-07T17:59:00+07:00');
    await harness.test.app.reminders.wake();
    await harness.test.app.reminders.idle();
    expect(harness.telegram.sentMessages(group.id)).toHaveLength(before);
    harness.model.script({ text: '## งบประมาณปีหน้า (#1)\n- ตกลง: 1.2 ล้านบาท' });
    clock.now = Date.parse('2026-12-07T18:00:30+07:00');
    await harness.test.app.reminders.wake();
    await harness.test.app.reminders.idle();
    await harness.test.app.reminders.wake();
    await harness.test.app.reminders.idle();
    const digests = harness.sentTexts(group.id).slice(before);
    expect(digests).toHaveLength(1);
    expect(digests[0]).toContain('📝 สรุปประจำวัน (');
    expect(digests[0]).toContain('งบประมาณปีหน้า');

    // Off: everything kept is deleted, and the digest with it.
    expect(await say(manee, '/summary off', clock.now)).toContain('ลบข้อความที่เก็บไว้ทั้งหมด');
    expect(await say(manee, '/reminders', clock.now)).toContain('ยังไม่มีการเตือนในห้องนี้');
    expect(await say(somsri, '/summary', clock.now)).toContain('ยังไม่ได้เปิดการเก็บข้อความ');
  });
});
