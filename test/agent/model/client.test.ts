import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { classifyHttpError, extractErrorMessage, isToolsRefusal } from '../../../agent/model/errors.js';
import { createModelClient, type ModelClientOptions } from '../../../agent/model/client.js';
import { ModelError, type ModelErrorKind } from '../../../agent/model/types.js';
import { silentLogger } from '../../../src/shared/log.js';
import {
  contextOverflowStep,
  loadingStep,
  refusalStep,
  startFakeModelServer,
  type FakeModelServer,
  type FakeModelServerOptions,
  type ScriptStep,
} from '../../fakes/model-server.js';

let fake: FakeModelServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function start(options?: FakeModelServerOptions): Promise<FakeModelServer> {
  fake = await startFakeModelServer(options);
  return fake;
}

function client(server: { url: string }, overrides: Partial<ModelClientOptions> = {}) {
  return createModelClient({
    baseUrl: server.url,
    apiKey: 'no-key',
    model: 'qwen3.5-2b',
    timeoutMs: 5_000,
    retries: 2,
    maxTokens: 256,
    log: silentLogger(),
    backoffMs: 1,
    ...overrides,
  });
}

const ask = { messages: [{ role: 'user' as const, content: 'สวัสดี' }] };
const searchTool = {
  type: 'function' as const,
  function: { name: 'web_search', description: 'Search the web', parameters: { type: 'object', properties: { query: { type: 'string' } } } },
};

async function failure(promise: Promise<unknown>): Promise<ModelError> {
  const error: unknown = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ModelError);
  return error as ModelError;
}

async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/v1`;
}

describe('createModelClient().call', () => {
  it('streams text to the watcher and sends a lean body (no tools key, no temperature)', async () => {
    const server = await start({ flavour: 'llama-server' });
    server.script({
      text: 'สวัสดีครับ ยินดีช่วย',
      chunkSize: 4,
      expect: (body) => {
        expect(body).toMatchObject({ model: 'qwen3.5-2b', stream: true, max_tokens: 256 });
        expect(body).not.toHaveProperty('tools');
        expect(body).not.toHaveProperty('parallel_tool_calls');
        expect(body).not.toHaveProperty('temperature');
      },
    });
    const seen: string[] = [];
    const result = await client(server).call({ ...ask, tools: [], onText: (visible) => (seen.push(visible), 'continue') });
    expect(result).toMatchObject({ content: 'สวัสดีครับ ยินดีช่วย', aborted: false, finishReason: 'stop', toolCalls: [] });
    expect(seen.at(-1)).toBe('สวัสดีครับ ยินดีช่วย');
    expect(seen.length).toBeGreaterThan(2);
    server.assertAllConsumed();
  });

  it('assembles streamed tool calls and sends tools with parallel_tool_calls:false and the request max_tokens', async () => {
    const server = await start({ flavour: 'vllm' });
    server.script({
      text: '\n\n',
      toolCalls: [{ name: 'web_search', arguments: { query: 'ราคาทองวันนี้' }, id: 'chatcmpl-tool-1' }],
      expect: (body) => expect(body).toMatchObject({ tools: [searchTool], parallel_tool_calls: false, max_tokens: 64 }),
    });
    const result = await client(server).call({ ...ask, tools: [searchTool], maxTokens: 64 });
    expect(result.toolCalls).toEqual([{ id: 'chatcmpl-tool-1', name: 'web_search', argumentsText: '{"query":"ราคาทองวันนี้"}' }]);
    expect(result.content).toBe('');
    expect(result.finishReason).toBe('tool_calls');
    server.assertAllConsumed();
  });

  it('keeps Ollama `reasoning` out of the content and away from the watcher', async () => {
    const server = await start({ flavour: 'ollama' });
    server.script({ text: 'ตอบ', reasoning: 'secret plan' });
    const seen: string[] = [];
    const result = await client(server).call({ ...ask, onText: (_visible, delta) => (seen.push(delta), 'continue') });
    expect(result.content).toBe('ตอบ');
    expect(result.reasoning).toBe('secret plan');
    expect(seen.join('')).toBe('ตอบ');
  });

  it('closes the connection at once when the watcher aborts', async () => {
    const server = await start();
    server.script({ repeatText: 'วนซ้ำ ', times: 400, delayMs: 5 });
    const result = await client(server).call({ ...ask, onText: (visible) => (visible.length > 30 ? 'abort' : 'continue') });
    expect(result.aborted).toBe(true);
    expect(result.content.length).toBeGreaterThan(30);
    await expect.poll(() => server.closedEarly).toBe(1);
    expect(server.repeatsSent).toBeLessThan(400);
    expect(server.chatRequests).toHaveLength(1);
  });

  it("returns what it has when the caller's signal aborts", async () => {
    const server = await start();
    server.script({ repeatText: 'a', times: 400, delayMs: 5 });
    const controller = new AbortController();
    const result = await client(server).call({
      ...ask,
      signal: controller.signal,
      onText: (visible) => {
        if (visible.length >= 3) controller.abort();
        return 'continue';
      },
    });
    expect(result.aborted).toBe(true);
    await expect.poll(() => server.closedEarly).toBe(1);
  });

  it.each([
    ['a 500', { error: { status: 500, body: { error: { code: 500, message: 'slot crashed', type: 'server_error' } } } }],
    ['a 503 Loading model', loadingStep()],
    ['a 502 from a proxy as HTML', { garbage: '<html><body>502 Bad Gateway</body></html>', status: 502 }],
  ] as [string, ScriptStep][])('retries after %s, then succeeds', async (_name, step) => {
    const server = await start({ flavour: 'llama-server' });
    server.script(step, step, { text: 'ok' });
    const result = await client(server).call(ask);
    expect(result.content).toBe('ok');
    expect(server.chatRequests).toHaveLength(3);
    server.assertAllConsumed();
  });

  it('gives up after `retries` attempts with the last error', async () => {
    const server = await start();
    server.script(loadingStep(), loadingStep());
    const error = await failure(client(server, { retries: 1 }).call(ask));
    expect(error.kind).toBe('loading');
    expect(error.status).toBe(503);
    server.assertAllConsumed();
  });

  it.each([
    ['llama-server refusal', refusalStep('llama-server'), 'tools-unsupported', 500],
    ['Ollama refusal', refusalStep('ollama'), 'tools-unsupported', 400],
    ['vLLM refusal (old error body)', refusalStep('vllm'), 'tools-unsupported', 400],
    ['context overflow', contextOverflowStep(), 'context-overflow', 400],
    ['plain 400', { error: { status: 400, body: { error: { message: 'model "x" not found', type: 'invalid_request_error' } } } }, 'bad-request', 400],
    ['401', { error: { status: 401, body: { error: { message: 'Invalid API Key', type: 'authentication_error' } } } }, 'bad-request', 401],
  ] as [string, ScriptStep, ModelErrorKind, number][])('never retries a definitive answer: %s', async (_name, step, kind, status) => {
    const server = await start();
    server.script(step, { text: 'should not be asked' });
    const error = await failure(client(server).call({ ...ask, tools: [searchTool] }));
    expect(error.kind).toBe(kind);
    expect(error.status).toBe(status);
    expect(server.chatRequests).toHaveLength(1);
  });

  it.each([
    ['OpenAI shape', { error: { message: 'bad thing A' } }, 'bad thing A'],
    ['Ollama native', { error: 'bad thing B' }, 'bad thing B'],
    ['old vLLM', { object: 'error', message: 'bad thing C', type: 'BadRequestError', code: 400 }, 'bad thing C'],
    ['FastAPI detail', { detail: 'bad thing D' }, 'bad thing D'],
    ['FastAPI validation list', { detail: [{ loc: ['body'], msg: 'bad thing E', type: 'value_error' }] }, 'bad thing E'],
    ['plain text', 'bad thing F', 'bad thing F'],
  ] as [string, string | Record<string, unknown>, string][])('reads the error message from the %s body', async (_name, body, message) => {
    const server = await start();
    server.script({ error: { status: 422, body } });
    const error = await failure(client(server).call(ask));
    expect(error.kind).toBe('bad-request');
    expect(error.message).toContain(message);
  });

  it('times out when the server never answers', async () => {
    const server = await start();
    server.script({ hang: true });
    const error = await failure(client(server, { timeoutMs: 150, retries: 0 }).call(ask));
    expect(error.kind).toBe('timeout');
  });

  it('times out when a stream goes silent, without retrying text already shown', async () => {
    const server = await start();
    server.script({ repeatText: 'เริ่ม', times: 3, delayMs: 2_000 }, { text: 'must not be asked' });
    const seen: string[] = [];
    const error = await failure(client(server, { timeoutMs: 150 }).call({ ...ask, onText: (_visible, delta) => (seen.push(delta), 'continue') }));
    expect(error.kind).toBe('timeout');
    expect(seen).toEqual(['เริ่ม']);
    expect(server.chatRequests).toHaveLength(1);
  });

  it('does not retry an error that arrives after visible text, but does before it', async () => {
    const server = await start({ flavour: 'llama-server' });
    const streamError = { error: { code: 500, message: 'slot failed', type: 'server_error' } };
    const textChunk = { choices: [{ index: 0, delta: { content: 'ครึ่ง' }, finish_reason: null }] };
    const reasoningChunk = { choices: [{ index: 0, delta: { reasoning_content: 'hmm' }, finish_reason: null }] };
    server.script({ chunks: [reasoningChunk, streamError] }, { chunks: [textChunk, streamError] }, { text: 'not asked' });
    const seen: string[] = [];
    const error = await failure(client(server).call({ ...ask, onText: (_visible, delta) => (seen.push(delta), 'continue') }));
    expect(error.kind).toBe('server-error');
    expect(error.message).toContain('slot failed');
    expect(seen).toEqual(['ครึ่ง']);
    expect(server.chatRequests).toHaveLength(2);
  });

  it('reports an unreachable server', async () => {
    const error = await failure(client({ url: await closedPortUrl() }, { retries: 1 }).call(ask));
    expect(error.kind).toBe('unreachable');
    expect(error.message).toContain('ECONNREFUSED');
  });

  it.each([
    ['HTML with status 200', { garbage: '<!doctype html><title>Router login</title>' }],
    ['an SSE line that is not JSON', { garbage: 'data: <html>\n\n' }],
    ['JSON without choices', { chunks: [{ hello: 'world' }] }],
  ] as [string, ScriptStep][])('says invalid-response for %s', async (_name, step) => {
    const server = await start();
    server.script(step);
    const error = await failure(client(server).call(ask));
    expect(error.kind).toBe('invalid-response');
    expect(server.chatRequests).toHaveLength(1);
  });

  it('asks again without streaming when an old llama-server cannot stream with tools', async () => {
    const server = await start({ flavour: 'llama-server' });
    server.script(
      { error: { status: 500, body: { error: { code: 500, message: 'Cannot use tools with stream', type: 'server_error' } } } },
      { toolCalls: [{ name: 'web_search', arguments: '{"query":"x"}', id: 'c9' }], expect: (body) => expect(body.stream).toBe(false) },
    );
    const model = client(server);
    const result = await model.call({ ...ask, tools: [searchTool] });
    expect(result.toolCalls).toEqual([{ id: 'c9', name: 'web_search', argumentsText: '{"query":"x"}' }]);
    server.assertAllConsumed();
    // Learnt: the next call with tools goes straight to stream:false; one without tools still streams.
    server.script({ text: 'ok', expect: (body) => expect(body.stream).toBe(false) }, { text: 'ok', expect: (body) => expect(body.stream).toBe(true) });
    expect((await model.call({ ...ask, tools: [searchTool] })).content).toBe('ok');
    expect((await model.call(ask)).content).toBe('ok');
    server.assertAllConsumed();
  });
});

describe('createModelClient().model', () => {
  it('uses MODEL_NAME without asking the server', async () => {
    const server = await start();
    expect(await client(server, { model: 'typhoon2.5' }).model()).toBe('typhoon2.5');
    expect(server.requests).toHaveLength(0);
  });

  it('asks GET /models once and caches the first id', async () => {
    const server = await start({ flavour: 'ollama', modelId: 'scb10x/typhoon2.5-qwen3-4b' });
    server.script({ text: 'a', expect: (body) => expect(body.model).toBe('scb10x/typhoon2.5-qwen3-4b') }, { text: 'b' });
    const model = client(server, { model: '' });
    await model.call(ask);
    await model.call(ask);
    expect(server.requests.filter((request) => request.path === '/v1/models')).toHaveLength(1);
  });

  it("falls back to '' when the server lists nothing, and asks again later", async () => {
    const model = client({ url: await closedPortUrl() }, { model: '' });
    expect(await model.model()).toBe('');
    const server = await start();
    const listed = client(server, { model: '' });
    expect(await listed.model()).toBe('qwen3.5-2b');
  });
});

describe('createModelClient().complete', () => {
  it('returns the visible text without reasoning or <think> blocks', async () => {
    const server = await start({ flavour: 'llama-server' });
    server.script({
      text: '<think>irrelevant?</think>\nYES',
      reasoning: 'hidden',
      expect: (body) => {
        expect(body).toMatchObject({
          stream: false,
          max_tokens: 10,
          messages: [
            { role: 'system', content: 'Answer YES or NO.' },
            { role: 'user', content: 'q' },
          ],
        });
        expect(body).not.toHaveProperty('response_format');
      },
    });
    const text = await client(server).complete({ system: 'Answer YES or NO.', messages: [{ role: 'user', content: 'q' }], maxTokens: 10 });
    expect(text).toBe('YES');
  });

  it('sends response_format json_schema when the server supports it', async () => {
    const server = await start();
    const schema = { type: 'object', properties: { facts: { type: 'array', items: { type: 'string' } } }, required: ['facts'] };
    server.script({
      text: '{"facts":["ก"]}',
      expect: (body) => expect(body.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'facts', schema, strict: true } }),
    });
    const text = await client(server).complete({ messages: [{ role: 'user', content: 'extract' }], jsonSchema: { name: 'facts', schema } });
    expect(JSON.parse(text)).toEqual({ facts: ['ก'] });
    server.assertAllConsumed();
  });

  it.each([
    ['400', 400, 'response_format type "json_schema" is not supported'],
    ['old llama-server 500', 500, 'response_format type must be one of "text" or "json_object", but got: json_schema'],
  ])('asks once more without response_format after a %s about it', async (_name, status, message) => {
    const server = await start();
    server.script(
      { error: { status, body: { error: { message } } } },
      { text: '{"facts":[]}', expect: (body) => expect(body).not.toHaveProperty('response_format') },
    );
    const text = await client(server).complete({ messages: [{ role: 'user', content: 'x' }], jsonSchema: { name: 'facts', schema: { type: 'object' } } });
    expect(text).toBe('{"facts":[]}');
    server.assertAllConsumed();
  });

  it('retries a 5xx, and says invalid-response for a 200 that is not a completion', async () => {
    const server = await start();
    server.script({ error: { status: 500, body: 'boom' } }, { garbage: '<html>hello</html>' });
    const error = await failure(client(server).complete({ messages: [{ role: 'user', content: 'x' }] }));
    expect(error.kind).toBe('invalid-response');
    expect(server.chatRequests).toHaveLength(2);
  });
});

describe('error classification', () => {
  const refusals: [string, boolean][] = [
    ['tools param requires --jinja flag', true],
    ['tool_choice param requires --jinja flag', true],
    ['registry.ollama.ai/library/gemma3:1b does not support tools', true],
    ['"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set', true],
    ['Tool calling is not supported for this model', true],
    ['tools are not allowed here', true],
    ['Unsupported parameter: tools', true],
    ['Cannot use tools with stream', false],
    ['logprobs is not supported with tools + stream', false],
    ['image input is not supported - hint: if this is unexpected, you may need to provide the mmproj', false],
    ['tool_choice "required" is not supported', false],
    ['Tool call IDs should be alphanumeric strings with length 9!', false],
    ['the tools ran. Streaming is not supported', false],
  ];
  it.each(refusals)('isToolsRefusal(%j) is %s', (message, expected) => {
    expect(isToolsRefusal(message)).toBe(expected);
  });

  const classified: [number, string, ModelErrorKind][] = [
    [
      400,
      '{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error"}}',
      'context-overflow',
    ],
    [
      400,
      '{"object":"error","message":"This model\'s maximum context length is 4096 tokens. However, you requested 5000 tokens.","code":400}',
      'context-overflow',
    ],
    [503, '{"error":{"code":503,"message":"Loading model","type":"unavailable_error"}}', 'loading'],
    [500, '{"error":{"code":500,"message":"tools param requires --jinja flag","type":"server_error"}}', 'tools-unsupported'],
    [500, 'Internal Server Error', 'server-error'],
    [404, '404 page not found', 'bad-request'],
    [408, '', 'timeout'],
  ];
  it.each(classified)('classifyHttpError(%i, %s) is %s', (status, body, kind) => {
    const error = classifyHttpError(status, body);
    expect(error.kind).toBe(kind);
    expect(error.status).toBe(status);
  });

  it('shortens huge bodies', () => {
    expect(extractErrorMessage('x'.repeat(5_000)).length).toBeLessThan(400);
  });

  it('never ends a shortened message inside a token, so no prefix of a secret is left for the log to show', () => {
    const secret = 'sk-local-7f3a9c2e1b5d4f6a8c0e2b4d6f8a0c2e';
    const body = JSON.stringify({ error: { message: `${'คำขอผิดพลาด '.repeat(23)}key=${secret} was rejected` } });
    const message = extractErrorMessage(body);
    expect(message.endsWith('…')).toBe(true);
    expect(message).not.toContain('sk-local');
    expect(message).not.toContain('key=');
    expect(message.startsWith('คำขอผิดพลาด คำขอผิดพลาด')).toBe(true);
  });
});
