import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from '../../fakes/model-server.js';
import { createTestApp, lookupTool, type TestApp } from '../../support/test-app.js';
import { expectToolsBarred } from '../../support/prompt-prefix.js';

// Refusal replacement end to end: a Thai question, a tool that found something, and a model that answers with an
// English stock refusal or a step-budget sentinel. The user gets a Thai answer built from the tool log (with its
// sources); Thai answers that merely apologise are left alone.

let fake: FakeModelServer;
let test: TestApp;

const shopHours = 'ร้านเปิด 08:00–20:00 ทุกวัน [source: https://shop.example.com/hours]';

function appWith(environment: Record<string, string> = {}): TestApp {
  return createTestApp({
    modelUrl: fake.url,
    environment: { MODEL_TOOLS: 'on', MODEL_VISION: 'off', ...environment },
    extraTools: [lookupTool(() => shopHours)],
    now: () => new Date('2026-11-29T04:00:00Z'),
  });
}

beforeEach(async () => {
  fake = await startFakeModelServer({ flavour: 'llama-server', declaredTools: true });
  test = appWith();
});
afterEach(async () => {
  await test.close();
  await fake.close();
});

const fromToolLog = 'ขออภัย ยังสรุปคำตอบได้ไม่ครบ แต่นี่คือสิ่งที่ค้นพบระหว่างทาง:';
const lookupCall = { toolCalls: [{ name: 'lookup', arguments: { query: 'เวลาเปิด' } }] };

describe('refusal replacement through the turn', () => {
  const replaced: [name: string, answer: string][] = [
    ['the step-budget sentinel', 'Sorry, need more steps to process this request.'],
    ['an agent-trace stop line', 'Agent stopped due to iteration limit or time limit.'],
    ['an English stock refusal', "I'm sorry, but I can't help with that."],
    ['an "as an AI" refusal', 'As an AI language model, I do not have access to real-time store hours.'],
  ];
  it.each(replaced)('Thai question, tool ran, %s → a Thai answer from the tool log with its source', async (_name, answer) => {
    fake.script(lookupCall, { text: answer });
    const handled = await test.ask('ร้านเปิดกี่โมงคะ');
    fake.assertAllConsumed();

    const text = handled.replies[0]?.text ?? '';
    expect(text.startsWith(fromToolLog)).toBe(true);
    expect(text).toContain('ร้านเปิด 08:00–20:00 ทุกวัน');
    expect(text).toContain('**แหล่งที่มา**\n1. https://shop.example.com/hours');
    expect(text).not.toContain(answer);
    expect(text).not.toContain('[source:');
    expect(handled.turn?.guardEvents).toContainEqual(expect.objectContaining({ guard: 'refusal', action: 'rewrite' }));
  });

  it('no tool ran → the short Thai apology instead of the English refusal', async () => {
    fake.script({ text: "I'm sorry, but I can't help with that." });
    const handled = await test.ask('ช่วยแนะนำร้านอาหารแถวนี้หน่อย');
    expect(handled.replies[0]?.text).toBe('ขออภัย ครั้งนี้ยังตอบคำถามนี้ไม่ได้ กรุณาถามใหม่อีกครั้ง หรือถามให้เจาะจงขึ้น');
  });

  it('the step limit with the model still asking for tools → a Thai answer from the tool log', async () => {
    await test.close();
    test = appWith({ MODEL_MAX_STEPS: '2' });
    fake.script(lookupCall, { toolCalls: [{ name: 'lookup', arguments: { query: 'วันหยุด' } }], expect: (body) => expectToolsBarred(body) });
    const handled = await test.ask('ร้านเปิดกี่โมง หยุดวันไหน');
    fake.assertAllConsumed();
    expect(handled.turn?.stopReason).toBe('step-limit');
    expect(handled.turn?.toolCalls).toHaveLength(1);
    expect(handled.replies[0]?.text.startsWith(fromToolLog)).toBe(true);
  });

  const kept: [name: string, question: string, answer: string][] = [
    ['a Thai answer with ขออภัย', 'ร้านเปิดกี่โมงคะ', 'ขออภัยค่ะ วันนี้ร้านปิดปรับปรุง ตามปกติร้านเปิด 08:00–20:00 ทุกวัน'],
    ['a Thai answer with ไม่สามารถ', 'ร้านเปิดกี่โมงคะ', 'ระบบไม่สามารถยืนยันวันหยุดได้ แต่ปกติร้านเปิด 08:00–20:00 ทุกวันค่ะ'],
    [
      'an English refusal to an English question',
      'What time does the shop open?',
      "I'm sorry, but I can't confirm holiday hours; normally 08:00–20:00 every day.",
    ],
  ];
  it.each(kept)('leaves %s alone', async (_name, question, answer) => {
    fake.script(lookupCall, { text: answer });
    const handled = await test.ask(question);
    fake.assertAllConsumed();
    expect(handled.replies[0]?.text).toBe(`${answer}\n\n**แหล่งที่มา**\n1. https://shop.example.com/hours`);
    expect(handled.turn?.guardEvents.filter((event) => event.guard === 'refusal')).toEqual([]);
  });
});
