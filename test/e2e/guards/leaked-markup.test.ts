import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../../agent/tools/tool.js';
import { startFakeModelServer, type FakeModelServer } from '../../fakes/model-server.js';
import { messagesOf } from '../../fakes/recorded-messages.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import { expectToolsBarred } from '../../support/prompt-prefix.js';

// Leaked tool-call markup end to end: the model prints a call as text instead of a structured tool call. A valid
// call of a registered tool is run for real and the loop continues; anything else is cut. No markup ever reaches
// the user.

let fake: FakeModelServer;
let test: TestApp;
let executed: string[];

/** The shop lookup, recording every query it really ran. */
const countingLookup = () =>
  defineTool({
    name: 'lookup',
    description: 'Look up a fact about the shop.',
    input: z.object({ query: z.string().min(1).max(200) }),
    execute: async ({ query }) => {
      executed.push(query);
      return { ok: true, content: `ผลการค้นหา "${query}": ร้านเปิด 08:00–20:00 ทุกวัน` };
    },
  });

function appWith(environment: Record<string, string> = {}): TestApp {
  return createTestApp({
    modelUrl: fake.url,
    environment: { MODEL_TOOLS: 'on', MODEL_VISION: 'off', ...environment },
    extraTools: [countingLookup()],
    now: () => new Date('2026-11-29T04:00:00Z'),
  });
}

beforeEach(async () => {
  executed = [];
  fake = await startFakeModelServer({ flavour: 'llama-server', declaredTools: true });
  test = appWith();
});
afterEach(async () => {
  await test.close();
  await fake.close();
});

const markupPattern = /<\/?tool_call>|<function=|<parameter=|\[TOOL_CALLS\]|<\|python_tag\|>|"arguments"|"parameters"/;

const finalAnswer = 'ร้านเปิด 08:00–20:00 ทุกวันค่ะ';

describe('leaked tool-call markup through the turn: recovery', () => {
  const dialects: [name: string, leaked: string][] = [
    ['Hermes/Qwen <tool_call> JSON', 'ขอค้นหาก่อนนะคะ\n<tool_call>\n{"name": "lookup", "arguments": {"query": "เวลาเปิด"}}\n</tool_call>'],
    ['Qwen3-Coder XML', 'ขอค้นหาก่อนนะคะ\n<tool_call>\n<function=lookup>\n<parameter=query>\nเวลาเปิด\n</parameter>\n</function>\n</tool_call>'],
    ['bare <function=…> XML', 'ขอค้นหาก่อนนะคะ\n<function=lookup>\n<parameter=query>\nเวลาเปิด\n</parameter>\n</function>'],
    ['Mistral [TOOL_CALLS]', 'ขอค้นหาก่อนนะคะ [TOOL_CALLS][{"name": "lookup", "arguments": {"query": "เวลาเปิด"}}]'],
    ['Llama <|python_tag|>', 'ขอค้นหาก่อนนะคะ\n<|python_tag|>{"name": "lookup", "parameters": {"query": "เวลาเปิด"}}'],
    ['a bare JSON answer', '{"name": "lookup", "arguments": {"query": "เวลาเปิด"}}'],
  ];

  it.each(dialects)('%s → run as a real call, the loop continues, the answer has no markup', async (_name, leaked) => {
    fake.script({ text: leaked, chunkSize: 5 }, { text: finalAnswer });
    const handled = await test.ask('ร้านเปิดกี่โมง');
    fake.assertAllConsumed();

    expect(executed).toEqual(['เวลาเปิด']);
    expect(handled.replies.map((reply) => reply.text)).toEqual([finalAnswer]);
    expect(handled.turn?.toolCalls).toMatchObject([{ name: 'lookup', ok: true, args: { query: 'เวลาเปิด' } }]);
    expect(handled.turn?.guardEvents).toContainEqual(expect.objectContaining({ guard: 'leaked-markup', action: 'rewrite' }));
    expect(handled.turn?.stopReason).toBe('answer');

    // The model's second request carries a structured call and its result, never the markup as text.
    const second = messagesOf(fake.chatRequests[1]);
    expect(second.at(-2)).toMatchObject({
      role: 'assistant',
      tool_calls: [{ type: 'function', function: { name: 'lookup', arguments: '{"query":"เวลาเปิด"}' } }],
    });
    expect(second.at(-1)).toMatchObject({ role: 'tool', content: 'ผลการค้นหา "เวลาเปิด": ร้านเปิด 08:00–20:00 ทุกวัน' });
    expect(JSON.stringify(second.at(-2)?.content ?? '')).not.toMatch(markupPattern);
  });

  it('stops a model that keeps printing calls: the connection closes early, the call runs once', async () => {
    const times = 200;
    fake.script({ repeatText: '<tool_call>{"name": "lookup", "arguments": {"query": "เวลาเปิด"}}</tool_call>\n', times }, { text: finalAnswer });
    const handled = await test.ask('ร้านเปิดกี่โมง');
    await expect.poll(() => fake.closedEarly).toBe(1);
    expect(fake.repeatsSent).toBeLessThan(times / 4);
    fake.assertAllConsumed();
    expect(executed).toEqual(['เวลาเปิด']);
    expect(handled.replies[0]?.text).toBe(finalAnswer);
  });

  it('leaves prose that only mentions a tag, and JSON inside a code block, alone', async () => {
    const answer = 'แท็ก <tool_call> ใช้ครอบการเรียกเครื่องมือ เช่น\n```json\n{"name": "lookup", "arguments": {"query": "x"}}\n```';
    fake.script({ text: answer });
    const handled = await test.ask('อธิบายรูปแบบ tool call ของ Qwen');
    fake.assertAllConsumed();
    expect(executed).toEqual([]);
    expect(handled.replies[0]?.text).toBe(answer);
    expect(handled.turn?.guardEvents.filter((event) => event.guard === 'leaked-markup')).toEqual([]);
  });
});

describe('leaked tool-call markup through the turn: cut', () => {
  const invalid: [name: string, leaked: string][] = [
    ['an unknown tool', 'กำลังตรวจสอบให้ค่ะ\n<tool_call>\n{"name": "delete_everything", "arguments": {"confirm": true}}\n</tool_call>'],
    ['invalid arguments', 'กำลังตรวจสอบให้ค่ะ\n<tool_call>\n{"name": "lookup", "arguments": {"query": ""}}\n</tool_call>'],
    ['JSON that does not parse', 'กำลังตรวจสอบให้ค่ะ\n<tool_call>\n{"name": "lookup", "arguments": {"query": "เวลา</tool_call>'],
    ['an unknown tool in Qwen3-Coder XML', 'กำลังตรวจสอบให้ค่ะ\n<function=rm_rf>\n<parameter=path>\n/\n</parameter>\n</function>'],
  ];

  it.each(invalid)('%s → nothing runs, the markup is cut, the user sees the prose only', async (_name, leaked) => {
    fake.script({ text: leaked });
    const handled = await test.ask('ร้านเปิดกี่โมง');
    fake.assertAllConsumed();
    expect(fake.chatRequests).toHaveLength(1);
    expect(executed).toEqual([]);
    expect(handled.turn?.toolCalls).toEqual([]);
    const text = handled.replies[0]?.text ?? '';
    expect(text).toBe('กำลังตรวจสอบให้ค่ะ');
    expect(handled.turn?.guardEvents).toContainEqual(expect.objectContaining({ guard: 'leaked-markup', action: 'block' }));
  });

  it('markup and nothing else → the Thai apology, never the markup', async () => {
    fake.script({ text: '<tool_call>\n{"name": "format_disk", "arguments": {}}\n</tool_call>' });
    const handled = await test.ask('ช่วยหน่อย');
    const text = handled.replies[0]?.text ?? '';
    expect(text).toContain('ขออภัย');
    expect(text).not.toMatch(markupPattern);
    expect(text).not.toContain('format_disk');
  });

  it('a chat-template token cuts the rest of the answer (the model ran into a new turn)', async () => {
    fake.script({ text: 'ร้านเปิดทุกวันค่ะ<|im_end|>\n<|im_start|>user\nแล้ววันหยุดล่ะ' });
    const handled = await test.ask('ร้านเปิดวันไหน');
    expect(handled.replies[0]?.text).toBe('ร้านเปิดทุกวันค่ะ');
  });

  it('at the step limit a leaked call is not run: cut, and the answer comes from the tool log', async () => {
    await test.close();
    test = appWith({ MODEL_MAX_STEPS: '2' });
    fake.script(
      { toolCalls: [{ name: 'lookup', arguments: { query: 'เวลาเปิด' } }] },
      { text: '<tool_call>\n{"name": "lookup", "arguments": {"query": "วันหยุด"}}\n</tool_call>', expect: (body) => expectToolsBarred(body) },
    );
    const handled = await test.ask('ร้านเปิดกี่โมง');
    fake.assertAllConsumed();
    expect(executed).toEqual(['เวลาเปิด']);
    const text = handled.replies[0]?.text ?? '';
    expect(text).toContain('ร้านเปิด 08:00–20:00 ทุกวัน');
    expect(text).not.toMatch(markupPattern);
  });
});
