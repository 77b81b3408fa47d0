import { afterEach, describe, expect, it } from 'vitest';
import { approximateTokens } from './model-server-pace.js';
import { startFakeModelServer, type FakeModelServer } from './model-server.js';

// The paced fake (a CPU box's time): one token per SSE chunk, the prompt read before the first byte, one slot's
// prompt cache. Rates are high so the file stays fast; the log's counts are asserted, its times only in order.

let fake: FakeModelServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const question = (text: string) => ({ role: 'user', content: text });
const system = { role: 'system', content: 'คุณคือแสง ผู้ช่วยภาษาไทย '.repeat(20) };

async function ask(server: FakeModelServer, messages: unknown[], stream = true): Promise<string> {
  const response = await fetch(`${server.url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'x', messages, stream }),
  });
  return response.text();
}

const contents = (raw: string): string[] =>
  raw
    .split('\n\n')
    .filter((event) => event.startsWith('data: {'))
    .map((event) => JSON.parse(event.slice('data: '.length)) as { choices: { delta?: { content?: string } }[] })
    .flatMap((chunk) => chunk.choices.map((choice) => choice.delta?.content ?? ''))
    .filter((content) => content !== '');

describe('paced fake model server', () => {
  it('streams one token per chunk after reading the prompt, and logs the moments', async () => {
    fake = await startFakeModelServer({ flavour: 'llama-server', pace: { promptTokensPerSecond: 6000, generationTokensPerSecond: 1200 } });
    const answer = 'ราคาทองคำแท่งวันนี้ขายออก 47,150 บาทครับ';
    fake.script({ text: answer });
    const pieces = contents(await ask(fake, [system, question('ราคาทองวันนี้')]));
    expect(pieces).toEqual(approximateTokens(answer));
    const [call] = fake.paced;
    expect(call?.generatedTokens).toBe(pieces.length);
    expect(call?.processedTokens).toBe(call?.promptTokens);
    expect(call && call.requestAt <= (call.firstByteAt ?? -1) && (call.firstByteAt ?? -1) <= (call.firstContentAt ?? -1)).toBe(true);
    expect((call?.endAt ?? -1) >= (call?.firstContentAt ?? Infinity)).toBe(true);
  });

  it('reads only what follows the previous prompt (one slot), and paces whole answers and tool calls too', async () => {
    fake = await startFakeModelServer({ flavour: 'llama-server', pace: { promptTokensPerSecond: 6000, generationTokensPerSecond: 1200, timeScale: 10 } });
    fake.script({ toolCalls: [{ name: 'web_search', arguments: { query: 'ราคาทอง' } }] }, { text: 'ครับ' }, { text: 'ค่ะ' });
    await ask(fake, [system, question('ราคาทองวันนี้')]);
    await ask(fake, [system, question('ราคาทองวันนี้'), { role: 'assistant', content: 'ครับ' }, question('ขอบคุณ')]);
    await ask(fake, [question('อื่น')], false);
    const [first, second, third] = fake.paced;
    expect(first?.generatedTokens).toBeGreaterThan(0);
    expect(first?.firstContentAt).toBeUndefined();
    expect(second?.processedTokens).toBeLessThan((second?.promptTokens ?? 0) - (first?.promptTokens ?? 0) / 2);
    expect(third?.processedTokens).toBeGreaterThan((third?.promptTokens ?? 0) / 2);
    expect(third?.endAt).toBeDefined();
  });
});
