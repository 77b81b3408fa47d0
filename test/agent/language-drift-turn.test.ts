import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from '../fakes/model-server.js';
import { messagesOf, newestUserContent } from '../fakes/recorded-messages.js';
import { createTestApp, lookupTool, type TestApp } from '../support/test-app.js';
import { expectToolsBarred } from '../support/prompt-prefix.js';

// The language step end to end: the real turn, router and model client against the scripted fake model server.

let fake: FakeModelServer;
let test: TestApp;
const fixedNow = () => new Date('2026-11-29T04:00:00Z');
const chinese = '根据查询结果，这家商店每天的营业时间是 08:00–20:00，欢迎光临。';
const notice = '(โมเดลตอบเป็นภาษาอื่น และเขียนเป็นภาษาไทยใหม่ไม่สำเร็จ คำตอบเดิมอยู่ด้านล่าง)';

function start(environment: Record<string, string> = {}): void {
  test = createTestApp({
    modelUrl: fake.url,
    environment: { MODEL_TOOLS: 'on', MODEL_VISION: 'off', ...environment },
    extraTools: [lookupTool()],
    now: fixedNow,
  });
}

beforeEach(async () => {
  fake = await startFakeModelServer({ flavour: 'llama-server', declaredTools: true });
  start();
});
afterEach(async () => {
  await test.close();
  await fake.close();
});

const languageEvents = (handled: Awaited<ReturnType<TestApp['ask']>>) =>
  handled.turn?.guardEvents.filter((event) => event.guard === 'language').map((event) => event.action);

describe('language drift through the turn', () => {
  it('asks once, without tools, for Thai; the Thai answer goes out and the numbers guard still checks it', async () => {
    fake.script({ toolCalls: [{ name: 'lookup', arguments: { query: 'เวลาเปิด' } }] }, { text: chinese }, { text: 'ร้านเปิด 08:00–20:00 ทุกวันค่ะ วันนี้ลด 15%' });
    const handled = await test.ask('ร้านเปิดกี่โมง');
    fake.assertAllConsumed();
    expect(fake.chatRequests).toHaveLength(3);
    const retry = fake.chatRequests[2];
    expectToolsBarred(retry);
    expect(String(newestUserContent(retry))).toContain('ภาษาไทย');
    const messages = messagesOf(retry);
    expect(messages.at(-2)).toMatchObject({ role: 'assistant', content: chinese });
    // The tool result is still in the conversation: the figure it backs stands, the invented one is marked.
    expect(messages.some((message) => message.role === 'tool' && String(message.content).includes('08:00–20:00'))).toBe(true);
    expect(handled.replies.map((reply) => reply.text)).toEqual(['ร้านเปิด 08:00–20:00 ทุกวันค่ะ วันนี้ลด [ตัวเลขยังไม่ยืนยัน]']);
    expect(handled.turn?.drafts).toContain(chinese);
    expect(languageEvents(handled)).toEqual(['retry']);
    expect(handled.turn?.steps).toBe(3);
  });

  it('gives a Thai notice above the original answer when the retry stays Chinese', async () => {
    fake.script({ text: chinese }, { text: '这家商店每天早上八点开门，晚上八点关门。', expect: (body) => expectToolsBarred(body) });
    const handled = await test.ask('ร้านเปิดกี่โมง');
    fake.assertAllConsumed();
    expect(fake.chatRequests).toHaveLength(2);
    expect(handled.replies[0]?.text.startsWith(`${notice}\n\n根据查询结果`)).toBe(true);
    expect(languageEvents(handled)).toEqual(['retry', 'warn']);
    expect(handled.turn?.drafts).toEqual([chinese, '这家商店每天早上八点开门，晚上八点关门。']);
  });

  it('leaves an English answer to "แปลเป็นภาษาอังกฤษ" alone: one request only', async () => {
    fake.script({ text: 'The shop is open every day from eight in the morning until eight in the evening.' });
    const handled = await test.ask('แปลเป็นภาษาอังกฤษ: ร้านเปิดทุกวันตั้งแต่แปดโมงเช้าถึงสองทุ่ม');
    fake.assertAllConsumed();
    expect(fake.chatRequests).toHaveLength(1);
    expect(handled.replies[0]?.text).toBe('The shop is open every day from eight in the morning until eight in the evening.');
    expect(languageEvents(handled)).toEqual([]);
  });

  it('leaves a code answer to a code question alone', async () => {
    const code = 'Here is the code:\n```python\nimport csv, sys\nfor row in csv.reader(sys.stdin):\n    print(row)\n```\nIt prints each row of the input.';
    fake.script({ text: code });
    const handled = await test.ask('เขียนโค้ด python อ่าน csv จาก stdin แล้วพิมพ์ทีละแถว');
    fake.assertAllConsumed();
    expect(fake.chatRequests).toHaveLength(1);
    expect(languageEvents(handled)).toEqual([]);
  });

  it('asks for English when the bot is English and an English question got a Thai answer', async () => {
    await test.close();
    start({ BOT_LANGUAGE: 'en' });
    fake.script(
      { text: 'ร้านเปิดทุกวันตั้งแต่แปดโมงเช้าถึงสองทุ่มครับ' },
      { text: 'The shop is open every day from 8 am to 8 pm.', expect: (body) => expectToolsBarred(body) },
    );
    const handled = await test.ask('When does the shop open?');
    fake.assertAllConsumed();
    expect(String(newestUserContent(fake.chatRequests[1]))).toContain('in English');
    expect(handled.replies[0]?.text).toBe('The shop is open every day from 8 am to 8 pm.');
    expect(languageEvents(handled)).toEqual(['retry']);
  });
});
