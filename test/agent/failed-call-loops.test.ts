import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../agent/tools/tool.js';
import { startFakeModelServer, type FakeModelServer, type RequestBody, type ScriptStep } from '../fakes/model-server.js';
import { messagesOf } from '../fakes/recorded-messages.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectToolsBarred } from '../support/prompt-prefix.js';

// Failed calls repeated through the real turn (issue 14): a model that sends the same broken call again and again
// (arguments zod rejects, a tool it was never offered, a call that fails when it runs) is warned on the 2nd
// identical call with the reason, blocked on the 3rd, and then answers without tools. MODEL_MAX_STEPS is the
// default (8): before the guard counted failed calls, each of these turns spent all eight model steps.

let fake: FakeModelServer;
let test: TestApp;
let executions: number;

const failing = defineTool({
  name: 'fetch_rates',
  description: 'Exchange rates of one day.',
  input: z.object({ day: z.string().min(1) }),
  execute: async () => {
    executions += 1;
    return { ok: false, content: 'rates server returned 503 Service Unavailable' };
  },
});

async function start(environment: Record<string, string> = {}): Promise<void> {
  test = createTestApp({
    modelUrl: fake.url,
    environment: { MODEL_TOOLS: 'on', MODEL_VISION: 'off', ...environment },
    extraTools: [failing],
    now: () => new Date('2026-11-29T04:00:00Z'),
  });
}

beforeEach(async () => {
  executions = 0;
  fake = await startFakeModelServer({ flavour: 'llama-server', declaredTools: true });
  await start();
});
afterEach(async () => {
  await test.close();
  await fake.close();
});

const times = (count: number, step: ScriptStep): ScriptStep[] => Array.from({ length: count }, () => step);
/** What the model read back after its latest call, in the request that followed it. */
const lastToolResult = (body: RequestBody | undefined) => String(messagesOf(body ?? {}).at(-1)?.content);
const repeatEvents = (handled: Awaited<ReturnType<TestApp['ask']>>) =>
  handled.turn?.guardEvents.filter((event) => event.guard === 'repeat-call').map((event) => event.action);

describe('failed calls repeated through the turn', () => {
  it('query_knowledge({}) seven times: warned with the zod reason, blocked on the 3rd, answered from the tool log', async () => {
    fake.script(...times(7, { toolCalls: [{ name: 'query_knowledge', arguments: {} }] }), { text: 'ไม่ควรถึงตรงนี้' });
    const handled = await test.ask('ในคลังความรู้มีอะไรบ้าง');

    // Three calling steps, then one step without tools (where this model still calls): 4 requests, not 8.
    expect(fake.chatRequests).toHaveLength(4);
    expectToolsBarred(fake.chatRequests[3]);
    expect(repeatEvents(handled)).toEqual(['warn', 'block']);
    expect(handled.turn?.stopReason).toBe('repeat-call');

    expect(lastToolResult(fake.chatRequests[1])).toMatch(/^อาร์กิวเมนต์ของ query_knowledge ไม่ถูกต้อง: action:/);
    const warning = lastToolResult(fake.chatRequests[2]);
    expect(warning).toMatch(/^⚠️ การเรียก query_knowledge ด้วยอาร์กิวเมนต์เดิมเพิ่งล้มเหลว/);
    expect(warning).toContain('action:');
    expect(lastToolResult(fake.chatRequests[3])).toContain('Blocked: 3rd identical call of query_knowledge');

    const reply = handled.replies[0]?.text ?? '';
    expect(reply).toContain('ขออภัย ยังหาคำตอบไม่ได้ เพราะเครื่องมือที่ใช้ทำงานไม่สำเร็จ');
    expect(reply).not.toContain('⚠️');
    expect(reply).not.toContain('Blocked');
  });

  it('the same invalid call spaced differently is the same call; a model that gives up tools answers itself', async () => {
    fake.script(
      { toolCalls: [{ name: 'query_knowledge', arguments: '{}' }] },
      { toolCalls: [{ name: 'query_knowledge', arguments: '{ }' }] },
      { toolCalls: [{ name: 'query_knowledge', arguments: ' {  } ' }] },
      { text: 'ยังไม่มีคลังความรู้ผูกกับแชตนี้ค่ะ', expect: (body) => expectToolsBarred(body) },
    );
    const handled = await test.ask('ในคลังความรู้มีอะไรบ้าง');
    fake.assertAllConsumed();
    expect(fake.chatRequests).toHaveLength(4);
    expect(repeatEvents(handled)).toEqual(['warn', 'block']);
    expect(handled.replies.map((reply) => reply.text)).toEqual(['ยังไม่มีคลังความรู้ผูกกับแชตนี้ค่ะ']);
  });

  it('a tool never offered, seven times: the warning names the tools that exist; stopped by the 3rd step', async () => {
    fake.script(...times(7, { toolCalls: [{ name: 'search_internet', arguments: { q: 'ราคาทอง' } }] }), { text: 'ไม่ควรถึงตรงนี้' });
    const handled = await test.ask('ราคาทองวันนี้');
    expect(fake.chatRequests).toHaveLength(4);
    expect(repeatEvents(handled)).toEqual(['warn', 'block']);
    const warning = lastToolResult(fake.chatRequests[2]);
    expect(warning).toMatch(/^⚠️ การเรียก search_internet/);
    expect(warning).toContain('ไม่มีเครื่องมือชื่อ "search_internet"');
    expect(warning).toContain('query_knowledge');
    expect(warning).toContain('fetch_rates');
    expect(handled.replies[0]?.text).toContain('ขออภัย');
  });

  it('a call that fails when it runs, seven times: run once, warned with its failure, blocked on the 3rd', async () => {
    fake.script(...times(7, { toolCalls: [{ name: 'fetch_rates', arguments: { day: 'วันนี้' } }] }), { text: 'ไม่ควรถึงตรงนี้' });
    const handled = await test.ask('อัตราแลกเปลี่ยนวันนี้');
    expect(fake.chatRequests).toHaveLength(4);
    expect(executions).toBe(1);
    expect(repeatEvents(handled)).toEqual(['warn', 'block']);
    expect(lastToolResult(fake.chatRequests[2])).toContain('rates server returned 503');
    expect(handled.replies[0]?.text).toContain('ขออภัย');
  });

  it('alternating two failing calls is caught on the 5th', async () => {
    const invalid: ScriptStep = { toolCalls: [{ name: 'query_knowledge', arguments: {} }] };
    const unknown: ScriptStep = { toolCalls: [{ name: 'search_internet', arguments: { q: 'x' } }] };
    fake.script(invalid, unknown, invalid, unknown, invalid, { text: 'ขออภัย ตอบไม่ได้ค่ะ', expect: (body) => expectToolsBarred(body) });
    const handled = await test.ask('ลองดู');
    fake.assertAllConsumed();
    expect(fake.chatRequests).toHaveLength(6);
    expect(repeatEvents(handled)).toEqual(['warn', 'warn', 'block']);
    expect(handled.replies.map((reply) => reply.text)).toEqual(['ขออภัย ตอบไม่ได้ค่ะ']);
  });

  it('warns in English when the bot speaks English', async () => {
    await test.close();
    await start({ BOT_LANGUAGE: 'en' });
    fake.script(...times(3, { toolCalls: [{ name: 'query_knowledge', arguments: {} }] }), { text: 'There is no knowledge base here yet.' });
    const handled = await test.ask('What is in the knowledge base?');
    fake.assertAllConsumed();
    const warning = lastToolResult(fake.chatRequests[2]);
    expect(warning).toMatch(/^⚠️ This call of query_knowledge with the same arguments just failed/);
    expect(warning).toContain('Invalid arguments for query_knowledge: action:');
    expect(handled.replies.map((reply) => reply.text)).toEqual(['There is no knowledge base here yet.']);
  });
});
