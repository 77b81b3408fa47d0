import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sandboxRoot } from '../../../agent/tools/files/index.js';
import { startFakeModelServer, type FakeModelServer } from '../../fakes/model-server.js';
import { messagesOf } from '../../fakes/recorded-messages.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

// Write-file claim end to end: the user asks for a file, the model says it saved one without calling write_file.
// Exactly one retry instruction reaches the model; then either the file exists and is in the reply, or the user
// gets the honest Thai message that nothing was saved.

let fake: FakeModelServer;
let test: TestApp;

beforeEach(async () => {
  fake = await startFakeModelServer({ flavour: 'llama-server', declaredTools: true });
  test = createTestApp({ modelUrl: fake.url, environment: { MODEL_TOOLS: 'on', MODEL_VISION: 'off' }, now: () => new Date('2026-11-29T04:00:00Z') });
});
afterEach(async () => {
  await test.close();
  await fake.close();
});

const notesPath = () => path.join(sandboxRoot({ dataDir: path.resolve(test.dataDir), conversationKey: 'console:local' }), 'notes.md');

const question = 'ช่วยบันทึกสรุปลงไฟล์ notes.md';
const retryInstruction = 'ผู้ใช้ขอให้บันทึกเป็นไฟล์ แต่ในรอบนี้ยังไม่มีการเรียก write_file ที่สำเร็จ';
const honestMessage = 'ขออภัย ครั้งนี้ยังไม่ได้บันทึกไฟล์ใด ๆ';
const content = '# สรุป\n- ร้านเปิดทุกวัน';

describe('write-file claim through the turn', () => {
  it('claims without calling → one retry reaches the model → it calls write_file → the file exists and is in the reply', async () => {
    fake.script(
      { text: 'บันทึกแล้วค่ะ' },
      {
        toolCalls: [{ name: 'write_file', arguments: { name: 'notes.md', content } }],
        expect: (body) => expect(Array.isArray(body.tools)).toBe(true),
      },
      { text: 'บันทึกไฟล์ notes.md เรียบร้อยแล้วค่ะ' },
    );
    const handled = await test.ask(question);
    fake.assertAllConsumed();

    // The retry: the claimed answer as the assistant turn, then the instruction as a user message.
    const retry = messagesOf(fake.chatRequests[1]);
    expect(retry.slice(-2)).toEqual([
      { role: 'assistant', content: 'บันทึกแล้วค่ะ' },
      { role: 'user', content: expect.stringContaining(retryInstruction) },
    ]);
    // Sent once: the third request only repeats the conversation so far.
    const instructionsPerRequest = fake.chatRequests.map(
      (body) => messagesOf(body).filter((message) => String(message.content).includes(retryInstruction)).length,
    );
    expect(instructionsPerRequest).toEqual([0, 1, 1]);

    expect(readFileSync(notesPath(), 'utf8')).toBe(content);
    expect(handled.replies).toHaveLength(1);
    expect(handled.replies[0]?.text).toBe('บันทึกไฟล์ notes.md เรียบร้อยแล้วค่ะ');
    expect(handled.replies[0]?.files.map((file) => file.name)).toEqual(['notes.md']);
    expect(handled.turn?.guardEvents).toContainEqual(expect.objectContaining({ guard: 'write-claim', action: 'warn' }));
    expect(handled.turn?.guardEvents.filter((event) => event.guard === 'write-claim' && event.action === 'rewrite')).toEqual([]);
  });

  it('still no write_file after the retry → the honest Thai message, the prepared content kept, no file', async () => {
    fake.script({ text: 'บันทึกแล้วค่ะ เนื้อหา:\n```md\n# สรุป\n- ร้านเปิดทุกวัน\n```' }, { text: 'เรียบร้อยแล้วค่ะ บันทึกไฟล์แล้ว' });
    const handled = await test.ask(question);
    fake.assertAllConsumed();
    expect(fake.chatRequests).toHaveLength(2);
    expect(String(messagesOf(fake.chatRequests[1]).at(-1)?.content)).toContain(retryInstruction);

    const text = handled.replies[0]?.text ?? '';
    expect(text).toContain(honestMessage);
    expect(text).toContain('```md\n# สรุป\n- ร้านเปิดทุกวัน\n```');
    expect(text).not.toContain('เรียบร้อยแล้วค่ะ บันทึกไฟล์แล้ว');
    expect(handled.replies[0]?.files).toEqual([]);
    expect(existsSync(notesPath())).toBe(false);
    expect(handled.turn?.guardEvents.filter((event) => event.guard === 'write-claim').map((event) => event.action)).toEqual(['warn', 'rewrite']);
  });

  it('a failing write_file on the retry → the honest message names the last error', async () => {
    fake.script({ text: 'บันทึกแล้วค่ะ' }, { toolCalls: [{ name: 'write_file', arguments: { name: 'notes.exe', content } }] }, { text: 'บันทึกแล้วค่ะ' });
    const handled = await test.ask(question);
    fake.assertAllConsumed();
    const text = handled.replies[0]?.text ?? '';
    expect(text).toContain(honestMessage);
    expect(text).toContain('รองรับเฉพาะไฟล์ข้อความ');
    expect(handled.replies[0]?.files).toEqual([]);
  });

  it('the history keeps the honest message, not the false claim', async () => {
    fake.script({ text: 'บันทึกแล้วค่ะ' }, { text: 'บันทึกแล้วค่ะ' }, { text: 'รับทราบค่ะ' });
    await test.ask(question);
    await test.ask('โอเค');
    const history = messagesOf(fake.chatRequests[2]).filter((message) => message.role === 'assistant');
    expect(history).toHaveLength(1);
    expect(String(history[0]?.content)).toContain(honestMessage);
  });

  const quiet: [name: string, question: string, answer: string][] = [
    ['a how-to question', 'วิธีบันทึกไฟล์ใน Excel ทำยังไง', 'กด Ctrl+S แล้วเลือกตำแหน่งที่จะบันทึกไฟล์ค่ะ'],
    ['no file asked for or claimed', 'สรุปข่าวนี้ให้หน่อย', 'สรุปสั้น ๆ คือร้านเปิดทุกวันค่ะ'],
    ['an answer that says nothing was saved', 'ร้านเปิดกี่โมง', 'ยังไม่ได้บันทึกไฟล์ใด ๆ ค่ะ ร้านเปิดทุกวัน'],
  ];
  it.each(quiet)('does not fire on %s: one request, the answer as written', async (_name, asked, answer) => {
    fake.script({ text: answer });
    const handled = await test.ask(asked);
    fake.assertAllConsumed();
    expect(fake.chatRequests).toHaveLength(1);
    expect(handled.replies[0]?.text).toBe(answer);
    expect(handled.turn?.guardEvents.filter((event) => event.guard === 'write-claim')).toEqual([]);
  });
});
