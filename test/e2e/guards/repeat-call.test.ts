import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../../agent/tools/tool.js';
import { startFakeModelServer, type FakeModelServer, type RequestBody } from '../../fakes/model-server.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import { expectToolsBarred } from '../../support/prompt-prefix.js';

// Repeat-call guard end to end: the same tool with the same canonical arguments in one turn. The 2nd call is not
// run (the model gets the earlier result with a warning); the 3rd is blocked and the loop gives its final answer
// without tools.

let fake: FakeModelServer;
let test: TestApp;
let executed: string[];

beforeEach(async () => {
  executed = [];
  const lookup = defineTool({
    name: 'lookup',
    description: 'Look up a fact about the shop.',
    input: z.object({ query: z.string().min(1).max(200), limit: z.number().optional() }),
    execute: async ({ query }) => {
      executed.push(query);
      return { ok: true, content: `ผลการค้นหา "${query}": ร้านเปิด 08:00–20:00 ทุกวัน` };
    },
  });
  fake = await startFakeModelServer({ flavour: 'llama-server', declaredTools: true });
  test = createTestApp({
    modelUrl: fake.url,
    environment: { MODEL_TOOLS: 'on', MODEL_VISION: 'off' },
    extraTools: [lookup],
    now: () => new Date('2026-11-29T04:00:00Z'),
  });
});
afterEach(async () => {
  await test.close();
  await fake.close();
});

type Message = { role: string; content?: unknown };
const lastMessage = (body: RequestBody | undefined) => ((body?.messages ?? []) as Message[]).at(-1);
const earlierResult = 'ผลการค้นหา "เวลาเปิด": ร้านเปิด 08:00–20:00 ทุกวัน';

describe('repeat-call guard through the turn', () => {
  it('2nd identical call re-uses the result with a warning, 3rd is blocked, then the answer comes without tools', async () => {
    fake.script(
      { toolCalls: [{ name: 'lookup', arguments: { query: 'เวลาเปิด', limit: 5 } }] },
      // Canonically the same: other key order, a padded string.
      { toolCalls: [{ name: 'lookup', arguments: '{"limit": 5, "query": "  เวลาเปิด "}' }] },
      { toolCalls: [{ name: 'lookup', arguments: { limit: 5, query: 'เวลาเปิด' } }] },
      { text: 'ร้านเปิด 08:00–20:00 ทุกวันค่ะ', expect: (body) => expectToolsBarred(body) },
    );
    const handled = await test.ask('ร้านเปิดกี่โมง');
    fake.assertAllConsumed();

    expect(executed).toEqual(['เวลาเปิด']);
    expect(handled.replies.map((reply) => reply.text)).toEqual(['ร้านเปิด 08:00–20:00 ทุกวันค่ะ']);
    expect(handled.turn?.stopReason).toBe('repeat-call');
    expect(handled.turn?.toolCalls.map((call) => call.ok)).toEqual([true, true, false]);

    // What the model read back after each call.
    const secondResult = lastMessage(fake.chatRequests[2]);
    expect(secondResult).toMatchObject({ role: 'tool' });
    expect(String(secondResult?.content)).toMatch(/^⚠️ คุณเรียกเครื่องมือนี้ด้วยอาร์กิวเมนต์เดิมไปแล้ว/);
    expect(String(secondResult?.content).endsWith(earlierResult)).toBe(true);
    expect(lastMessage(fake.chatRequests[3])).toMatchObject({ role: 'tool', content: expect.stringContaining('Blocked: 3rd identical call of lookup') });

    expect(handled.turn?.guardEvents.filter((event) => event.guard === 'repeat-call').map((event) => event.action)).toEqual(['warn', 'block']);
  });

  it('different arguments are not repeats: each one runs', async () => {
    fake.script(
      { toolCalls: [{ name: 'lookup', arguments: { query: 'เวลาเปิด' } }] },
      { toolCalls: [{ name: 'lookup', arguments: { query: 'วันหยุด' } }] },
      { toolCalls: [{ name: 'lookup', arguments: { query: 'เวลาเปิด', limit: 3 } }] },
      { text: 'ร้านเปิด 08:00–20:00 ทุกวันค่ะ' },
    );
    const handled = await test.ask('ร้านเปิดกี่โมง หยุดวันไหน');
    fake.assertAllConsumed();
    expect(executed).toEqual(['เวลาเปิด', 'วันหยุด', 'เวลาเปิด']);
    expect(handled.turn?.guardEvents.filter((event) => event.guard === 'repeat-call')).toEqual([]);
    expect(handled.turn?.stopReason).toBe('answer');
  });

  it('counts within one turn only: the same call in the next turn runs again', async () => {
    for (const question of ['ร้านเปิดกี่โมง', 'ถามอีกที ร้านเปิดกี่โมง']) {
      fake.script({ toolCalls: [{ name: 'lookup', arguments: { query: 'เวลาเปิด' } }] }, { text: 'ร้านเปิด 08:00–20:00 ทุกวันค่ะ' });
      const handled = await test.ask(question);
      expect(handled.turn?.guardEvents.filter((event) => event.guard === 'repeat-call')).toEqual([]);
    }
    fake.assertAllConsumed();
    expect(executed).toEqual(['เวลาเปิด', 'เวลาเปิด']);
  });

  it('blocked and the model gives no text → a Thai answer from the tool log (one entry per distinct call)', async () => {
    const call = { toolCalls: [{ name: 'lookup', arguments: { query: 'เวลาเปิด' } }] };
    fake.script(call, call, call, { text: '' });
    const handled = await test.ask('ร้านเปิดกี่โมง');
    fake.assertAllConsumed();
    const text = handled.replies[0]?.text ?? '';
    expect(text).toContain('ขออภัย ยังสรุปคำตอบได้ไม่ครบ');
    expect(text.split('ร้านเปิด 08:00–20:00 ทุกวัน')).toHaveLength(2);
    expect(text).not.toContain('Blocked');
    expect(text).not.toContain('⚠️');
  });
});
