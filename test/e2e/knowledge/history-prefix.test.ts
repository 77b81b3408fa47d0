import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer, type FakeModelServerOptions, type RequestBody, type ScriptStep } from '../../fakes/model-server.js';
import { messagesOf, type RecordedMessage as Message } from '../../fakes/recorded-messages.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

// The history a knowledge-base conversation re-sends: each earlier user message exactly as it was sent (date line +
// question, and in naive mode the passages after it: the history keeps them for a few turns), each earlier answer
// without its source list, so each request starts with the whole previous one (the server's prompt cache depends
// on it). A passage the history still carries is named in a follow-up, not sent again.

const fixedNow = () => new Date('2026-11-29T04:00:00Z');
const knowledgeBaseName = 'ระเบียบ';
const documentName = 'hr-rules.txt';
const documentText = [
  'การลาพักร้อน: พนักงานประจำลาพักร้อนได้ปีละสิบสองวัน ต้องแจ้งหัวหน้างานล่วงหน้า',
  '',
  'การลาป่วย: ลาป่วยติดต่อกันเกินสามวันต้องแนบใบรับรองแพทย์ทุกครั้ง',
  '',
  'การทำงานล่วงเวลา: ต้องได้รับอนุมัติจากผู้จัดการฝ่ายก่อนเริ่มงาน',
].join('\n');
const sourceList = `**แหล่งที่มา**\n1. ${knowledgeBaseName} › ${documentName}`;
const turns = [
  { question: 'ลาพักร้อนได้กี่วัน', answer: 'ลาพักร้อนได้ปีละสิบสองวันครับ', passage: 'ลาพักร้อนได้ปีละสิบสองวัน' },
  { question: 'ลาป่วยต้องมีใบรับรองแพทย์ไหม', answer: 'ลาป่วยเกินสามวันต้องมีใบรับรองแพทย์ครับ', passage: 'แนบใบรับรองแพทย์ทุกครั้ง' },
  { question: 'ทำโอทีต้องขออนุมัติใคร', answer: 'ต้องขออนุมัติผู้จัดการฝ่ายก่อนครับ', passage: 'อนุมัติจากผู้จัดการฝ่าย' },
];

let folder: string;
let documentPath: string;
let fake: FakeModelServer | undefined;
let test: TestApp | undefined;

beforeAll(() => {
  folder = mkdtempSync(path.join(os.tmpdir(), 'saeng-e2e-history-'));
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
const isProbe = (body: RequestBody) => JSON.stringify(body.tools ?? []).includes('"get_time"');

const modes: { mode: 'naive' | 'agentic'; server: FakeModelServerOptions; probe: ScriptStep[] }[] = [
  { mode: 'naive', server: { flavour: 'ollama', declaredTools: false }, probe: [] },
  { mode: 'agentic', server: { flavour: 'llama-server', declaredTools: true }, probe: [{ toolCalls: [{ name: 'get_time', arguments: {} }] }] },
];

describe('history in a conversation with a bound knowledge base', () => {
  it.each(modes.map((entry) => [entry.mode, entry] as const))(
    '%s: earlier turns are re-sent as they were sent, without source lists',
    async (_mode, { mode, server, probe }) => {
      fake = await startFakeModelServer({ ...server, modelId: 'test-model' });
      test = createTestApp({ modelUrl: fake.url, environment: { MODEL_TOOLS: 'auto', MODEL_VISION: 'auto' }, now: fixedNow });
      await test.ask(`/kb create ${knowledgeBaseName}`);
      expect((await test.ask(`/kb add ${knowledgeBaseName}`, { attachmentPaths: [documentPath] })).replies[0]?.text).toContain('เพิ่มแล้ว');
      await test.ask(`/kb bind ${knowledgeBaseName}`);
      fake.script(...probe);

      const stored: string[] = [];
      const sent: Message[][] = [];
      for (const [index, turn] of turns.entries()) {
        const retrieve: ScriptStep[] =
          mode === 'agentic' ? [{ toolCalls: [{ name: 'query_knowledge', arguments: { action: 'query', query_text: turn.question } }] }] : [];
        fake.script(...retrieve, { text: turn.answer });
        const before = fake.chatRequests.length;
        const handled = await test.ask(turn.question);
        fake.assertAllConsumed();
        expect(handled.turn?.rag).toBe(mode);
        expect(handled.replies[0]?.text).toBe(`${turn.answer}\n\n${sourceList}`);
        const first = messagesOf(fake.chatRequests.slice(before).find((body) => !isProbe(body)));
        sent.push(first);
        const newest = contentOf(first.at(-1));
        stored.push(newest);

        // system, then (user, assistant) per earlier turn, then the newest user message.
        const expectedHistory = turns.slice(0, index).flatMap((earlier, earlierIndex): Message[] => [
          { role: 'user', content: stored[earlierIndex] },
          { role: 'assistant', content: earlier.answer },
        ]);
        expect(first.slice(1, -1)).toEqual(expectedHistory);
        const question = `${handled.turn?.dateLine}\n${turn.question}`;
        if (mode === 'agentic') expect(newest).toBe(question);
        else if (index === 0) expect(newest.slice(question.length)).toContain(turn.passage);
        // The document's one passage is in the first message still: named, not repeated.
        else expect(newest.slice(question.length)).toBe(`\n\nข้อความจากเอกสารต่อไปนี้ที่ให้ไว้ในข้อความก่อนหน้ายังเกี่ยวกับคำถามนี้: ${knowledgeBaseName} › ${documentName}`);
      }
      // Each request starts with the whole previous request, byte for byte.
      for (let index = 1; index < sent.length; index++) {
        const previous = sent[index - 1] ?? [];
        expect(JSON.stringify(sent[index]?.slice(0, previous.length))).toBe(JSON.stringify(previous));
      }
    },
  );
});
