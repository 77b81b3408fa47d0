import { afterEach, describe, expect, it } from 'vitest';
import { createModelClient } from '../../../agent/model/client.js';
import type { OutputLimits } from '../../../agent/model/types.js';
import { silentLogger } from '../../../src/shared/log.js';
import { startFakeModelServer, type FakeModelServer } from '../../fakes/model-server.js';

// A server that ignores max_tokens (the 920,000-character answer of the issue): our own bounds close the stream and
// keep what came, cut at the bound. The fake streams until the client closes (bounded at 2,000,000 characters).

let fake: FakeModelServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const limits: OutputLimits = { answerChars: 6_000, reasoningChars: 24_000, stepMs: 300_000 };

async function client(outputLimits: OutputLimits) {
  fake = await startFakeModelServer({ flavour: 'llama-server' });
  const model = createModelClient({
    baseUrl: fake.url,
    apiKey: 'no-key',
    model: 'qwen3.5-2b',
    timeoutMs: 5_000,
    retries: 2,
    maxTokens: 256,
    outputLimits,
    log: silentLogger(),
    backoffMs: 1,
  });
  return { fake, model };
}

const messages = [{ role: 'user' as const, content: 'เล่าเรื่องยาว ๆ' }];

describe('output bounds of one model call', () => {
  it('closes an endless answer at the answer bound and keeps the text so far', async () => {
    const { fake, model } = await client(limits);
    fake.script({ endless: { sentence: 'กาลครั้งหนึ่งนานมาแล้ว', sentencesPerChunk: 4 } });
    const result = await model.call({ messages });

    expect(result.cut).toBe('answer-length');
    expect(result.aborted).toBe(false);
    expect(result.content.length).toBeLessThanOrEqual(limits.answerChars);
    expect(result.content.length).toBeGreaterThan(limits.answerChars - 200);
    expect(result.content).toContain('กาลครั้งหนึ่งนานมาแล้ว 1. ');
    await fake.whenClosedEarly(1);
    // The fake stops once it sees the close: far below its own 2,000,000-character bound.
    expect(fake.endlessCharsSent).toBeLessThan(200_000);
    expect(fake.chatRequests).toHaveLength(1);
  });

  it('closes endless reasoning at its own bound: no answer text, nothing retried', async () => {
    const { fake, model } = await client(limits);
    fake.script({ endless: { sentence: 'ลองคิดดูอีกที', reasoning: true, sentencesPerChunk: 8 } });
    const result = await model.call({ messages });

    expect(result.cut).toBe('reasoning-length');
    expect(result.content).toBe('');
    expect(result.reasoning.length).toBeLessThanOrEqual(limits.reasoningChars);
    await fake.whenClosedEarly(1);
    expect(fake.chatRequests).toHaveLength(1);
  });

  it('closes a slow endless stream at the step time bound (silence alone never ends it)', async () => {
    const { fake, model } = await client({ answerChars: 1_000_000, reasoningChars: 1_000_000, stepMs: 300 });
    fake.script({ endless: { sentence: 'thinking', reasoning: true, delayMs: 5 } });
    const result = await model.call({ messages });

    expect(result.cut).toBe('time');
    await fake.whenClosedEarly(1);
    expect(fake.endlessCharsSent).toBeLessThan(2_000_000);
  });

  it('cuts a whole (non-streamed) completion to the answer bound', async () => {
    const { fake, model } = await client({ ...limits, answerChars: 1_000 });
    fake.script({ text: 'ก'.repeat(50_000) });
    const text = await model.complete({ messages });
    expect(text).toHaveLength(1_000);
  });

  it('never ends a cut answer in half a surrogate pair', async () => {
    const { fake, model } = await client({ ...limits, answerChars: 501 });
    fake.script({ text: '😀'.repeat(2_000), chunkSize: 400 });
    const result = await model.call({ messages });
    expect(result.cut).toBe('answer-length');
    expect(result.content).toBe('😀'.repeat(250));
  });
});
