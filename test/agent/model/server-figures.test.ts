import { afterEach, describe, expect, it } from 'vitest';
import { readServerFigures } from '../../../agent/model/server-figures.js';
import { StreamAccumulator } from '../../../agent/model/stream-accumulator.js';
import type { ServerKind } from '../../../agent/model/fingerprint.js';
import { fakeTimings, fakeUsage, startFakeModelServer, type FakeModelServer, type Flavour } from '../../fakes/model-server.js';
import { clientOfKind } from '../../support/model-client.js';

// The model server's own figures (llama-server `timings`, `usage`) read off the wire: bounded, validated, never a throw.

let fake: FakeModelServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function clientFor(flavour: Flavour, server: ServerKind | undefined) {
  fake = await startFakeModelServer({ flavour });
  return { fake, model: clientOfKind(fake, server, 256) };
}

const ask = { messages: [{ role: 'user' as const, content: 'สวัสดี' }] };
const fakeFigures = { promptTokens: 20, cachedTokens: 12, processedTokens: 8, generatedTokens: 5, promptMs: 40.5, generationMs: 90.1 };

describe('readServerFigures', () => {
  it('reads llama-server timings and OpenAI usage (cached tokens from prompt_tokens_details too)', () => {
    expect(readServerFigures({ choices: [], usage: fakeUsage, timings: fakeTimings })).toEqual(fakeFigures);
    // Without usage, llama-server's prompt is its cached plus its processed tokens.
    expect(readServerFigures({ timings: fakeTimings })).toEqual(fakeFigures);
    expect(readServerFigures({ usage: { prompt_tokens: 30, completion_tokens: 4, prompt_tokens_details: { cached_tokens: 16 } } })).toEqual({
      promptTokens: 30,
      generatedTokens: 4,
      cachedTokens: 16,
    });
    expect(readServerFigures({ choices: [{ delta: { content: 'x' } }] })).toEqual({});
  });

  it('ignores garbage: strings, negatives, huge numbers, NaN, Infinity, wrong shapes', () => {
    const garbage = [
      { timings: { cache_n: '12', prompt_n: -8, prompt_ms: Number.NaN, predicted_n: 1e300, predicted_ms: Number.POSITIVE_INFINITY } },
      { usage: { prompt_tokens: '20', completion_tokens: null }, timings: 'fast' },
      { usage: [1, 2], timings: [12, 8] },
      { usage: { prompt_tokens: { value: 20 } }, timings: { cache_n: true, prompt_n: {} } },
      'data: {"timings":{}}',
      null,
      42,
    ];
    for (const chunk of garbage) expect(readServerFigures(chunk)).toEqual({});
    // A good field beside bad ones is kept.
    expect(readServerFigures({ timings: { cache_n: 3, prompt_n: 'x', predicted_ms: -1 } })).toEqual({ cachedTokens: 3 });
  });

  it('the accumulator keeps the last value of each figure and hands them back with the result', () => {
    const accumulator = new StreamAccumulator();
    accumulator.push({ choices: [{ index: 0, delta: { content: 'สวัสดี' } }], usage: null });
    accumulator.push({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], timings: { ...fakeTimings, prompt_n: 'bad' } });
    accumulator.push({ choices: [], usage: fakeUsage, timings: fakeTimings });
    const result = accumulator.finish();
    expect(result.content).toBe('สวัสดี');
    expect(result.figures).toEqual(fakeFigures);
  });
});

describe('the client and the server figures', () => {
  it('asks llama-server for usage and carries its figures on the call result', async () => {
    const { fake, model } = await clientFor('llama-server', 'llama-server');
    fake.script({ text: 'สวัสดีครับ' });
    const result = await model.call(ask);
    expect(fake.chatRequests[0]?.stream_options).toEqual({ include_usage: true });
    expect(result.content).toBe('สวัสดีครับ');
    expect(result.figures).toEqual(fakeFigures);
    fake.assertAllConsumed();
  });

  it('reads Ollama usage (tokens only), and asks an unknown server for nothing but reads what it sends', async () => {
    const ollama = await clientFor('ollama', 'ollama');
    ollama.fake.script({ text: 'ok' });
    expect((await ollama.model.call(ask)).figures).toEqual({ promptTokens: 20, generatedTokens: 5 });
    await ollama.fake.close();

    const generic = await clientFor('generic', 'generic');
    generic.fake.script({ chunks: [{ choices: [{ index: 0, delta: { content: 'ok' }, finish_reason: 'stop' }], usage: fakeUsage }] });
    const result = await generic.model.call(ask);
    expect(generic.fake.chatRequests[0]).not.toHaveProperty('stream_options');
    expect(result.figures).toEqual({ promptTokens: 20, generatedTokens: 5 });
  });

  it('a stream with garbage figures still gives its answer, with no figures', async () => {
    const { fake, model } = await clientFor('llama-server', 'llama-server');
    fake.script({
      chunks: [
        { choices: [{ index: 0, delta: { content: 'ok' } }] },
        { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], timings: { cache_n: -1, prompt_n: 'many', prompt_ms: 1e308 } },
        { choices: [], usage: { prompt_tokens: -20, completion_tokens: '5' } },
      ],
    });
    const result = await model.call(ask);
    expect(result.content).toBe('ok');
    expect(result.figures).toEqual({});
  });

  it('hands a completion’s figures to onFigures (a whole response: usage and timings), without stream_options', async () => {
    const { fake, model } = await clientFor('llama-server', 'llama-server');
    fake.script({ text: 'yes' });
    const seen: unknown[] = [];
    expect(await model.complete({ ...ask, onFigures: (figures) => seen.push(figures) })).toBe('yes');
    expect(seen).toEqual([fakeFigures]);
    expect(fake.chatRequests[0]).not.toHaveProperty('stream_options');
  });
});
