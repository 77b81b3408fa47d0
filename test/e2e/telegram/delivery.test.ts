import { afterEach, describe, expect, it } from 'vitest';
import { groupChat, parseHtml, privateChat, textMessageUpdate, tooManyRequests, user } from '../../fakes/telegram/index.js';
import { startTelegramHarness, type TelegramHarness } from './telegram-harness.js';

// How answers reach Telegram through the real adapter: long answers in several valid HTML messages in order,
// tables as <pre>, a 429 waited out, and HTML Telegram refuses resent as plain text.

const somchai = user(501, 'สมชาย', 'somchai');
const direct = privateChat(somchai);
const group = groupChat(-1001234567890, 'ทีมแสง');

let harness: TelegramHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const words = [
  'ตลาด',
  'แม่น้ำ',
  'ภูเขา',
  'ข้าวเหนียว',
  'รถไฟ',
  'ห้องสมุด',
  'ดอกไม้',
  'ทะเล',
  'ชาวนา',
  'นักเรียน',
  'กาแฟ',
  'หมู่บ้าน',
  'สะพาน',
  'ฝน',
  'แสงแดด',
  'วัด',
  'ถนน',
  'ป่า',
  'เมือง',
  'เพลง',
];

/** Prose that never repeats itself (the repetition guard would cut a repeated phrase): words drawn by an LCG. */
function varied(seed: number, length: number): string {
  let state = seed * 7919 + 17;
  let text = '';
  while (text.length < length) {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    text += `${words[(state >>> 16) % words.length] ?? ''}${words[(state >>> 21) % words.length] ?? ''} `;
  }
  return text.trim();
}

async function ask(text: string, answer: string): Promise<TelegramHarness> {
  harness = await startTelegramHarness();
  harness.model.script({ text: answer });
  await harness.deliver(textMessageUpdate({ chat: direct, from: somchai, text }));
  return harness;
}

describe('Telegram delivery end to end', () => {
  it('splits a long answer into several valid HTML messages, in order, each within 4096 characters', async () => {
    const ends = ['จบส่วนแรก', 'จบส่วนที่สอง', 'จบส่วนที่สาม'];
    // Under MODEL_MAX_ANSWER_CHARS (6,000), over one message (4,096).
    const paragraphs = ends.map((end, index) => `**หัวข้อ${end.slice(3)}** ${varied(index, 1900)} ${end}`);
    const { telegram, sentTexts } = await ask('เล่ายาว ๆ', paragraphs.join('\n\n'));
    const calls = telegram.callsOf('sendMessage');
    expect(calls.length).toBeGreaterThan(1);
    for (const call of calls) {
      expect(call.params.parse_mode).toBe('HTML');
      expect(call.outcome).toMatchObject({ ok: true });
      expect(parseHtml(String(call.params.text)).text.length).toBeLessThanOrEqual(4096);
    }
    const whole = sentTexts(direct.id).join('');
    const positions = ends.map((end) => whole.indexOf(end));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect(positions).toEqual([...positions].sort((left, right) => left - right));
    expect(
      telegram
        .sentMessages(direct.id)
        .flatMap((message) => ('entities' in message ? (message.entities ?? []) : []))
        .filter((entity) => entity.type === 'bold'),
    ).toHaveLength(3);
  });

  it('renders a Markdown table as <pre>', async () => {
    const { telegram } = await ask('ตารางราคา', '| สินค้า | ราคา |\n|---|---|\n| กาแฟ | 50 |\n| ชา | 40 |');
    const call = telegram.callsOf('sendMessage')[0];
    expect(String(call?.params.text)).toContain('<pre>');
    const [sent] = telegram.sentMessages(direct.id);
    expect(sent && 'entities' in sent ? sent.entities?.map((entity) => entity.type) : []).toContain('pre');
    expect(sent && 'text' in sent ? sent.text : '').toContain('กาแฟ');
  });

  it('waits out a 429 on sendMessage, then delivers the answer once', async () => {
    harness = await startTelegramHarness();
    harness.telegram.failNext('sendMessage', tooManyRequests(0));
    harness.model.script({ text: 'ตอบแล้วครับ' });
    await harness.deliver(textMessageUpdate({ chat: direct, from: somchai, text: 'ถามหน่อย' }));
    expect(harness.telegram.callsOf('sendMessage').map((call) => call.outcome?.ok)).toEqual([false, true]);
    expect(harness.sentTexts(direct.id)).toEqual(['ตอบแล้วครับ']);
    expect(harness.deliveryEvents).toEqual(['rate-limited', 'retried', 'sent']);
  });

  it("resends a part as plain text when Telegram can't parse its entities", async () => {
    harness = await startTelegramHarness();
    harness.telegram.failNext('sendMessage', {
      error_code: 400,
      description: 'Bad Request: can\'t parse entities: Unsupported start tag "x" at byte offset 4',
    });
    harness.model.script({ text: 'คำตอบคือ **ใช่** ครับ' });
    await harness.deliver(textMessageUpdate({ chat: group, from: somchai, text: '@saeng_test_bot ราคาเท่าไร' }));
    const [refused, plain] = harness.telegram.callsOf('sendMessage');
    expect(refused?.params).toMatchObject({ parse_mode: 'HTML', text: 'คำตอบคือ <b>ใช่</b> ครับ' });
    expect(plain?.params.parse_mode).toBeUndefined();
    expect(plain?.params.text).toBe('คำตอบคือ ใช่ ครับ');
    expect(harness.sentTexts(group.id)).toEqual(['คำตอบคือ ใช่ ครับ']);
    expect(harness.adapterLog.map((record) => record.msg)).toContain('telegram refused the HTML of a part; resending it as plain text');
  });
});
