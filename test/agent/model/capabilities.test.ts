import { createServer } from 'node:net';
import { Keyv } from 'keyv';
import { afterEach, describe, expect, it } from 'vitest';
import { detectCapabilities, forgetCapabilities, type DetectCapabilitiesOptions } from '../../../agent/model/capabilities.js';
import { silentLogger } from '../../../src/shared/log.js';
import {
  loadingStep,
  refusalStep,
  startFakeModelServer,
  type FakeModelServer,
  type FakeModelServerOptions,
  type RequestBody,
  type ScriptStep,
} from '../../fakes/model-server.js';

let fake: FakeModelServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const modelId = 'qwen3.5:2b';

async function startFlavour(options: FakeModelServerOptions): Promise<FakeModelServer> {
  fake = await startFakeModelServer({ ...options, modelId });
  return fake;
}

function detect(server: { url: string }, overrides: Partial<DetectCapabilitiesOptions> = {}) {
  return detectCapabilities({
    baseUrl: server.url,
    apiKey: 'no-key',
    model: modelId,
    overrides: { tools: 'auto', vision: 'auto' },
    log: silentLogger(),
    timeoutMs: 2_000,
    now: () => new Date('2026-08-01T03:00:00Z'),
    ...overrides,
  });
}

const nativeCall: ScriptStep = { toolCalls: [{ name: 'get_time', arguments: {}, id: 'probe-1' }] };
const plainAnswer: ScriptStep = { text: 'It is about noon.' };

function probeBody(body: RequestBody): void {
  expect(body).toMatchObject({ max_tokens: 32, temperature: 0, stream: false });
  expect(body.tools).toEqual([expect.objectContaining({ type: 'function', function: expect.objectContaining({ name: 'get_time' }) })]);
  const messages = body.messages as { role: string; content: string }[];
  expect(messages[0]?.role).toBe('system');
  expect(messages[0]?.content).toMatch(/capability check/);
  expect(messages[1]?.role).toBe('user');
}

async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/v1`;
}

describe('detectCapabilities: declared, then one probe', () => {
  it.each([
    ['llama-server', { flavour: 'llama-server', declaredTools: true, declaredVision: true }],
    ['ollama', { flavour: 'ollama', declaredTools: true, declaredVision: true }],
    ['lmstudio', { flavour: 'lmstudio', declaredTools: true, declaredVision: true }],
  ] as [string, FakeModelServerOptions][])('%s: declared tools are confirmed by one probe; declared vision is taken', async (server, options) => {
    const fakeServer = await startFlavour(options);
    fakeServer.script({ ...nativeCall, expect: probeBody });
    const report = await detect(fakeServer);
    expect(report).toMatchObject({
      server,
      tools: true,
      toolsSource: 'declared',
      vision: true,
      visionSource: 'declared',
      detectedAt: '2026-08-01T03:00:00.000Z',
    });
    expect(fakeServer.chatRequests).toHaveLength(1);
    fakeServer.assertAllConsumed();
  });

  it.each([
    ['llama-server', { flavour: 'llama-server', declaredTools: false, declaredVision: false }],
    ['ollama', { flavour: 'ollama', declaredTools: false, declaredVision: false }],
    ['lmstudio', { flavour: 'lmstudio', declaredTools: false, declaredVision: false }],
  ] as [string, FakeModelServerOptions][])('%s: declared no tools means no probe', async (server, options) => {
    const fakeServer = await startFlavour(options);
    const report = await detect(fakeServer);
    expect(report).toMatchObject({ server, tools: false, toolsSource: 'declared', vision: false, visionSource: 'declared' });
    expect(fakeServer.chatRequests).toHaveLength(0);
    fakeServer.assertAllConsumed();
  });

  it.each([
    ['llama-server without --jinja', { flavour: 'llama-server' }, refusalStep('llama-server')],
    ['Ollama without a tools template', { flavour: 'ollama' }, refusalStep('ollama')],
    ['vLLM without --enable-auto-tool-choice', { flavour: 'vllm' }, refusalStep('vllm')],
  ] as [string, FakeModelServerOptions, ScriptStep][])('%s: the refusal text means no tools, definitively', async (_name, options, refusal) => {
    const fakeServer = await startFlavour(options);
    fakeServer.script(refusal);
    const cache = new Keyv();
    const report = await detect(fakeServer, { cache });
    expect(report).toMatchObject({ server: options.flavour, tools: false, toolsSource: 'refusal' });
    expect(report.detail).toMatch(/refused tools/);
    await detect(fakeServer, { cache });
    expect(fakeServer.chatRequests).toHaveLength(1);
    fakeServer.assertAllConsumed();
  });

  it.each([
    ['structured call', nativeCall],
    ['Hermes text call', { text: '<tool_call>\n{"name": "get_time", "arguments": {}}\n</tool_call>' }],
    ['bare JSON call', { text: '{"name":"get_time","arguments":{}}' }],
  ] as [string, ScriptStep][])('an undeclared server that answers the probe with a %s has tools', async (_name, step) => {
    const fakeServer = await startFlavour({ flavour: 'vllm' });
    fakeServer.script({ ...step, expect: probeBody });
    const report = await detect(fakeServer);
    expect(report).toMatchObject({ server: 'vllm', tools: true, toolsSource: 'probe', vision: false, visionSource: 'default' });
  });

  it('inconclusive: a plain answer is asked again with tool_choice "required", then means no tools', async () => {
    const fakeServer = await startFlavour({ flavour: 'generic' });
    fakeServer.script(
      { ...plainAnswer, expect: (body) => expect(body).not.toHaveProperty('tool_choice') },
      { ...plainAnswer, expect: (body) => expect(body.tool_choice).toBe('required') },
    );
    const report = await detect(fakeServer);
    expect(report).toMatchObject({ server: 'generic', tools: false, toolsSource: 'probe' });
    fakeServer.assertAllConsumed();
  });

  it('a plain answer after required tool_choice that calls the tool means tools', async () => {
    const fakeServer = await startFlavour({ flavour: 'generic' });
    fakeServer.script(plainAnswer, nativeCall);
    expect(await detect(fakeServer)).toMatchObject({ tools: true, toolsSource: 'probe' });
  });

  it('Ollama gets no second probe (it has no tool_choice)', async () => {
    const fakeServer = await startFlavour({ flavour: 'ollama' });
    fakeServer.script(plainAnswer);
    expect(await detect(fakeServer)).toMatchObject({ server: 'ollama', tools: false, toolsSource: 'probe' });
    fakeServer.assertAllConsumed();
  });

  it('llama-server vision comes from /props modalities (never probed)', async () => {
    const fakeServer = await startFlavour({ flavour: 'llama-server', declaredTools: false, declaredVision: true });
    expect(await detect(fakeServer)).toMatchObject({ vision: true, visionSource: 'declared', tools: false });
    expect(fakeServer.chatRequests).toHaveLength(0);
  });
});

describe('detectCapabilities: unreachable, overrides, cache', () => {
  it('an unreachable server gives no tools and is not cached', async () => {
    const cache = new Keyv();
    const url = await closedPortUrl();
    const report = await detect({ url }, { cache });
    expect(report).toMatchObject({ server: 'unreachable', tools: false, vision: false, toolsSource: 'default' });
    expect(await cache.get(`capabilities:${url}|${modelId}`)).toBeUndefined();
  });

  it('a probe that meets a loading model is not cached: the next detection probes again', async () => {
    const fakeServer = await startFlavour({ flavour: 'vllm' });
    fakeServer.script(loadingStep(), nativeCall);
    const cache = new Keyv();
    expect(await detect(fakeServer, { cache })).toMatchObject({ server: 'unreachable', tools: false });
    expect(await detect(fakeServer, { cache })).toMatchObject({ server: 'vllm', tools: true });
    fakeServer.assertAllConsumed();
  });

  it('a probe error that proves nothing gives no tools now and asks again next time', async () => {
    const fakeServer = await startFlavour({ flavour: 'generic' });
    fakeServer.script({ error: { status: 400, body: { error: { message: 'Unrecognized request argument supplied: foo' } } } }, nativeCall);
    const cache = new Keyv();
    expect(await detect(fakeServer, { cache })).toMatchObject({ tools: false, toolsSource: 'default' });
    expect(await detect(fakeServer, { cache })).toMatchObject({ tools: true, toolsSource: 'probe' });
  });

  it.each([
    ['off', 'on', false, true],
    ['on', 'off', true, false],
  ] as const)('overrides tools=%s vision=%s skip detection of that capability', async (tools, vision, toolsValue, visionValue) => {
    const fakeServer = await startFlavour({ flavour: 'ollama', declaredTools: !toolsValue, declaredVision: !visionValue });
    const report = await detect(fakeServer, { overrides: { tools, vision } });
    expect(report).toMatchObject({ tools: toolsValue, vision: visionValue, toolsSource: 'config', visionSource: 'config', server: 'ollama' });
    expect(fakeServer.chatRequests).toHaveLength(0);
  });

  it('overrides apply even when the server is down', async () => {
    const report = await detect({ url: await closedPortUrl() }, { overrides: { tools: 'on', vision: 'off' } });
    expect(report).toMatchObject({ server: 'unreachable', tools: true, toolsSource: 'config', vision: false, visionSource: 'config' });
  });

  it('a cache hit makes no probe and no /api/show call; forgetCapabilities brings the probe back', async () => {
    const fakeServer = await startFlavour({ flavour: 'ollama', declaredTools: true, declaredVision: false });
    fakeServer.script(nativeCall, nativeCall);
    const cache = new Keyv();
    const first = await detect(fakeServer, { cache });
    const second = await detect(fakeServer, { cache, now: () => new Date('2026-08-02T00:00:00Z') });
    expect(second).toEqual(first);
    expect(fakeServer.chatRequests).toHaveLength(1);
    await forgetCapabilities(cache, `${fakeServer.url}/`, modelId);
    expect(await detect(fakeServer, { cache })).toMatchObject({ tools: true });
    expect(fakeServer.chatRequests).toHaveLength(2);
    fakeServer.assertAllConsumed();
  });

  it('a cached verdict from another server build is ignored', async () => {
    const fakeServer = await startFlavour({ flavour: 'llama-server', declaredTools: true });
    const cache = new Keyv();
    await cache.set(`capabilities:${fakeServer.url}|${modelId}`, {
      signature: 'llama-server|b4000-old|/models/other.gguf',
      detectedAt: '2025-01-01T00:00:00.000Z',
      tools: { value: false, source: 'refusal', detail: 'old' },
    });
    fakeServer.script(nativeCall);
    expect(await detect(fakeServer, { cache })).toMatchObject({ tools: true, toolsSource: 'declared' });
    fakeServer.assertAllConsumed();
  });

  it('forgetCapabilities works with a cache that only has get/set', async () => {
    const store = new Map<string, unknown>([['capabilities:http://x/v1|m', { signature: 's' }]]);
    await forgetCapabilities({ get: async (key) => store.get(key), set: async (key, value) => store.set(key, value) }, 'http://x/v1', 'm');
    expect(store.get('capabilities:http://x/v1|m')).toBeNull();
  });
});
