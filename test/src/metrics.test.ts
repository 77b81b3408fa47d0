import { afterEach, describe, expect, it } from 'vitest';
import { Metrics } from '../../src/metrics.js';
import { createOcrEngine } from '../../src/ocr/ocr-engine.js';
import { silentLogger } from '../../src/shared/log.js';
import { startFakeModelServer, type FakeModelServer } from '../fakes/model-server.js';
import { createTestApp, lookupTool, type TestApp } from '../support/test-app.js';
import { toolCall, turnRecord } from '../support/turn-record.js';

// GET /metrics' series after real turns: names by the Prometheus conventions, labels only from fixed sets.

let fake: FakeModelServer | undefined;
let test: TestApp | undefined;
afterEach(async () => {
  await test?.close();
  await fake?.close();
  test = undefined;
  fake = undefined;
});

/** The label values of every saeng_ series in the exposition text. */
function labelValues(exposition: string): string[] {
  return [...exposition.matchAll(/^saeng_\w+\{([^}\n]{0,500})\}/gm)].flatMap((match) =>
    [...(match[1] ?? '').matchAll(/="([^"]{0,200})"/g)].map((value) => value[1] ?? ''),
  );
}

/** The app against a fake llama-server with tools on and the lookup tool, its turns recorded into fresh metrics. */
async function appWithLookup(options: { logLevel?: string } = {}): Promise<{ fake: FakeModelServer; test: TestApp; metrics: Metrics }> {
  fake = await startFakeModelServer({ flavour: 'llama-server', declaredTools: true });
  const metrics = new Metrics();
  test = createTestApp({
    modelUrl: fake.url,
    environment: { MODEL_TOOLS: 'on', MODEL_VISION: 'off' },
    extraTools: [lookupTool()],
    ...options,
    observe: (handled, message) => metrics.record(handled, message),
  });
  return { fake, test, metrics };
}

describe('metrics', () => {
  it('a scripted turn through the app: turns, times, tool calls by tool and result (unknown names as other), replies per platform', async () => {
    const { fake, test, metrics } = await appWithLookup();
    const app = test.app;
    metrics.attach({ toolNames: app.tools.map((tool) => tool.name), queueStats: () => app.queueStats() });
    fake.script(
      { toolCalls: [{ name: 'lookup', arguments: { query: 'เวลาเปิด' } }] },
      { toolCalls: [{ name: 'made_up_tool_for_user_8812', arguments: {} }] },
      { text: 'ร้านเปิด 08:00–20:00 ทุกวันค่ะ' },
    );
    const handled = await test.ask('ร้านสมชายเปิดกี่โมง รหัสลับ 8812');
    fake.assertAllConsumed();
    expect(handled.turn?.toolCalls.map((call) => [call.name, call.ok])).toEqual([
      ['lookup', true],
      ['made_up_tool_for_user_8812', false],
    ]);

    const exposition = await metrics.registry.metrics();
    expect(exposition).toContain('saeng_tool_calls_total{tool="lookup",result="ok"} 1');
    expect(exposition).toContain('saeng_tool_calls_total{tool="other",result="error"} 1');
    expect(exposition).toContain('saeng_turns_total{outcome="answer",rag="none"} 1');
    expect(exposition).toContain('saeng_messages_total{kind="dispatch",reason="direct"} 1');
    expect(exposition).toContain('saeng_replies_sent_total{platform="console"} 1');
    expect(exposition).toContain('saeng_turn_seconds_count 1');
    expect(exposition).toContain('saeng_turn_model_seconds_count 1');
    expect(exposition).toContain('saeng_inbound_queue_depth{platform="telegram"} 0');
    expect(exposition).toContain('saeng_inbound_queue_oldest_age_seconds{platform="console"} 0');
    expect(exposition).toContain('saeng_dlp_blocks_total 0');
    // Process figures and the event-loop lag come with the default metrics.
    expect(exposition).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
    expect(exposition).toMatch(/^process_resident_memory_bytes \d/m);

    const values = labelValues(exposition);
    expect(values).toContain('lookup');
    // Fixed vocabulary only: short ASCII names and bucket bounds, never the Thai question, the user or the odd tool name.
    expect(values.filter((value) => !/^(?:[a-z][a-z_-]{0,39}|\d+(?:\.\d+)?|\+Inf)$/.test(value))).toEqual([]);
    expect(values.filter((value) => value.includes('8812') || value.includes('made_up') || value === 'owner')).toEqual([]);
  });

  it("a turn against llama-server adds the server's token figures; the turn log has the sums, numbers only", async () => {
    const { fake, test, metrics } = await appWithLookup({ logLevel: 'info' });
    const before = await metrics.registry.metrics();
    expect(before).toContain('saeng_model_prompt_tokens_total{platform="console"} 0');
    fake.script({ toolCalls: [{ name: 'lookup', arguments: { query: 'เวลาเปิด' } }] }, { text: 'ร้านเปิด 08:00–20:00 ทุกวันค่ะ' });
    const handled = await test.ask('ร้านสมชายเปิดกี่โมง');
    fake.assertAllConsumed();
    expect(fake.chatRequests.map((body) => body.stream_options)).toEqual([{ include_usage: true }, { include_usage: true }]);
    // Two calls, each the fake's figures: 20 prompt tokens, 12 from the cache, 8 processed, 5 generated.
    const expected = { promptTokens: 40, cachedTokens: 24, processedTokens: 16, generatedTokens: 10, promptMs: 81, generationMs: 180.2 };
    expect(handled.turn?.modelFigures).toEqual(expected);
    const exposition = await metrics.registry.metrics();
    expect(exposition).toContain('saeng_model_prompt_tokens_total{platform="console"} 40');
    expect(exposition).toContain('saeng_model_cached_prompt_tokens_total{platform="console"} 24');
    expect(exposition).toContain('saeng_model_processed_prompt_tokens_total{platform="console"} 16');
    expect(exposition).toContain('saeng_model_generated_tokens_total{platform="console"} 10');
    const logged = test.logRecords.find((record) => record.msg === 'turn');
    expect(logged).toMatchObject({ ...expected, promptMs: 81, generationMs: 180 });
  });

  it('garbage timings and usage from the server are ignored: the turn answers and the counters stay at 0', async () => {
    fake = await startFakeModelServer({ flavour: 'llama-server', declaredTools: false });
    const metrics = new Metrics();
    test = createTestApp({ modelUrl: fake.url, environment: { MODEL_TOOLS: 'off', MODEL_VISION: 'off' }, observe: (handled) => metrics.record(handled) });
    const garbage = { cache_n: 'many', prompt_n: -8, prompt_ms: 1e308, predicted_n: 1e300, predicted_ms: null };
    fake.script({
      chunks: [
        { choices: [{ index: 0, delta: { role: 'assistant', content: 'สวัสดีค่ะ' }, finish_reason: null }] },
        { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], timings: garbage },
        { choices: [], usage: { prompt_tokens: '20', completion_tokens: -5 }, timings: 'fast' },
      ],
    });
    const handled = await test.ask('สวัสดี');
    expect(handled.replies[0]?.text).toContain('สวัสดีค่ะ');
    expect(handled.turn?.modelFigures).toEqual({});
    const exposition = await metrics.registry.metrics();
    for (const name of ['prompt', 'cached_prompt', 'processed_prompt', 'generated'])
      expect(exposition).toContain(`saeng_model_${name}_tokens_total{platform="console"} 0`);
  });

  it('labels a command by its name only when it is one of ours (a typed "/anything" adds no label)', async () => {
    const metrics = new Metrics();
    const command = (name: string) => ({
      admission: { kind: 'command' as const, reason: 'command' as const, command: { name, rest: '', words: [] } },
      replies: [],
    });
    metrics.record(command('settings'));
    for (let index = 0; index < 50; index++) metrics.record(command(`made-up-${index}`));
    const exposition = await metrics.registry.metrics();
    expect(exposition).toContain('saeng_messages_total{kind="command",reason="settings"} 1');
    expect(exposition).toContain('saeng_messages_total{kind="command",reason="unknown-command"} 50');
    expect(exposition).not.toContain('made-up');
  });

  it('a DLP block counts as a guard event and in its own counter; guard passes are not counted', async () => {
    const metrics = new Metrics();
    metrics.attach({
      toolNames: ['query_knowledge'],
      queueStats: async () => ({ pending: 2, oldestPendingAgeSeconds: 9, byPlatform: { line: { pending: 2, oldestPendingAgeSeconds: 9 } } }),
    });
    const turn = turnRecord({
      stopReason: 'step-limit',
      toolCalls: [toolCall({ name: 'query_knowledge' })],
      guardEvents: [
        { guard: 'dlp', action: 'block', reason: 'a token' },
        { guard: 'numbers', action: 'pass', reason: 'ok' },
      ],
    });
    metrics.record({ admission: { kind: 'dispatch', reason: 'mention' }, replies: [{ text: 'x', files: [] }], turn }, { platform: 'line' });
    const exposition = await metrics.registry.metrics();
    expect(exposition).toContain('saeng_dlp_blocks_total 1');
    expect(exposition).toContain('saeng_guard_events_total{guard="dlp",action="block"} 1');
    expect(exposition).not.toContain('guard="numbers"');
    expect(exposition).toContain('saeng_turns_total{outcome="step-limit",rag="agentic"} 1');
    expect(exposition).toContain('saeng_tool_calls_total{tool="query_knowledge",result="ok"} 1');
    expect(exposition).toContain('saeng_replies_sent_total{platform="line"} 1');
    expect(exposition).toContain('saeng_inbound_queue_depth{platform="line"} 2');
    expect(exposition).toContain('saeng_inbound_queue_oldest_age_seconds{platform="line"} 9');
  });

  it("adds a turn's usage by platform: model seconds, successful web searches, OCR pages, tokens", async () => {
    const metrics = new Metrics();
    const turn = turnRecord({
      modelMs: 2500,
      imagesRead: 2,
      modelFigures: { promptTokens: 300, generatedTokens: 40 },
      toolCalls: [toolCall({ name: 'web_search' }), toolCall({ name: 'web_search', ok: false }), toolCall({ name: 'read_image' })],
    });
    metrics.record({ admission: { kind: 'dispatch', reason: 'mention' }, replies: [], turn }, { platform: 'telegram' });
    const exposition = await metrics.registry.metrics();
    expect(exposition).toContain('saeng_usage_model_seconds_total{platform="telegram"} 2.5');
    expect(exposition).toContain('saeng_usage_searches_total{platform="telegram"} 1');
    expect(exposition).toContain('saeng_usage_ocr_pages_total{platform="telegram"} 2');
    expect(exposition).toContain('saeng_model_prompt_tokens_total{platform="telegram"} 300');
    expect(exposition).toContain('saeng_model_generated_tokens_total{platform="telegram"} 40');
    expect(exposition).toContain('saeng_usage_searches_total{platform="line"} 0');
  });

  it('counts what each adapter reports of its sending under its own platform label, starting from 0', async () => {
    const metrics = new Metrics();
    const before = await metrics.registry.metrics();
    for (const platform of ['discord', 'telegram', 'line']) {
      expect(before).toContain(`saeng_platform_messages_sent_total{platform="${platform}"} 0`);
      expect(before).toContain(`saeng_platform_rate_limited_total{platform="${platform}"} 0`);
    }
    const telegram = metrics.deliveryObserver('telegram');
    const line = metrics.deliveryObserver('line');
    for (const event of ['rate-limited', 'retried', 'sent', 'sent'] as const) telegram(event);
    line('retried');
    line('sent');
    const exposition = await metrics.registry.metrics();
    expect(exposition).toContain('saeng_platform_messages_sent_total{platform="telegram"} 2');
    expect(exposition).toContain('saeng_platform_retries_total{platform="telegram"} 1');
    expect(exposition).toContain('saeng_platform_rate_limited_total{platform="telegram"} 1');
    expect(exposition).toContain('saeng_platform_messages_sent_total{platform="line"} 1');
    expect(exposition).toContain('saeng_platform_retries_total{platform="line"} 1');
    expect(exposition).toContain('saeng_platform_rate_limited_total{platform="line"} 0');
    expect(exposition).toContain('saeng_platform_retries_total{platform="discord"} 0');
    // The console sends through no platform API: no series for it.
    expect(exposition).not.toMatch(/^saeng_platform_\w+\{platform="console"\}/m);
  });

  it('image reads through the OCR engine are counted by outcome and timed', async () => {
    const metrics = new Metrics();
    const engine = createOcrEngine({
      languages: 'tha+eng',
      timeoutMs: 1000,
      concurrency: 1,
      executable: '/nonexistent/tesseract',
      prepare: async (bytes) => ({ ok: true, png: bytes }),
      log: silentLogger(),
      observe: (observation) => metrics.recordOcr(observation),
    });
    const result = await engine.read(new Uint8Array([1, 2, 3]));
    expect(result).toMatchObject({ ok: false, failure: { code: 'unavailable' } });
    const exposition = await metrics.registry.metrics();
    expect(exposition).toContain('saeng_ocr_jobs_total{outcome="unavailable"} 1');
    expect(exposition).toContain('saeng_ocr_seconds_count 1');
  });
});
