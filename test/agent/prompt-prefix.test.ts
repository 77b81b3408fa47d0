import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer, type Flavour, type ScriptStep } from '../fakes/model-server.js';
import { messagesOf } from '../fakes/recorded-messages.js';
import type { FakeHttpServer } from '../fakes/search/fake-http-server.js';
import { startSearxngFake } from '../fakes/search/searxng-fake.js';
import { createTestApp, lookupTool, type TestApp } from '../support/test-app.js';
import { expectSharedPrefix, expectToolsBarred } from '../support/prompt-prefix.js';

// The prompt-cache rule on the wire (docs/architecture.md, "Turn loop and guard order"): every request of a turn,
// the tools' own model calls included, starts with the same system message, the same tools and the history as the
// request before it sent them, byte for byte, so the server re-reads only what was appended. Calls that must not
// call tools forbid them as their server honours (docs/platforms.md §7.1).

const fixedNow = () => new Date('2026-03-05T03:00:00Z');
const goldResults = (JSON.parse(readFileSync(new URL('../fixtures/search/searxng-thai-gold.json', import.meta.url), 'utf8')) as { results: unknown[] }).results;
const lookup = (query: string): ScriptStep => ({ toolCalls: [{ name: 'lookup', arguments: { query } }] });

let model: FakeModelServer | undefined;
let test: TestApp | undefined;
let search: FakeHttpServer | undefined;
afterEach(async () => {
  await test?.close();
  await model?.close();
  await search?.close();
  test = model = search = undefined;
});

async function start(flavour: Flavour, environment: Record<string, string> = {}): Promise<{ model: FakeModelServer; test: TestApp }> {
  model = await startFakeModelServer({ flavour, declaredTools: true });
  test = createTestApp({
    modelUrl: model.url,
    environment: { MODEL_TOOLS: 'on', MODEL_VISION: 'off', ...environment },
    extraTools: [lookupTool()],
    now: fixedNow,
  });
  return { model, test };
}

describe('one prompt prefix for every request of a turn (llama-server)', () => {
  it('a tool call, then the answer; the next turn starts with the same system message and tools', async () => {
    const { model, test } = await start('llama-server');
    model.script(lookup('เวลาเปิด'), { text: 'ร้านเปิด 08:00–20:00 ทุกวันค่ะ' }, { text: 'ทุกวันค่ะ' });
    await test.ask('ร้านเปิดกี่โมง');
    await test.ask('เปิดวันเสาร์ไหม');
    model.assertAllConsumed();
    expectSharedPrefix(model.chatRequests.slice(0, 2));
    const [, second, nextTurn] = model.chatRequests;
    expect(JSON.stringify(messagesOf(nextTurn)[0])).toBe(JSON.stringify(messagesOf(second)[0]));
    expect(JSON.stringify(nextTurn?.tools)).toBe(JSON.stringify(second?.tools));
    expect(nextTurn).not.toHaveProperty('tool_choice');
  });

  it('a blocked repeat: the answer without calls keeps the tools and says tool_choice "none"', async () => {
    const { model, test } = await start('llama-server');
    model.script(lookup('เวลาเปิด'), lookup('เวลาเปิด'), lookup('เวลาเปิด'), { text: 'ร้านเปิด 08:00–20:00 ทุกวันค่ะ' });
    const handled = await test.ask('ร้านเปิดกี่โมง');
    model.assertAllConsumed();
    expect(handled.turn?.stopReason).toBe('repeat-call');
    expectSharedPrefix(model.chatRequests);
    for (const body of model.chatRequests.slice(0, 3)) expect(body).not.toHaveProperty('tool_choice');
    expectToolsBarred(model.chatRequests[3]);
  });

  it('the relevance check inside web_search appends its instruction as a user message after the same prefix', async () => {
    search = await startSearxngFake({ answer: () => goldResults as Record<string, unknown>[] });
    // `always`: every result goes to the check (with `on` these, which all carry the question's words, need none).
    const { model, test } = await start('llama-server', { SEARCH_PROVIDER: 'searxng', SEARXNG_URL: search.url, SEARCH_LLM_FILTER: 'always' });
    model.script(
      { toolCalls: [{ name: 'web_search', arguments: { query: 'ราคาทองคำวันนี้' } }] },
      { text: '1: YES\n2: YES\n3: NO' },
      { text: 'ราคาทองวันนี้ 47,150 บาท' },
    );
    const handled = await test.ask('ราคาทองคำวันนี้เท่าไหร่');
    model.assertAllConsumed();
    expectSharedPrefix(model.chatRequests);
    // The check's own figures count in the turn's: three calls of the fake's 12 cached and 5 generated tokens.
    expect(handled.turn?.modelFigures).toMatchObject({ cachedTokens: 36, generatedTokens: 15 });
    const [first, check] = model.chatRequests;
    expectToolsBarred(check);
    expect(messagesOf(check)).toHaveLength(messagesOf(first).length + 1);
    const appended = messagesOf(check).at(-1);
    expect(appended?.role).toBe('user');
    expect(String(appended?.content)).toMatch(/^You judge web search results/);
  });

  it('the language retry appends to the same prefix and forbids calls', async () => {
    const { model, test } = await start('llama-server');
    model.script(lookup('เวลาเปิด'), { text: '这家商店每天早上八点开门，晚上八点关门。' }, { text: 'ร้านเปิด 08:00–20:00 ทุกวันค่ะ' });
    await test.ask('ร้านเปิดกี่โมง');
    model.assertAllConsumed();
    expectSharedPrefix(model.chatRequests);
    expectToolsBarred(model.chatRequests[2]);
  });

  it('a call under tool_choice "none" comes back as text on llama-server: cut, never run', async () => {
    const { model, test } = await start('llama-server');
    model.script(lookup('เวลาเปิด'), lookup('เวลาเปิด'), lookup('เวลาเปิด'), lookup('วันหยุด'));
    const handled = await test.ask('ร้านเปิดกี่โมง');
    model.assertAllConsumed();
    expect(handled.turn?.toolCalls.map((call) => call.name)).toEqual(['lookup', 'lookup', 'lookup']);
    expect(handled.turn?.guardEvents).toContainEqual(expect.objectContaining({ guard: 'leaked-markup' }));
  });
});

describe('servers that ignore tool_choice (Ollama)', () => {
  it('keeps the prefix, sends no tool_choice, says it in the appended message, and treats a call as no answer', async () => {
    const { model, test } = await start('ollama');
    model.script(lookup('เวลาเปิด'), { text: '这家商店每天早上八点开门。' }, lookup('วันหยุด'));
    const handled = await test.ask('ร้านเปิดกี่โมง');
    model.assertAllConsumed();
    expectSharedPrefix(model.chatRequests);
    const retry = model.chatRequests[2];
    expectToolsBarred(retry, 'ollama');
    expect(String(messagesOf(retry).at(-1)?.content)).toContain('do not call any tool');
    expect(handled.turn?.toolCalls).toHaveLength(1);
  });
});
