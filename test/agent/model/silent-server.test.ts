import { createServer, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createModelClient } from '../../../agent/model/client.js';
import { modelErrorMessage } from '../../../agent/model/error-messages.js';
import { ModelError } from '../../../agent/model/types.js';
import { silentLogger } from '../../../src/shared/log.js';
import { startFakeModelServer, type FakeModelServer } from '../../fakes/model-server.js';
import { startSilentServer, type SilentServer } from '../../fakes/silent-server.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

// MODEL_TIMEOUT_MS bounds a turn's whole wait on a silent server: a time-out is not retried (a silent server stays
// silent), the capability probe waits no longer than a model call, and a silent GET /models is not waited on twice.
// Asserted by what the server saw; the measured wait is only reported (no timing asserts).

const timeoutMs = '300';
const timeoutReply = modelErrorMessage(new ModelError('timeout', 'silent'), 'th');
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function silent(): Promise<SilentServer> {
  const server = await startSilentServer();
  closers.push(() => server.close());
  return server;
}

function app(modelUrl: string, environment: Record<string, string>): TestApp {
  const test = createTestApp({
    modelUrl,
    environment: { MODEL_TIMEOUT_MS: timeoutMs, MODEL_RETRIES: '2', MODEL_TOOLS: 'auto', MODEL_VISION: 'auto', ...environment },
  });
  closers.push(() => test.close());
  return test;
}

async function timedTurn(test: TestApp): Promise<{ reply: string | undefined; waitedMs: number }> {
  const started = performance.now();
  const handled = await test.ask('สวัสดีครับ');
  return { reply: handled.replies[0]?.text, waitedMs: Math.round(performance.now() - started) };
}

const count = (requests: readonly string[], line: string) => requests.filter((request) => request === line).length;

describe('a model server that accepts connections and never answers', () => {
  it('MODEL_NAME set: one round of metadata requests and one chat request, not retried; the Thai time-out reply', async (context) => {
    const server = await silent();
    const turn = await timedTurn(app(server.url, { MODEL_NAME: 'qwen3.5-2b' }));
    await context.annotate(`waited ${turn.waitedMs} ms with MODEL_TIMEOUT_MS=${timeoutMs}`);
    expect(turn.reply).toBe(timeoutReply);
    expect(count(server.requests, 'POST /v1/chat/completions')).toBe(1);
    // The fingerprint's six metadata GETs, in parallel; no probe follows an unanswered fingerprint.
    expect(server.requests.filter((request) => request.startsWith('GET '))).toHaveLength(6);
  });

  it('no MODEL_NAME: the silent GET /models is not waited on again, and the turn asks no chat request', async (context) => {
    const server = await silent();
    const turn = await timedTurn(app(server.url, { MODEL_NAME: '' }));
    await context.annotate(`waited ${turn.waitedMs} ms with MODEL_TIMEOUT_MS=${timeoutMs}`);
    expect(turn.reply).toBe(timeoutReply);
    // The client's own listing, then the fingerprint's; the turn's call reports the silence instead of asking.
    expect(count(server.requests, 'GET /v1/models')).toBe(2);
    expect(count(server.requests, 'POST /v1/chat/completions')).toBe(0);
  });

  it('the next turn asks the server again (a silent listing is not remembered for good)', async () => {
    const server = await silent();
    const test = app(server.url, { MODEL_NAME: '' });
    await timedTurn(test);
    expect((await timedTurn(test)).reply).toBe(timeoutReply);
    expect(count(server.requests, 'GET /v1/models')).toBe(4);
  });
});

describe('metadata answers, chat completions hang (a busy or stuck model)', () => {
  it('the probe and the turn each wait once; neither is retried', async (context) => {
    const fake: FakeModelServer = await startFakeModelServer({ flavour: 'generic' });
    closers.push(() => fake.close());
    fake.script({ hang: true }, { hang: true });
    const turn = await timedTurn(app(fake.url, { MODEL_NAME: 'qwen3.5-2b' }));
    await context.annotate(`waited ${turn.waitedMs} ms with MODEL_TIMEOUT_MS=${timeoutMs}`);
    expect(turn.reply).toBe(timeoutReply);
    expect(fake.chatRequests).toHaveLength(2); // the probe (with get_time), then the turn's call
    expect(fake.chatRequests[0]?.tools).toBeDefined();
    fake.assertAllConsumed();
  });
});

describe('retries that stay', () => {
  it('a connection the server drops is retried MODEL_RETRIES times', async () => {
    const sockets: Socket[] = [];
    const dropping = createServer((socket) => {
      sockets.push(socket);
      socket.once('data', () => socket.destroy());
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => dropping.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise<void>((resolve) => dropping.close(() => resolve())));
    const address = dropping.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    const client = createModelClient({
      baseUrl: `http://127.0.0.1:${port}/v1`,
      apiKey: '',
      model: 'm',
      timeoutMs: 5_000,
      retries: 2,
      maxTokens: 16,
      log: silentLogger(),
      backoffMs: 1,
    });
    const error: unknown = await client.call({ messages: [{ role: 'user', content: 'hi' }] }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).kind).toBe('unreachable');
    expect(sockets).toHaveLength(3);
  });

  it('a 408 (an answer, not silence) is retried', async () => {
    const fake = await startFakeModelServer();
    closers.push(() => fake.close());
    fake.script({ error: { status: 408, body: { error: { message: 'request timeout' } } } }, { text: 'ตอบแล้ว' });
    const client = createModelClient({
      baseUrl: fake.url,
      apiKey: '',
      model: 'm',
      timeoutMs: 5_000,
      retries: 2,
      maxTokens: 16,
      log: silentLogger(),
      backoffMs: 1,
    });
    expect((await client.call({ messages: [{ role: 'user', content: 'hi' }] })).content).toBe('ตอบแล้ว');
    expect(fake.chatRequests).toHaveLength(2);
  });
});
