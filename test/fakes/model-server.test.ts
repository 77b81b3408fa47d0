import { afterEach, describe, expect, it } from 'vitest';
import { fakeTimings, fakeUsage, refusalStep, startFakeModelServer, type FakeModelServer, type FakeModelServerOptions, type Flavour } from './model-server.js';

// The fake is only useful if it speaks the real wire format: these tests read its raw bytes.

let fake: FakeModelServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function start(options?: FakeModelServerOptions): Promise<FakeModelServer> {
  fake = await startFakeModelServer(options);
  return fake;
}

function post(url: string, body: unknown): Promise<Response> {
  return fetch(`${url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

function sseEvents(raw: string): string[] {
  expect(raw.endsWith('data: [DONE]\n\n')).toBe(true);
  return raw
    .split('\n\n')
    .filter((event) => event !== '')
    .map((event) => {
      expect(event.startsWith('data: ')).toBe(true);
      return event.slice('data: '.length);
    });
}

describe('fake model server', () => {
  it('streams text in SSE frames with OpenAI chunk fields and llama-server timings on the last chunk', async () => {
    const server = await start({ flavour: 'llama-server' });
    server.script({ text: 'สวัสดีครับ', chunkSize: 3, reasoning: 'คิด' });
    const response = await post(server.url, { model: 'x', messages: [], stream: true });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = sseEvents(await response.text());
    expect(events.at(-1)).toBe('[DONE]');
    const chunks = events.slice(0, -1).map((event) => JSON.parse(event) as Record<string, unknown>);
    for (const parsed of chunks) {
      expect(parsed).toMatchObject({ object: 'chat.completion.chunk', model: 'qwen3.5-2b' });
      expect(typeof parsed.id).toBe('string');
      expect(typeof parsed.created).toBe('number');
    }
    const deltas = chunks.map((parsed) => (parsed.choices as { delta: Record<string, unknown> }[])[0]?.delta);
    expect(deltas.map((delta) => delta?.content ?? '').join('')).toBe('สวัสดีครับ');
    expect(deltas.map((delta) => delta?.reasoning_content ?? '').join('')).toBe('คิด');
    expect(chunks.at(-1)).toMatchObject({ choices: [{ delta: {}, finish_reason: 'stop' }], timings: { cache_n: 12 } });
    expect(chunks.slice(0, -1).every((parsed) => !('timings' in parsed))).toBe(true);
    server.assertAllConsumed();
  });

  it('answers stream_options.include_usage as each server does: a last chunk of `choices: []` and `usage`, llama-server timings on it', async () => {
    const closing = async (flavour: Flavour) => {
      const server = await startFakeModelServer({ flavour });
      try {
        server.script({ text: 'ok' });
        const body = { model: 'x', messages: [], stream: true, stream_options: { include_usage: true } };
        const events = sseEvents(await (await post(server.url, body)).text());
        return events.slice(-3, -1).map((event) => JSON.parse(event) as Record<string, unknown>);
      } finally {
        await server.close();
      }
    };
    const [llamaFinish, llamaUsage] = await closing('llama-server');
    expect(llamaFinish).toMatchObject({ choices: [{ finish_reason: 'stop' }] });
    expect(llamaFinish).not.toHaveProperty('timings');
    expect(llamaUsage).toMatchObject({ object: 'chat.completion.chunk', choices: [], usage: fakeUsage, timings: fakeTimings });
    const [, ollamaUsage] = await closing('ollama');
    expect(ollamaUsage).toMatchObject({ choices: [], usage: fakeUsage, system_fingerprint: 'fp_ollama' });
    expect(ollamaUsage).not.toHaveProperty('timings');
    // LM Studio's handling is not verified: the fake sends no usage chunk, so clients must do without.
    const [, lmStudioLast] = await closing('lmstudio');
    expect(lmStudioLast).toMatchObject({ choices: [{ finish_reason: 'stop' }] });
    expect(lmStudioLast).not.toHaveProperty('usage');
  });

  it('streams Ollama whole calls with fp_ollama, `reasoning` and a separate finish chunk', async () => {
    const server = await start({ flavour: 'ollama' });
    server.script({ toolCalls: [{ name: 'get_time', arguments: { timezone: 'Asia/Bangkok' }, id: 'call_1' }] });
    const events = sseEvents(await (await post(server.url, { stream: true })).text());
    const chunks = events
      .slice(0, -1)
      .map((event) => JSON.parse(event) as { system_fingerprint: string; choices: { delta: Record<string, unknown>; finish_reason: string | null }[] });
    expect(chunks.every((parsed) => parsed.system_fingerprint === 'fp_ollama')).toBe(true);
    expect(chunks[0]?.choices[0]?.delta.tool_calls).toEqual([
      { index: 0, id: 'call_1', type: 'function', function: { name: 'get_time', arguments: { timezone: 'Asia/Bangkok' } } },
    ]);
    expect(chunks.at(-1)?.choices[0]).toEqual({ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: 'tool_calls' });
  });

  it('answers stream:false with a chat.completion object', async () => {
    const server = await start();
    server.script({ toolCalls: [{ name: 'web_search', arguments: { query: 'x' }, id: 'c' }] });
    const body = (await (await post(server.url, { stream: false })).json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      object: 'chat.completion',
      choices: [
        { message: { tool_calls: [{ id: 'c', type: 'function', function: { name: 'web_search', arguments: '{"query":"x"}' } }] }, finish_reason: 'tool_calls' },
      ],
    });
  });

  it.each([
    ['llama-server', 500, { error: { code: 500, message: 'tools param requires --jinja flag', type: 'server_error' } }],
    [
      'ollama',
      400,
      { error: { message: 'registry.ollama.ai/library/qwen3.5:2b does not support tools', type: 'invalid_request_error', param: null, code: null } },
    ],
    [
      'vllm',
      400,
      {
        object: 'error',
        message: '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set',
        type: 'BadRequestError',
        param: null,
        code: 400,
      },
    ],
  ] as const)('sends the real %s tools refusal', async (flavour, status, body) => {
    const server = await start({ flavour });
    server.script(refusalStep(flavour));
    const response = await post(server.url, { stream: true, tools: [] });
    expect(response.status).toBe(status);
    expect(await response.json()).toEqual(body);
  });

  it('records unscripted calls and failed expectations, and answers 500', async () => {
    const server = await start();
    server.script({
      text: 'ok',
      expect: (body) => expect(body.tools).toBeDefined(),
    });
    await (await post(server.url, { stream: false })).text();
    const unscripted = await post(server.url, { stream: false });
    expect(unscripted.status).toBe(500);
    expect(await unscripted.json()).toMatchObject({ error: { message: 'unscripted call POST /v1/chat/completions' } });
    expect(server.unexpected).toHaveLength(2);
    expect(server.unexpected[0]).toMatch(/expectation failed/);
    expect(() => server.assertAllConsumed()).toThrow(/unscripted call/);
    expect(server.chatRequests).toHaveLength(2);
  });

  it('reports steps that were never consumed', async () => {
    const server = await start();
    server.script({ text: 'never asked' });
    expect(() => server.assertAllConsumed()).toThrow(/1 scripted step/);
  });

  it('stops a repeatText stream and counts closedEarly when the client goes away', async () => {
    const server = await start();
    server.script({ repeatText: 'ha', times: 500, delayMs: 5 });
    const controller = new AbortController();
    const response = await fetch(`${server.url}/chat/completions`, { method: 'POST', body: '{"stream":true}', signal: controller.signal });
    const reader = response.body?.getReader();
    await reader?.read();
    controller.abort();
    await expect.poll(() => server.closedEarly).toBe(1);
    const sent = server.repeatsSent;
    expect(sent).toBeLessThan(500);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(server.repeatsSent).toBe(sent);
  });

  it.each([
    ['llama-server', ['/props', '/health', '/v1/models'], ['/api/version', '/api/v0/models']],
    ['ollama', ['/api/version', '/api/tags', '/v1/models', '/'], ['/props', '/api/v1/models']],
    ['vllm', ['/v1/models', '/health'], ['/props', '/api/version']],
    ['lmstudio', ['/v1/models', '/api/v0/models', '/api/v1/models'], ['/props', '/api/version']],
    ['generic', ['/v1/models'], ['/props', '/health', '/api/version', '/api/v0/models']],
  ] as const)('%s answers its own endpoints and 404s the others', async (flavour, present, absent) => {
    const server = await start({ flavour, declaredTools: true, declaredVision: false });
    for (const path of present) expect((await fetch(`${server.origin}${path}`)).status, path).toBe(200);
    for (const path of absent) expect((await fetch(`${server.origin}${path}`)).status, path).toBe(404);
    expect(server.unexpected).toEqual([]);
  });

  it('declares capabilities per options: llama-server /props and Ollama /api/show', async () => {
    const llama = await startFakeModelServer({ flavour: 'llama-server', declaredTools: false, declaredVision: true });
    const props = (await (await fetch(`${llama.origin}/props`)).json()) as Record<string, unknown>;
    expect(props).toMatchObject({ chat_template_caps: { supports_tools: false, supports_tool_calls: false }, modalities: { vision: true } });
    expect(props).toHaveProperty('default_generation_settings');
    expect(props).toHaveProperty('build_info');
    await llama.close();

    const server = await start({ flavour: 'ollama', declaredTools: true, declaredVision: true });
    const show = await fetch(`${server.origin}/api/show`, { method: 'POST', body: JSON.stringify({ model: 'qwen3.5:2b' }) });
    expect(await show.json()).toMatchObject({ capabilities: ['completion', 'tools', 'vision', 'thinking'] });
    const missing = await fetch(`${server.origin}/api/show`, { method: 'POST', body: JSON.stringify({ model: 'nope' }) });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: "model 'nope' not found" });
  });

  it.each([
    ['llama-server', false],
    ['vllm', false],
    ['lmstudio', false],
    ['ollama', true],
  ] as const)('tool_choice "none" on %s: a scripted call comes back as a call only where the field is ignored', async (flavour, asCall) => {
    const server = await start({ flavour });
    server.script({ toolCalls: [{ name: 'lookup', arguments: { query: 'เวลาเปิด' } }] });
    const response = await post(server.url, { model: 'x', messages: [], tools: [], tool_choice: 'none' });
    const message = ((await response.json()) as { choices: { message: { content: string | null; tool_calls?: unknown[] } }[] }).choices[0]?.message;
    expect(message?.tool_calls !== undefined).toBe(asCall);
    if (!asCall) expect(message?.content).toBe('<tool_call>\n{"name":"lookup","arguments":{"query":"เวลาเปิด"}}\n</tool_call>');
  });
});
