import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { knowledgePolicy } from '../../../agent/tools/query-knowledge/index.js';
import { pick } from '../../../src/shared/i18n.js';
import {
  refusalStep,
  startFakeModelServer,
  type FakeModelServer,
  type FakeModelServerOptions,
  type RequestBody,
  type ScriptStep,
} from '../../fakes/model-server.js';
import { messagesOf, type RecordedMessage as Message } from '../../fakes/recorded-messages.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

// Agentic vs naive knowledge-base retrieval end to end, per model-server flavour: /kb create → add → bind through
// the router, capabilities really detected (MODEL_TOOLS=auto), then one Thai question through the whole turn.

const fixedNow = () => new Date('2026-11-29T04:00:00Z');
const knowledgeBaseName = 'คู่มือพนักงาน';
const documentName = 'leave-policy.md';
const sourceList = `**แหล่งที่มา**\n1. ${knowledgeBaseName} › ${documentName}`;
const passage = 'พนักงานประจำลาพักร้อนได้ 12 วันต่อปี';
const documentText = ['# นโยบายการลา', '', `${passage} โดยต้องแจ้งหัวหน้างานล่วงหน้าอย่างน้อย 3 วันทำการ`, '', 'การลาป่วยเกิน 3 วันติดต่อกันต้องแนบใบรับรองแพทย์'].join('\n');
const question = 'พนักงานประจำลาพักร้อนได้กี่วันต่อปี';
// Figures in words (and ≤ 10): the numbers guard is covered separately below.
const answer = 'ลาพักร้อนได้ปีละสิบสองวันครับ ต้องแจ้งหัวหน้างานล่วงหน้าอย่างน้อย 3 วันทำการ';
const answerWithFigure = 'ลาพักร้อนได้ 12 วันต่อปีครับ';
const probeCall: ScriptStep = { toolCalls: [{ name: 'get_time', arguments: {} }] };

let folder: string;
let documentPath: string;
let fake: FakeModelServer | undefined;
let test: TestApp | undefined;

beforeAll(() => {
  folder = mkdtempSync(path.join(os.tmpdir(), 'saeng-e2e-kb-'));
  documentPath = path.join(folder, documentName);
  writeFileSync(documentPath, documentText);
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));
afterEach(async () => {
  await test?.close();
  await fake?.close();
  test = undefined;
  fake = undefined;
});

const contentOf = (message: Message | undefined) => (typeof message?.content === 'string' ? message.content : '');
const toolNamesOf = (body: RequestBody | undefined) => ((body?.tools ?? []) as { function?: { name?: string } }[]).map((tool) => tool.function?.name);
/** The capability probe is the only request offering the dummy get_time tool. */
const isProbe = (body: RequestBody) => toolNamesOf(body).includes('get_time');

async function start(options: FakeModelServerOptions): Promise<{ fake: FakeModelServer; test: TestApp }> {
  fake = await startFakeModelServer({ ...options, modelId: 'test-model' });
  test = createTestApp({ modelUrl: fake.url, environment: { MODEL_TOOLS: 'auto', MODEL_VISION: 'auto' }, now: fixedNow });
  return { fake, test };
}

/** /kb create, /kb add with an attached Markdown file, /kb bind — as the console owner (a global admin). */
async function createAddBind(app: TestApp): Promise<void> {
  const created = await app.ask(`/kb create ${knowledgeBaseName} นโยบายฝ่ายบุคคล`);
  expect(created.replies[0]?.text).toContain(`สร้างคลังความรู้ **${knowledgeBaseName}**`);
  const added = await app.ask(`/kb add ${knowledgeBaseName}`, { attachmentPaths: [documentPath] });
  expect(added.replies[0]?.text).toContain(`✅ “${documentName}” เพิ่มแล้ว`);
  const bound = await app.ask(`/kb bind ${knowledgeBaseName}`);
  expect(bound.replies[0]?.text).toContain(`ห้องนี้ใช้คลังความรู้ **${knowledgeBaseName}** แล้ว`);
}

interface FlavourCase {
  name: string;
  server: FakeModelServerOptions;
  probe: ScriptStep[];
  mode: 'agentic' | 'naive';
}

const flavours: FlavourCase[] = [
  {
    name: 'llama-server declares tools and the probe calls get_time',
    server: { flavour: 'llama-server', declaredTools: true },
    probe: [probeCall],
    mode: 'agentic',
  },
  {
    name: 'LM Studio declares tool use and the probe calls get_time',
    server: { flavour: 'lmstudio', declaredTools: true },
    probe: [probeCall],
    mode: 'agentic',
  },
  { name: 'Ollama /api/show declares no tools (no probe)', server: { flavour: 'ollama', declaredTools: false }, probe: [], mode: 'naive' },
  { name: 'vLLM refuses tools on the probe', server: { flavour: 'vllm' }, probe: [refusalStep('vllm')], mode: 'naive' },
  {
    name: 'a generic server answers both probes in plain text',
    server: { flavour: 'generic' },
    probe: [{ text: 'ตอนนี้ไม่ทราบเวลาครับ' }, { text: 'ขออภัย ไม่ทราบเวลา' }],
    mode: 'naive',
  },
];

describe('knowledge-base retrieval mode per model-server flavour', () => {
  it.each(flavours.map((flavour) => [`${flavour.name} → ${flavour.mode}`, flavour] as const))('%s', async (_title, { server, probe, mode }) => {
    const { fake, test } = await start(server);
    await createAddBind(test);
    expect(fake.chatRequests).toHaveLength(0); // commands never reach the model
    if (mode === 'agentic') {
      fake.script(...probe, { toolCalls: [{ name: 'query_knowledge', arguments: { action: 'query', query_text: 'ลาพักร้อน' } }] }, { text: answer });
    } else {
      fake.script(...probe, { text: answer });
    }

    const handled = await test.ask(question);
    fake.assertAllConsumed();
    const turn = handled.turn;
    expect(turn?.rag).toBe(mode);
    expect(turn?.capabilities.tools).toBe(mode === 'agentic');
    expect(fake.chatRequests.filter(isProbe)).toHaveLength(probe.length);
    const requests = fake.chatRequests.filter((body) => !isProbe(body));
    const first = messagesOf(requests[0]);
    const system = contentOf(first[0]);
    const newest = contentOf(first.at(-1));
    const storedPart = `${turn?.dateLine}\n${question}`;
    const reply = handled.replies[0]?.text ?? '';
    const policy = pick(knowledgePolicy, 'th');
    expect(reply).toBe(`${answer}\n\n${sourceList}`);
    expect(system).not.toContain(passage);

    if (mode === 'agentic') {
      expect(requests).toHaveLength(2);
      expect(system.split(policy)).toHaveLength(2); // the policy, exactly once
      expect(toolNamesOf(requests[0])).toContain('query_knowledge');
      expect(newest).toBe(storedPart); // no passages: the agent retrieves for itself
      const toolResult = messagesOf(requests[1]).at(-1);
      expect(toolResult?.role).toBe('tool');
      expect(contentOf(toolResult)).toContain(passage);
      expect(contentOf(toolResult)).toContain(`[source: ${knowledgeBaseName} › ${documentName}]`);
      expect(turn?.toolCalls).toMatchObject([{ name: 'query_knowledge', ok: true }]);
    } else {
      expect(requests).toHaveLength(1);
      expect(requests[0]?.tools).toBeUndefined();
      expect(system).not.toContain(policy);
      // The stored part first, then the passages after the question.
      expect(newest.startsWith(`${storedPart}\n\n`)).toBe(true);
      expect(newest.slice(storedPart.length)).toContain(passage);
      expect(newest).toContain(`${knowledgeBaseName} › ${documentName}`);
      expect(turn?.toolCalls).toEqual([]);
    }
    if (server.flavour === 'ollama') expect(fake.requests.some((request) => request.path === '/api/show')).toBe(true);
  });
});

describe('a figure the answer quotes from the retrieved passages', () => {
  it('agentic: supported by the query_knowledge result, left as written', async () => {
    const { fake, test } = await start({ flavour: 'llama-server', declaredTools: true });
    await createAddBind(test);
    fake.script(probeCall, { toolCalls: [{ name: 'query_knowledge', arguments: { action: 'query', query_text: 'ลาพักร้อน' } }] }, { text: answerWithFigure });
    const handled = await test.ask(question);
    fake.assertAllConsumed();
    expect(handled.replies[0]?.text).toBe(`${answerWithFigure}\n\n${sourceList}`);
    expect(handled.turn?.guardEvents.filter((event) => event.guard === 'numbers')).toEqual([]);
  });

  // Known bug: runAnswerGuards (agent/guards/index.ts) takes its number support from tool results, the question
  // and the date line only; the naive-RAG passages the model was given in the user message are not part of it,
  // so "12" (straight from the document) becomes [ตัวเลขยังไม่ยืนยัน]. Remove `.fails` once the passages count.
  it('naive: supported by the passages in the user message, left as written', async () => {
    const { fake, test } = await start({ flavour: 'ollama', declaredTools: false });
    await createAddBind(test);
    fake.script({ text: answerWithFigure });
    const handled = await test.ask(question);
    fake.assertAllConsumed();
    expect(handled.turn?.rag).toBe('naive');
    expect(handled.replies[0]?.text).toBe(`${answerWithFigure}\n\n${sourceList}`);
  });
});
