import { afterEach, describe, expect, it } from 'vitest';
import type { KnowledgeBase } from '../../../src/knowledge/index.js';
import { startFakeModelServer, type FakeModelServer, type FakeModelServerOptions, type ScriptStep } from '../../fakes/model-server.js';
import { messagesOf, type RecordedMessage as Message } from '../../fakes/recorded-messages.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

// Scoping end to end: two knowledge bases, only one bound to the conversation. Whatever the model asks for, the
// unbound one's text must never reach it — checked on every request body the fake model server received.

const fixedNow = () => new Date('2026-11-29T04:00:00Z');
const conversation = 'team';
const boundName = 'สวัสดิการ';
const boundText = 'งบประมาณอบรมพนักงานเบิกได้ปีละไม่เกินห้าพันบาทต่อคน ต้องส่งใบเสร็จภายในสามสิบวัน';
const unboundName = 'การเงินลับ';
// What the user and the model write (question, query_text) matches the unbound KB on purpose; its other words are
// distinctive (found nowhere else), so finding any of them in a request means its text leaked.
const unboundText = 'งบประมาณลับโครงการควอกกา รหัสอนุมัติ QX-7731 วงเงินสี่สิบแปดล้านบาท อนุมัติโดยคณะกรรมการบริหารเท่านั้น';
const unboundMarkers = ['QX-7731', 'สี่สิบแปดล้านบาท', 'คณะกรรมการบริหาร'];
const queryText = 'งบประมาณลับโครงการควอกกา';
const probeCall: ScriptStep = { toolCalls: [{ name: 'get_time', arguments: {} }] };

let fake: FakeModelServer | undefined;
let test: TestApp | undefined;
afterEach(async () => {
  await test?.close();
  await fake?.close();
  test = undefined;
  fake = undefined;
});

const contentOf = (message: Message | undefined) => (typeof message?.content === 'string' ? message.content : '');
/** Every body the model server received, chat calls and metadata requests alike. */
const everythingSent = (server: FakeModelServer) => server.requests.map((request) => JSON.stringify(request.body ?? null)).join('\n');

async function start(server: FakeModelServerOptions): Promise<{ fake: FakeModelServer; test: TestApp }> {
  fake = await startFakeModelServer({ ...server, modelId: 'test-model' });
  test = createTestApp({ modelUrl: fake.url, environment: { MODEL_TOOLS: 'auto', MODEL_VISION: 'auto' }, now: fixedNow });
  return { fake, test };
}

/** Both KBs get a document (text after `/kb add`); only the first is bound here. */
async function twoKnowledgeBases(app: TestApp): Promise<{ bound: KnowledgeBase; unbound: KnowledgeBase }> {
  for (const [name, text] of [
    [boundName, boundText],
    [unboundName, unboundText],
  ] as const) {
    await app.ask(`/kb create ${name}`, { conversation });
    const added = await app.ask(`/kb add ${name} ${text}`, { conversation });
    expect(added.replies[0]?.text).toContain('เพิ่มแล้ว');
  }
  await app.ask(`/kb bind ${boundName}`, { conversation });
  const [bound, unbound] = await Promise.all([boundName, unboundName].map(async (name) => (await app.app.knowledge.findKnowledgeBases(name))[0]));
  if (!bound || !unbound) throw new Error('both knowledge bases should exist');
  expect(await app.app.knowledge.boundKnowledgeBaseIds(`console:${conversation}`)).toEqual([bound.id]);
  // The unbound text is indexed and found by the admin's own search: its absence below is the scoping at work.
  const search = await app.ask(`/kb search ${unboundName} ${queryText}`, { conversation });
  expect(search.replies[0]?.text).toContain('QX-7731');
  return { bound, unbound };
}

function expectUnboundNeverSent(server: FakeModelServer): void {
  const sent = everythingSent(server);
  for (const marker of unboundMarkers) expect(sent).not.toContain(marker);
}

describe('query_knowledge refuses a knowledge base not bound to the conversation', () => {
  const requests: [string, (kbs: { bound: KnowledgeBase; unbound: KnowledgeBase }) => Record<string, unknown>, (kbs: { unbound: KnowledgeBase }) => string][] =
    [
      ['by id', ({ unbound }) => ({ kb_id: unbound.id }), ({ unbound }) => unbound.id],
      ['by name', () => ({ kb_id: unboundName }), () => unboundName],
      ['in kb_ids next to the bound one', ({ bound, unbound }) => ({ kb_ids: [bound.id, unbound.id] }), ({ unbound }) => unbound.id],
    ];

  it.each(requests)('%s → an error naming it; none of its text reaches the model', async (_name, target, named) => {
    const { fake, test } = await start({ flavour: 'llama-server', declaredTools: true });
    const knowledgeBases = await twoKnowledgeBases(test);
    fake.script(
      probeCall,
      { toolCalls: [{ name: 'query_knowledge', arguments: { action: 'query', query_text: queryText, ...target(knowledgeBases) } }] },
      { text: 'ขออภัยครับ ไม่มีสิทธิ์เข้าถึงข้อมูลนั้น' },
    );
    const handled = await test.ask(`${queryText}เท่าไร`, { conversation });
    fake.assertAllConsumed();
    expect(handled.turn?.rag).toBe('agentic');
    const call = handled.turn?.toolCalls[0];
    expect(call).toMatchObject({ name: 'query_knowledge', ok: false });
    expect(call?.result).toContain('ไม่อนุญาต');
    expect(call?.result).toContain(named(knowledgeBases));
    expect(call?.result).toContain(knowledgeBases.bound.id); // the allowed list names only the bound KB
    expect(contentOf(messagesOf(fake.chatRequests.at(-1)).at(-1))).toBe(call?.result);
    // The bound KB was not searched either: a refused call runs no retrieval at all.
    expect(everythingSent(fake)).not.toContain('ห้าพันบาท');
    expect(handled.replies[0]?.text).toBe('ขออภัยครับ ไม่มีสิทธิ์เข้าถึงข้อมูลนั้น');
    expectUnboundNeverSent(fake);
  });

  it('without kb_id searches only the bound KB: its text arrives, the unbound one does not', async () => {
    const { fake, test } = await start({ flavour: 'llama-server', declaredTools: true });
    await twoKnowledgeBases(test);
    fake.script(
      probeCall,
      { toolCalls: [{ name: 'query_knowledge', arguments: { action: 'query', query_text: queryText } }] },
      { text: 'เบิกค่าอบรมได้ตามระเบียบครับ' },
    );
    const handled = await test.ask('งบประมาณโครงการเท่าไร', { conversation });
    fake.assertAllConsumed();
    expect(handled.turn?.toolCalls).toMatchObject([{ name: 'query_knowledge', ok: true }]);
    expect(contentOf(messagesOf(fake.chatRequests.at(-1)).at(-1))).toContain('ห้าพันบาท');
    expect(handled.replies[0]?.text).toContain(`1. ${boundName} › `);
    expect(handled.replies[0]?.text).not.toContain(unboundName);
    expectUnboundNeverSent(fake);
  });

  it('action "list" shows the bound KB only', async () => {
    const { fake, test } = await start({ flavour: 'llama-server', declaredTools: true });
    const { bound, unbound } = await twoKnowledgeBases(test);
    fake.script(probeCall, { toolCalls: [{ name: 'query_knowledge', arguments: { action: 'list' } }] }, { text: 'มีคลังสวัสดิการครับ' });
    const handled = await test.ask('มีคลังความรู้อะไรบ้าง', { conversation });
    fake.assertAllConsumed();
    const result = handled.turn?.toolCalls[0]?.result ?? '';
    expect(result).toContain(bound.id);
    expect(result).not.toContain(unbound.id);
    expect(result).not.toContain(unboundName);
  });
});

describe('naive retrieval is scoped the same way', () => {
  it('passages come from the bound KB only, even when the question matches the unbound one', async () => {
    const { fake, test } = await start({ flavour: 'ollama', declaredTools: false });
    await twoKnowledgeBases(test);
    fake.script({ text: 'เบิกค่าอบรมได้ตามระเบียบครับ' });
    const handled = await test.ask(queryText, { conversation });
    fake.assertAllConsumed();
    expect(handled.turn?.rag).toBe('naive');
    expect(contentOf(messagesOf(fake.chatRequests[0]).at(-1))).toContain('ห้าพันบาท');
    expectUnboundNeverSent(fake);
  });

  it('a conversation with no bound KB gets rag "none" and no passages', async () => {
    const { fake, test } = await start({ flavour: 'ollama', declaredTools: false });
    await twoKnowledgeBases(test);
    fake.script({ text: 'ไม่ทราบครับ' });
    const handled = await test.ask('งบประมาณอบรมพนักงานเบิกได้เท่าไร', { conversation: 'elsewhere' });
    fake.assertAllConsumed();
    expect(handled.turn?.rag).toBe('none');
    expect(contentOf(messagesOf(fake.chatRequests[0]).at(-1))).toBe(`${handled.turn?.dateLine}\nงบประมาณอบรมพนักงานเบิกได้เท่าไร`);
    expect(everythingSent(fake)).not.toContain('ห้าพันบาท');
    expect(handled.replies[0]?.text).toBe('ไม่ทราบครับ');
  });
});
