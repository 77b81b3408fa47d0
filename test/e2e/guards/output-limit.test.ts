import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from '../../fakes/model-server.js';
import { createTestApp, lookupTool, type TestApp } from '../../support/test-app.js';

// A model server that ignores max_tokens, end to end: the turn closes the stream at MODEL_MAX_ANSWER_CHARS (or the
// reasoning bound), the usual guards run on what came, and the reply says it was cut.

let fake: FakeModelServer;
let test: TestApp;

beforeEach(async () => {
  fake = await startFakeModelServer({ flavour: 'llama-server', declaredTools: true });
  test = createTestApp({
    modelUrl: fake.url,
    environment: { MODEL_TOOLS: 'on', MODEL_VISION: 'off', MODEL_MAX_ANSWER_CHARS: '3000', MODEL_MAX_REASONING_CHARS: '5000' },
    extraTools: [lookupTool()],
  });
});
afterEach(async () => {
  await test.close();
  await fake.close();
});

const cutNote = '(คำตอบนี้ยาวหรือใช้เวลานานเกินกำหนด จึงถูกตัดไว้เพียงเท่านี้)';

describe('model output bounds through the turn', () => {
  it('sends the answer cut at the bound, guarded, with the Thai note', async () => {
    fake.script({ endless: { sentence: 'ดูที่ https://example.com/page ร้านเปิดทุกวัน', sentencesPerChunk: 3 } });
    const handled = await test.ask('เล่าเรื่องร้านนี้');

    await fake.whenClosedEarly(1);
    const text = handled.replies[0]?.text ?? '';
    expect(text.endsWith(cutNote)).toBe(true);
    expect(text).toContain('ร้านเปิดทุกวัน');
    // The usual pipeline ran on the cut text: the URL no tool gave is removed by the sources guard.
    expect(text).not.toContain('https://example.com/page');
    expect(text.length).toBeLessThan(3_000 + cutNote.length + 10);
    expect(handled.turn?.stopReason).toBe('output-limit');
    expect(handled.turn?.guardEvents).toContainEqual(expect.objectContaining({ guard: 'output-limit', action: 'rewrite' }));
    expect(fake.chatRequests).toHaveLength(1);
  });

  it('a model thinking forever is cut too: the apology for no answer, with the note', async () => {
    fake.script({ endless: { sentence: 'hmm let me think', reasoning: true, sentencesPerChunk: 5 } });
    const handled = await test.ask('สวัสดี');

    await fake.whenClosedEarly(1);
    const text = handled.replies[0]?.text ?? '';
    expect(text).toContain(cutNote);
    expect(text).not.toContain('hmm let me think');
    expect(handled.turn?.stopReason).toBe('output-limit');
  });

  it('answers in English with BOT_LANGUAGE=en', async () => {
    await test.close();
    test = createTestApp({ modelUrl: fake.url, environment: { BOT_LANGUAGE: 'en', MODEL_TOOLS: 'off', MODEL_VISION: 'off', MODEL_MAX_ANSWER_CHARS: '1000' } });
    fake.script({ endless: { sentence: 'Once upon a time there was a shop' } });
    const handled = await test.ask('tell me a story');
    expect(handled.replies[0]?.text).toContain('(This answer ran past the length or time limit, so it was cut here.)');
  });
});
