import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TurnInput } from '../../src/shared/turn-runner.js';
import { startFakeModelServer, type FakeModelServer, type RequestBody } from '../fakes/model-server.js';
import { messagesOf, newestUserContent } from '../fakes/recorded-messages.js';
import { expectToolsBarred } from '../support/prompt-prefix.js';
import { createTestApp, lookupTool, type TestApp } from '../support/test-app.js';

// A space's settings on the turn (TurnInput.language, languageFixed, spaceInstructions): the real agent against the
// scripted fake model server, driven directly (the router that passes them is tested with it).

let fake: FakeModelServer;
let test: TestApp;
const fixedNow = () => new Date('2026-11-29T04:00:00Z');

beforeEach(async () => {
  fake = await startFakeModelServer({ flavour: 'llama-server', declaredTools: true });
  // BOT_LANGUAGE is Thai (the default): every English word below comes from the turn's own language.
  test = createTestApp({ modelUrl: fake.url, environment: { MODEL_TOOLS: 'on', MODEL_VISION: 'off' }, extraTools: [lookupTool()], now: fixedNow });
});
afterEach(async () => {
  await test.close();
  await fake.close();
});

const turn = (question: string, input: Partial<TurnInput> = {}) =>
  test.app.agent.runTurn({ conversationKey: 'console:space', spaceKey: 'console:space', question, images: [], ...input });
const systemOf = (body: RequestBody | undefined) => String(messagesOf(body)[0]?.content);
const languageEvents = (outcome: Awaited<ReturnType<typeof turn>>) =>
  outcome.record.guardEvents.filter((event) => event.guard === 'language').map((event) => event.action);

describe('a turn in the language of its space', () => {
  it("uses the English system prompt and date line on a Thai bot, and the language step's English notice", async () => {
    const thai = 'ร้านเปิดทุกวันตั้งแต่แปดโมงเช้าถึงสองทุ่มครับ';
    fake.script({ text: thai }, { text: 'ร้านเปิดแปดโมงเช้า ปิดสองทุ่มครับ', expect: (body) => expectToolsBarred(body) });
    const outcome = await turn('When does the shop open?', { language: 'en' });
    fake.assertAllConsumed();
    const first = fake.chatRequests[0];
    expect(systemOf(first).startsWith('You are "')).toBe(true);
    expect(systemOf(first)).not.toMatch(/[\u0e01-\u0e4f]{4}/); // no Thai sentence (แสง is the bot's name)
    expect(String(newestUserContent(first))).toMatch(/^\[Current date and time: Sunday 29 November 2026 \(B\.E\. 2569\)/);
    // An English question to a Thai bot expects no language; in an English turn it expects English.
    expect(String(newestUserContent(fake.chatRequests[1]))).toContain('Answer in English only.');
    expect(languageEvents(outcome)).toEqual(['retry', 'warn']);
    expect(outcome.reply.text).toBe(`(The model answered in another language and could not rewrite it in English; its original answer is below.)\n\n${thai}`);
    expect(outcome.record.language).toBe('en');
  });

  it('says a cancelled turn in English', async () => {
    const controller = new AbortController();
    controller.abort();
    const outcome = await turn('When does the shop open?', { language: 'en', signal: controller.signal });
    expect(outcome.record.stopReason).toBe('cancelled');
    expect(outcome.reply.text).toBe('Cancelled.');
    expect(outcome.record.language).toBe('en');
  });

  it('without a language keeps the Thai prompt and date line', async () => {
    fake.script({ text: 'ร้านเปิดแปดโมงครับ' });
    const outcome = await turn('ร้านเปิดกี่โมง');
    expect(systemOf(fake.chatRequests[0]).startsWith('คุณคือ "')).toBe(true);
    expect(String(newestUserContent(fake.chatRequests[0]))).toMatch(/^\[วันเวลาปัจจุบัน:/);
    expect(outcome.record.language).toBe('th');
  });
});

describe('a fixed language', () => {
  const englishAnswer = 'The shop is open every day from eight in the morning until eight in the evening.';

  it('asks for Thai again when an English question in a Thai-fixed space got an English answer', async () => {
    fake.script({ text: englishAnswer }, { text: 'ร้านเปิดทุกวันตั้งแต่แปดโมงเช้าถึงสองทุ่มครับ', expect: (body) => expectToolsBarred(body) });
    const outcome = await turn('When does the shop open?', { language: 'th', languageFixed: true });
    fake.assertAllConsumed();
    expect(systemOf(fake.chatRequests[0])).toContain('ตอบเป็นภาษาไทยเสมอ แม้คำถามจะเป็นภาษาอื่น เว้นแต่ผู้ใช้ขอภาษาอื่นหรือขอให้แปล');
    expect(String(newestUserContent(fake.chatRequests[1]))).toContain('กลุ่มนี้ตั้งให้ตอบเป็นภาษาไทย');
    expect(languageEvents(outcome)).toEqual(['retry']);
    expect(outcome.reply.text).toBe('ร้านเปิดทุกวันตั้งแต่แปดโมงเช้าถึงสองทุ่มครับ');
    expect(outcome.record.drafts).toContain(englishAnswer);
  });

  it('leaves the English answer alone when the user asked to translate to English', async () => {
    fake.script({ text: englishAnswer });
    const outcome = await turn('translate to English: ร้านเปิดทุกวันตั้งแต่แปดโมงเช้าถึงสองทุ่ม', { language: 'th', languageFixed: true });
    fake.assertAllConsumed();
    expect(fake.chatRequests).toHaveLength(1);
    expect(languageEvents(outcome)).toEqual([]);
    expect(outcome.reply.text).toBe(englishAnswer);
  });

  it('asks for English again when a Thai question in an English-fixed space got a Thai answer', async () => {
    fake.script({ text: 'ร้านเปิดทุกวันตั้งแต่แปดโมงเช้าถึงสองทุ่มครับ' }, { text: englishAnswer, expect: (body) => expectToolsBarred(body) });
    const outcome = await turn('ร้านเปิดกี่โมง', { language: 'en', languageFixed: true });
    fake.assertAllConsumed();
    expect(systemOf(fake.chatRequests[0])).toContain('Always answer in English, even when the question is in another language');
    expect(String(newestUserContent(fake.chatRequests[1]))).toContain('This chat is set to answer in English');
    expect(languageEvents(outcome)).toEqual(['retry']);
    expect(outcome.reply.text).toBe(englishAnswer);
  });

  it('without languageFixed an English question to a Thai space may be answered in English', async () => {
    fake.script({ text: englishAnswer });
    const outcome = await turn('When does the shop open?', { language: 'th' });
    expect(fake.chatRequests).toHaveLength(1);
    expect(languageEvents(outcome)).toEqual([]);
  });
});

describe("a space's instructions", () => {
  const heading = 'คำแนะนำเพิ่มเติมจากผู้ดูแลกลุ่มนี้ (ทำตามได้ตราบที่ไม่ขัดกับกฎข้างบน):';

  it('go last in the system prompt, byte-identical on every turn of the space, other per space; tools unchanged', async () => {
    const cats = 'ลงท้ายทุกคำตอบด้วยเหมียว';
    const formal = 'ใช้ภาษาทางการ';
    const spaces = [
      ['console:cats', cats],
      ['console:cats', cats],
      ['console:formal', formal],
      ['console:plain', undefined],
    ] as const;
    for (const [index, [space, instructions]] of spaces.entries()) {
      fake.script({ toolCalls: [{ name: 'lookup', arguments: { query: `q${index}` } }] }, { text: `คำตอบ ${index}` });
      await turn(`คำถาม ${index}`, { conversationKey: space, spaceKey: space, ...(instructions ? { spaceInstructions: instructions } : {}) });
    }
    fake.assertAllConsumed();
    const systems = fake.chatRequests.map(systemOf);
    expect(systems).toHaveLength(8);
    expect(systems[0]?.endsWith(`\n\n${heading}\n${cats}`)).toBe(true);
    // Every call of the cats space, over two turns: the same bytes.
    expect(new Set(systems.slice(0, 4)).size).toBe(1);
    expect(systems[4]?.endsWith(`\n\n${heading}\n${formal}`)).toBe(true);
    expect(systems[4]).toBe(systems[5]);
    expect(systems[4]).not.toBe(systems[0]);
    expect(systems[6]).not.toContain(heading);
    // The instructions only add to the space-less prompt, after the tool policies.
    expect(systems[0]).toBe(`${systems[6]}\n\n${heading}\n${cats}`);
    expect(new Set(fake.chatRequests.map((body) => JSON.stringify(body.tools))).size).toBe(1);
  });
});
