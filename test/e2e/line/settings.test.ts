import { afterEach, describe, expect, it } from 'vitest';
import { messagesOf, newestUserContent } from '../../fakes/recorded-messages.js';
import { groupSource, lineGroupId, lineUserId, userSource } from '../../fakes/line/index.js';
import { startLineHarness, type LineHarness } from './line-harness.js';

// /settings through the real @line/bot-sdk on the fake: LINE tells a bot of no group admins, so in a group only
// ADMIN_IDS may change the settings (anyone else is pointed to /whoami); `context 0` keeps the group's chatter out
// of the next question; in a 1:1 chat the user sets their own language, and a group-only topic is refused.

const somchai = lineUserId('somchai');
const boss = lineUserId('boss');
const group = lineGroupId('team');
const chatterHeading = 'ข้อความล่าสุดในแชตนี้ (ไม่ได้ถามบอท):';

let harness: LineHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

function current(): LineHarness {
  if (!harness) throw new Error('no harness');
  return harness;
}

/** A text in the group from `from`; `addressed`: it mentions the bot. Returns the bot's newest text there. */
async function inGroup(from: string, text: string, addressed = false): Promise<string> {
  const mentions = addressed ? { mentions: [{ match: '@แสง', kind: 'self' as const }] } : {};
  await current().deliver(current().line.textEvent({ source: groupSource(group, from), text: addressed ? `@แสง ${text}` : text, ...mentions }));
  return current().sentTexts(group).at(-1) ?? '';
}

async function direct(from: string, text: string): Promise<string> {
  await current().deliver(current().line.textEvent({ source: userSource(from), text }));
  return current().sentTexts(from).at(-1) ?? '';
}

const systemPromptOf = (body: Record<string, unknown> | undefined) => String(messagesOf(body).find((message) => message.role === 'system')?.content ?? '');

describe('LINE /settings', () => {
  it('in a group: refuses a member not in ADMIN_IDS (naming /whoami); a bot admin turns the group chatter off', async () => {
    harness = await startLineHarness({
      environment: { ADMIN_IDS: `line:${boss}` },
      line: {
        users: [
          { userId: somchai, displayName: 'สมชาย' },
          { userId: boss, displayName: 'หัวหน้า' },
        ],
      },
    });
    const { model } = harness;

    const refused = await inGroup(somchai, '/settings context 0');
    expect(refused).toBe('ขออภัยครับ LINE ไม่แจ้งบอทว่าใครเป็นผู้ดูแลกลุ่ม คำสั่ง /settings ในกลุ่ม LINE จึงใช้ได้เฉพาะผู้ดูแลระบบของบอท (ADMIN_IDS) พิมพ์ /whoami เพื่อดูรหัสของคุณ');

    // The bot-wide default: the messages the bot heard without being asked go with the question.
    await inGroup(somchai, 'พรุ่งนี้ประชุมกี่โมงนะ');
    await inGroup(somchai, 'บ่ายสองจ้า ห้องใหญ่');
    model.script({ text: 'พรุ่งนี้ประชุมบ่ายสองที่ห้องใหญ่ครับ' });
    expect(await inGroup(boss, 'สรุปให้หน่อย', true)).toBe('พรุ่งนี้ประชุมบ่ายสองที่ห้องใหญ่ครับ');
    const before = JSON.stringify(newestUserContent(model.chatRequests.at(-1)));
    expect(before).toContain(chatterHeading);
    expect(before).toContain('บ่ายสองจ้า ห้องใหญ่');

    const saved = await inGroup(boss, '/settings context 0');
    expect(saved).toContain('บันทึกแล้ว');
    expect(saved).toContain('ข้อความล่าสุดในกลุ่มที่ส่งไปกับคำถาม: 0 ข้อความ');

    await inGroup(somchai, 'เลื่อนเป็นบ่ายสามแล้วนะ');
    await inGroup(somchai, 'ย้ายไปห้องเล็กด้วย');
    model.script({ text: 'ยังไม่มีข้อมูลการประชุมครับ' });
    expect(await inGroup(boss, 'ประชุมกี่โมงนะ', true)).toBe('ยังไม่มีข้อมูลการประชุมครับ');
    const after = JSON.stringify(newestUserContent(model.chatRequests.at(-1)));
    expect(after).toContain('ประชุมกี่โมงนะ');
    expect(after).not.toContain(chatterHeading);
    expect(after).not.toContain('ย้ายไปห้องเล็กด้วย');
    expect(after).not.toContain('บ่ายสองจ้า');
    expect(model.chatRequests).toHaveLength(2);
    expect(model.unexpected).toEqual([]);
  });

  it('in a 1:1 chat: a group-only topic is refused in Thai; the user sets English for themselves and the next prompt is English', async () => {
    harness = await startLineHarness();
    const { model } = harness;

    expect(await direct(somchai, '/settings trigger every-message')).toBe('ตั้งค่านี้ใช้ได้เฉพาะในกลุ่ม ในแชตส่วนตัวบอทตอบทุกข้อความอยู่แล้ว');

    const saved = await direct(somchai, '/settings language en');
    expect(saved).toMatch(/(Language: English|ภาษา: อังกฤษ)/);
    expect(saved).toMatch(/(Settings of this private chat|การตั้งค่าของแชตส่วนตัวนี้)/);
    // The trigger and group-chatter lines mean nothing in a private chat.
    expect(saved).not.toMatch(/(การเรียกบอทในกลุ่ม|How the bot is called)/);

    model.script({ text: 'The shop is open every day, from morning until evening.' });
    expect(await direct(somchai, 'ร้านเปิดกี่โมงครับ')).toBe('The shop is open every day, from morning until evening.');
    const system = systemPromptOf(model.chatRequests.at(-1));
    expect(system).toMatch(/^You are "/);
    expect(system).toContain('Always answer in English, even when the question is in another language');

    // Only this chat: another user's 1:1 chat still speaks Thai.
    model.script({ text: 'ร้านเปิดทุกวันครับ' });
    await direct(boss, 'ร้านเปิดกี่โมงครับ');
    expect(systemPromptOf(model.chatRequests.at(-1))).toMatch(/^คุณคือ "/);
    expect(model.unexpected).toEqual([]);
  });
});
