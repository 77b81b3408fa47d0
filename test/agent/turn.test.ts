import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../agent/tools/tool.js';
import { startFakeModelServer, type FakeModelServer, type RequestBody } from '../fakes/model-server.js';
import { messagesOf } from '../fakes/recorded-messages.js';
import { createTestApp, lookupTool, type TestApp } from '../support/test-app.js';
import { expectToolsBarred } from '../support/prompt-prefix.js';

// The turn end to end through the router and the scripted fake model server.

let fake: FakeModelServer;
let test: TestApp;
const fixedNow = () => new Date('2026-11-29T04:00:00Z');

beforeEach(async () => {
  fake = await startFakeModelServer({ flavour: 'llama-server', declaredTools: true });
  test = createTestApp({ modelUrl: fake.url, environment: { MODEL_TOOLS: 'on', MODEL_VISION: 'off' }, extraTools: [lookupTool()], now: fixedNow });
});
afterEach(async () => {
  await test.close();
  await fake.close();
});

const systemOf = (body: RequestBody) => messagesOf(body)[0]?.content;

describe('the turn', () => {
  it('runs a tool call, feeds the result back and answers; the reply is the answer', async () => {
    fake.script({ toolCalls: [{ name: 'lookup', arguments: { query: 'เวลาเปิด' } }], style: 'fragments' }, { text: 'ร้านเปิด 08:00–20:00 ทุกวันค่ะ' });
    const handled = await test.ask('ร้านเปิดกี่โมง');
    fake.assertAllConsumed();
    expect(handled.replies.map((reply) => reply.text)).toEqual(['ร้านเปิด 08:00–20:00 ทุกวันค่ะ']);
    expect(handled.turn?.toolCalls).toMatchObject([{ name: 'lookup', ok: true, args: { query: 'เวลาเปิด' } }]);
    const second = messagesOf(fake.chatRequests[1] ?? {});
    expect(second.at(-1)).toMatchObject({ role: 'tool', content: 'ผลการค้นหา "เวลาเปิด": ร้านเปิด 08:00–20:00 ทุกวัน' });
    expect(second.at(-2)).toMatchObject({
      role: 'assistant',
      tool_calls: [{ type: 'function', function: { name: 'lookup', arguments: '{"query":"เวลาเปิด"}' } }],
    });
  });

  it('keeps the system prompt and tools byte-identical across calls, turns and conversations', async () => {
    for (const conversation of ['a', 'b']) {
      for (let turn = 0; turn < 2; turn++) {
        fake.script({ toolCalls: [{ name: 'lookup', arguments: { query: `q${turn}` } }] }, { text: `คำตอบ ${turn}` });
        await test.ask(`คำถาม ${turn}`, { conversation });
      }
    }
    fake.assertAllConsumed();
    expect(fake.chatRequests).toHaveLength(8);
    const systems = new Set(fake.chatRequests.map((body) => JSON.stringify(systemOf(body))));
    const tools = new Set(fake.chatRequests.map((body) => JSON.stringify(body.tools)));
    expect(systems.size).toBe(1);
    expect(tools.size).toBe(1);
    expect([...systems][0]).not.toMatch(/2026|2569|29/);
  });

  it('puts the date line (CE and BE) and the speaker in the newest user message only, and re-sends history as stored', async () => {
    fake.script({ text: 'ตอบแรก' }, { text: 'ตอบสอง' });
    await test.ask('คำถามแรก', { group: true, mention: true, conversation: 'g' });
    await test.ask('คำถามสอง', { group: true, mention: true, conversation: 'g' });
    const first = messagesOf(fake.chatRequests[0] ?? {});
    const second = messagesOf(fake.chatRequests[1] ?? {});
    const newest = String(second.at(-1)?.content);
    expect(newest).toContain('พ.ศ. 2569');
    expect(newest).toContain('ค.ศ. 2026');
    expect(newest).toContain('ผู้ถาม: owner');
    expect(newest.endsWith('คำถามสอง')).toBe(true);
    // History: the first user message byte-for-byte, then the stored answer; no other message carries a date.
    expect(second.slice(1, 3)).toEqual([first.at(-1), { role: 'assistant', content: 'ตอบแรก' }]);
    expect(second.filter((message) => String(message.content).includes('2569'))).toHaveLength(2);
    expect(String(second[0]?.content)).not.toContain('2569');
  });

  it('answers without tools at the step limit', async () => {
    await test.close();
    test = createTestApp({
      modelUrl: fake.url,
      environment: { MODEL_TOOLS: 'on', MODEL_VISION: 'off', MODEL_MAX_STEPS: '3' },
      extraTools: [lookupTool()],
      now: fixedNow,
    });
    fake.script(
      { toolCalls: [{ name: 'lookup', arguments: { query: 'a' } }] },
      { toolCalls: [{ name: 'lookup', arguments: { query: 'b' } }] },
      { text: 'สรุปจากที่ค้นมา: เปิด 08:00–20:00', expect: (body) => expectToolsBarred(body) },
    );
    const handled = await test.ask('ค้นหาให้หน่อย');
    fake.assertAllConsumed();
    expect(handled.turn?.steps).toBe(3);
    expect(handled.replies[0]?.text).toContain('สรุปจากที่ค้นมา');
  });

  it('returns tool failures and invalid arguments to the model as results, not exceptions', async () => {
    const failing = defineTool({
      name: 'explode',
      description: 'always fails',
      input: z.object({ n: z.number() }),
      execute: async () => {
        throw new Error('disk on fire');
      },
    });
    await test.close();
    test = createTestApp({ modelUrl: fake.url, environment: { MODEL_TOOLS: 'on', MODEL_VISION: 'off' }, extraTools: [failing], now: fixedNow });
    fake.script(
      { toolCalls: [{ name: 'explode', arguments: '{"n": "not a number"' }] },
      { toolCalls: [{ name: 'explode', arguments: { n: 1 } }] },
      { toolCalls: [{ name: 'no_such_tool', arguments: {} }] },
      { text: 'ขออภัย ระบบขัดข้องชั่วคราว' },
    );
    const handled = await test.ask('ลองดู');
    fake.assertAllConsumed();
    const results = handled.turn?.toolCalls.map((call) => [call.name, call.ok, call.result]) ?? [];
    expect(results[0]?.[1]).toBe(false);
    expect(results[0]?.[2]).toContain('n');
    expect(results[1]?.[2]).toContain('disk on fire');
    expect(results[2]?.[2]).toContain('no_such_tool');
    expect(handled.replies[0]?.text).toBe('ขออภัย ระบบขัดข้องชั่วคราว');
  });
});

describe('model server failures', () => {
  it.each([
    ['500', { error: { status: 500, body: { error: { code: 500, message: 'boom', type: 'server_error' } } } }, 'เซิร์ฟเวอร์โมเดลขัดข้อง'],
    ['garbage', { garbage: '<html>proxy error</html>' }, 'รูปแบบที่อ่านไม่ได้'],
    [
      'context overflow',
      { error: { status: 400, body: { error: { code: 400, message: 'the request exceeds the available context size', type: 'exceed_context_size_error' } } } },
      '/reset',
    ],
  ] as const)('%s → a Thai message; history intact; the next message works', async (_name, step, words) => {
    fake.script({ text: 'คำตอบแรก' }, step, { text: 'กลับมาแล้ว' });
    await test.ask('หนึ่ง');
    const failed = await test.ask('สอง');
    expect(failed.replies[0]?.text).toContain(words);
    expect(failed.turn?.stopReason).toBe('model-error');
    const recovered = await test.ask('สาม');
    expect(recovered.replies[0]?.text).toBe('กลับมาแล้ว');
    const history = messagesOf(fake.chatRequests.at(-1) ?? {}).filter((message) => message.role !== 'system');
    // หนึ่ง + its answer, then สาม: the failed turn left nothing behind.
    expect(history.map((message) => String(message.content).split('\n').at(-1))).toEqual(['หนึ่ง', 'คำตอบแรก', 'สาม']);
    fake.assertAllConsumed();
  });

  it('time-out → a Thai message naming MODEL_TIMEOUT_MS', async () => {
    await test.close();
    test = createTestApp({ modelUrl: fake.url, environment: { MODEL_TOOLS: 'on', MODEL_VISION: 'off', MODEL_TIMEOUT_MS: '300' }, now: fixedNow });
    fake.script({ hang: true });
    const handled = await test.ask('ช้าไหม');
    expect(handled.replies[0]?.text).toContain('MODEL_TIMEOUT_MS');
  });

  it('server down → a Thai message telling what to check', async () => {
    const url = fake.url;
    await fake.close();
    await test.close();
    test = createTestApp({ modelUrl: url, environment: { MODEL_TOOLS: 'on', MODEL_VISION: 'off' }, now: fixedNow });
    const handled = await test.ask('มีใครอยู่ไหม');
    expect(handled.replies[0]?.text).toContain('MODEL_BASE_URL');
    fake = await startFakeModelServer();
  });

  it('a server that refuses tools mid-way: the turn is answered without tools', async () => {
    await test.close();
    test = createTestApp({ modelUrl: fake.url, environment: { MODEL_VISION: 'off' }, extraTools: [lookupTool()], now: fixedNow });
    // Detection: llama-server declares tools, the probe succeeds; then the real call is refused.
    fake.script(
      { toolCalls: [{ name: 'get_time', arguments: {} }] },
      { error: { status: 500, body: { error: { code: 500, message: 'tools param requires --jinja flag', type: 'server_error' } } } },
      { text: 'ตอบโดยไม่ใช้เครื่องมือ', expect: (body) => expect(body.tools).toBeUndefined() },
    );
    const handled = await test.ask('ทดสอบ');
    expect(handled.replies[0]?.text).toBe('ตอบโดยไม่ใช้เครื่องมือ');
    expect(handled.turn?.capabilities.tools).toBe(false);
    fake.assertAllConsumed();
  });
});

describe('images of the turn', () => {
  async function withImage(vision: 'on' | 'off') {
    await test.close();
    test = createTestApp({ modelUrl: fake.url, environment: { MODEL_TOOLS: 'off', MODEL_VISION: vision }, now: fixedNow });
    const file = `${test.dataDir}/blank.png`;
    const { default: sharp } = await import('sharp');
    await sharp({ create: { width: 64, height: 48, channels: 3, background: '#ffffff' } })
      .png()
      .toFile(file);
    return file;
  }

  it('go to a vision model with the question, as JPEG data URIs', async () => {
    const file = await withImage('on');
    fake.script({ text: 'รูปนี้เป็นภาพว่างสีขาว' });
    const handled = await test.ask('ในรูปมีอะไร', { attachmentPaths: [file] });
    const newest = messagesOf(fake.chatRequests[0] ?? {}).at(-1);
    expect(newest?.content).toEqual([
      { type: 'text', text: expect.stringContaining('ในรูปมีอะไร') },
      { type: 'image_url', image_url: { url: expect.stringMatching(/^data:image\/jpeg;base64,/) } },
    ]);
    expect(handled.replies[0]?.text).toBe('รูปนี้เป็นภาพว่างสีขาว');
  });

  it('are not sent to a model without vision; with no text in them either, the user is told', async () => {
    const file = await withImage('off');
    fake.script({ text: 'ตอบจากข้อความ' });
    const handled = await test.ask('ในรูปมีอะไร', { attachmentPaths: [file] });
    expect(JSON.stringify(fake.chatRequests[0])).not.toContain('image_url');
    expect(handled.replies[0]?.text).toBe('(ไม่พบตัวหนังสือในรูป และโมเดลที่ใช้อยู่มองไม่เห็นรูปภาพ จึงตอบจากข้อความอย่างเดียว)\n\nตอบจากข้อความ');
  });
});

describe('figures across turns', () => {
  it('a figure checked in an earlier turn may be repeated later; a new one is still marked', async () => {
    fake.script(
      { toolCalls: [{ name: 'lookup', arguments: { query: 'ลาพักร้อน' } }] },
      { text: 'ร้านเปิด 08:00–20:00 ทุกวัน' },
      { text: 'ใช่ครับ เปิด 08:00 ถึง 20:00 และปิดวันที่ 25 ธันวาคม' },
    );
    await test.ask('ร้านเปิดกี่โมง');
    const followUp = await test.ask('สรุปอีกทีได้ไหม');
    expect(followUp.replies[0]?.text).toBe('ใช่ครับ เปิด 08:00 ถึง 20:00 และปิดวันที่ [ตัวเลขยังไม่ยืนยัน] ธันวาคม');
    fake.assertAllConsumed();
  });
});
