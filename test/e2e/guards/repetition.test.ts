import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from '../../fakes/model-server.js';
import { createTestApp, lookupTool, type TestApp } from '../../support/test-app.js';

// Degenerate repetition end to end: the fake streams one unit over and over; the turn must close the connection
// after a few copies (the fake sees it close before it finished) and answer from what it has.

let fake: FakeModelServer;
let test: TestApp;

beforeEach(async () => {
  fake = await startFakeModelServer({ flavour: 'llama-server', declaredTools: true });
  test = createTestApp({
    modelUrl: fake.url,
    environment: { MODEL_TOOLS: 'on', MODEL_VISION: 'off' },
    extraTools: [lookupTool()],
    now: () => new Date('2026-11-29T04:00:00Z'),
  });
});
afterEach(async () => {
  await test.close();
  await fake.close();
});

const cutApology = 'ขออภัย คำตอบของโมเดลผิดปกติจึงถูกตัดไว้';
const times = 200;

describe('degenerate repetition through the turn', () => {
  it('aborts the stream early and sends the Thai apology when no tool ran', async () => {
    fake.script({ repeatText: '"*.gz" "*.bz2" "*.xz" ', times });
    const handled = await test.ask('ไฟล์บีบอัดมีนามสกุลอะไรบ้าง');

    await expect.poll(() => fake.closedEarly).toBe(1);
    expect(fake.repeatsSent).toBeGreaterThanOrEqual(4);
    expect(fake.repeatsSent).toBeLessThan(times / 4);
    expect(fake.chatRequests).toHaveLength(1);
    fake.assertAllConsumed();

    expect(handled.replies).toHaveLength(1);
    expect(handled.replies[0]?.text).toContain(cutApology);
    expect(handled.replies[0]?.text).not.toContain('*.gz');
    expect(handled.turn?.stopReason).toBe('repetition');
    expect(handled.turn?.guardEvents).toContainEqual(expect.objectContaining({ guard: 'repetition', action: 'block' }));
    expect(handled.turn?.drafts.join('')).toContain('"*.gz" "*.bz2" "*.xz"');
  });

  it('answers from the tool log when a tool ran before the loop', async () => {
    fake.script({ toolCalls: [{ name: 'lookup', arguments: { query: 'เวลาเปิด' } }] }, { repeatText: 'ขออภัยในความไม่สะดวก ', times });
    const handled = await test.ask('ร้านเปิดกี่โมง');

    await expect.poll(() => fake.closedEarly).toBe(1);
    expect(fake.repeatsSent).toBeLessThan(times / 4);
    fake.assertAllConsumed();

    const text = handled.replies[0]?.text ?? '';
    expect(text).toContain('ร้านเปิด 08:00–20:00 ทุกวัน');
    expect(text).not.toContain(cutApology);
    expect(text).not.toContain('ขออภัยในความไม่สะดวก ขออภัยในความไม่สะดวก');
    expect(handled.turn?.stopReason).toBe('repetition');
    expect(handled.turn?.toolCalls).toMatchObject([{ name: 'lookup', ok: true }]);
  });

  it('leaves the history without the looping text (the next request carries only the apology)', async () => {
    fake.script({ repeatText: 'ลองใหม่อีกครั้งนะ ', times }, { text: 'ได้เลยค่ะ' });
    await test.ask('ช่วยอธิบายหน่อย');
    await test.ask('ขอบคุณ');
    const history = JSON.stringify(fake.chatRequests[1]?.messages);
    expect(history).not.toContain('ลองใหม่อีกครั้งนะ ลองใหม่อีกครั้งนะ');
    expect(history).toContain(cutApology);
  });

  // Streamed in 8-character deltas, exactly as a model would; nothing here may be cut or rewritten.
  const quiet: [name: string, question: string, answer: string][] = [
    ['a stretched word', 'ร้านนี้อร่อยไหม', 'อร่อยมากกกกกกกกกกกกกกกกกก แนะนำเลยค่ะ'],
    ['ฮ่าๆ laughter', 'เล่ามุกหน่อย', 'ฮ่าๆๆๆๆๆๆๆ ฮ่าฮ่าฮ่าฮ่าฮ่าฮ่า ขำจริง'],
    ['an emoji row', 'สอบผ่านแล้ว', 'ยินดีด้วยค่ะ 🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉 👏🏻👏🏻👏🏻👏🏻👏🏻👏🏻'],
    [
      'a Markdown table with equal cells',
      'เทียบแพ็กเกจให้หน่อย',
      '| แพ็กเกจ | อีเมล | แชต | โทร | ไลน์ |\n|---|---|---|---|---|\n| ทอง | ✓ มี | ✓ มี | ✓ มี | ✓ มี |\n| เงิน | ✓ มี | ✓ มี | ✓ มี | ✓ มี |\n| ทองแดง | ✓ มี | ✓ มี | ✓ มี | ✓ มี |',
    ],
    ['a numbered list of equal items', 'ขั้นตอนคืออะไร', '1. กดปุ่มตกลง\n2. กดปุ่มตกลง\n3. กดปุ่มตกลง\n4. กดปุ่มตกลง\n5. กดปุ่มตกลง\n6. กดปุ่มตกลง'],
    ['three copies only', 'โอเคไหม', 'ตกลงค่ะ ตกลงค่ะ ตกลงค่ะ แล้วเจอกันนะคะ'],
  ];
  it.each(quiet)('does not fire on %s: the reply is the answer byte for byte', async (_name, question, answer) => {
    fake.script({ text: answer });
    const handled = await test.ask(question);
    fake.assertAllConsumed();
    expect(handled.replies.map((reply) => reply.text)).toEqual([answer]);
    expect(handled.turn?.stopReason).toBe('answer');
    expect(handled.turn?.guardEvents.filter((event) => event.guard === 'repetition')).toEqual([]);
    expect(fake.closedEarly).toBe(0);
  });

  it('does not fire on Thai laughter 555… (the stream runs to its end)', async () => {
    fake.script({ text: 'ตลกมาก 5555555555555555555555 จริงๆ' });
    const handled = await test.ask('เล่ามุกหน่อย');
    fake.assertAllConsumed();
    expect(handled.turn?.stopReason).toBe('answer');
    expect(handled.turn?.guardEvents.filter((event) => event.guard === 'repetition')).toEqual([]);
    expect(fake.closedEarly).toBe(0);
  });

  // Bug (see the report): the numbers guard reads laughter as a figure and replaces it with the marker.
  it('keeps Thai laughter 555… in the reply as written', async () => {
    const answer = 'ตลกมาก 5555555555555555555555 จริงๆ';
    fake.script({ text: answer });
    const handled = await test.ask('เล่ามุกหน่อย');
    expect(handled.replies[0]?.text).toBe(answer);
  });

  it('does not fire when the user asked for the repetition, and does when the same stream was not asked for', async () => {
    fake.script({ repeatText: 'สวัสดี ', times: 10, delayMs: 1 });
    const asked = await test.ask('พิมพ์คำว่า สวัสดี 10 ครั้ง');
    expect(asked.replies[0]?.text).toBe(Array.from({ length: 10 }, () => 'สวัสดี').join(' '));
    expect(asked.turn?.stopReason).toBe('answer');
    expect(fake.repeatsSent).toBe(10);
    expect(fake.closedEarly).toBe(0);

    fake.script({ repeatText: 'สวัสดี ', times });
    const unasked = await test.ask('ทักทายหน่อย');
    await expect.poll(() => fake.closedEarly).toBe(1);
    expect(fake.repeatsSent - 10).toBeLessThan(times / 4);
    expect(unasked.turn?.stopReason).toBe('repetition');
    fake.assertAllConsumed();
  });
});
