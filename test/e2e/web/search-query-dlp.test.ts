import { afterEach, describe, expect, it } from 'vitest';
import { consoleMessage } from '../../../adapters/console/inbound.js';
import { consoleOwnerId } from '../../../src/app.js';
import type { Reply } from '../../../src/shared/types.js';
import { startBraveFake } from '../../fakes/search/brave-fake.js';
import type { FakeHttpServer } from '../../fakes/search/fake-http-server.js';
import { searxngResult, startSearxngFake } from '../../fakes/search/searxng-fake.js';
import { startTavilyFake, tavilyResult } from '../../fakes/search/tavily-fake.js';
import { startFakeModelServer, type FakeModelServer, type RequestBody } from '../../fakes/model-server.js';
import { fake as fakeToken, randomText } from '../../support/fake-tokens.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

// A credential in a search query never leaves the machine: the model's web_search, deep_research and the user's
// /research are scanned by the DLP (Saeng's own secrets included) before any provider is asked. The fake provider's
// request log stays empty, the model reads why (no value), the log names the kind only, and the turn still answers.

const botToken = fakeToken.telegramBot();
// No format rule knows it: only its exact value, from the configuration, can stop it.
const channelSecret = randomText(32, 91, '0123456789abcdef');
const secrets = {
  'the configured LINE channel secret': channelSecret,
  'a GitHub token': fakeToken.githubClassic(),
  'an AWS access key id': fakeToken.awsKeyId(),
  'the configured bot token': botToken,
};

interface Provider {
  name: 'searxng' | 'brave' | 'tavily';
  start(): Promise<{ server: FakeHttpServer; environment: Record<string, string> }>;
}
const providers: Provider[] = [
  {
    name: 'searxng',
    start: async () => {
      const server = await startSearxngFake({ answer: () => [searxngResult({ url: 'https://example.org/a', title: 'a', content: 'a' })] });
      return { server, environment: { SEARCH_PROVIDER: 'searxng', SEARXNG_URL: server.url } };
    },
  },
  {
    name: 'brave',
    start: async () => {
      const server = await startBraveFake({ apiKey: 'brave-test-key' });
      return { server, environment: { SEARCH_PROVIDER: 'brave', BRAVE_API_KEY: 'brave-test-key', BRAVE_API_BASE_URL: server.url } };
    },
  },
  {
    name: 'tavily',
    start: async () => {
      const server = await startTavilyFake({
        apiKey: 'tvly-test-key',
        answer: () => [tavilyResult({ url: 'https://example.org/a', title: 'a', content: 'a' })],
      });
      return { server, environment: { SEARCH_PROVIDER: 'tavily', TAVILY_API_KEY: 'tvly-test-key', TAVILY_API_BASE_URL: server.url } };
    },
  },
];

let model: FakeModelServer | undefined;
let test: TestApp | undefined;
let server: FakeHttpServer | undefined;
afterEach(async () => {
  await test?.close();
  await model?.close();
  await server?.close();
  test = model = server = undefined;
});

async function start(provider: Provider, language: 'th' | 'en' = 'th'): Promise<{ model: FakeModelServer; test: TestApp; server: FakeHttpServer }> {
  model = await startFakeModelServer({ flavour: 'llama-server', declaredTools: true });
  const started = await provider.start();
  server = started.server;
  test = createTestApp({
    modelUrl: model.url,
    environment: {
      MODEL_TOOLS: 'on',
      MODEL_VISION: 'off',
      TELEGRAM_BOT_TOKEN: botToken,
      LINE_CHANNEL_SECRET: channelSecret,
      BOT_LANGUAGE: language,
      ...started.environment,
    },
    logLevel: 'info',
  });
  return { model, test, server };
}

type Message = { role: string; content?: unknown };
const lastMessage = (body: RequestBody | undefined): Message | undefined => (Array.isArray(body?.messages) ? (body.messages as Message[]) : []).at(-1);

describe.each(providers)('a query with a credential, $name', (provider) => {
  it.each(Object.entries(secrets))('with %s never reaches the provider; the model is told why and the turn answers', async (_kind, secret) => {
    const { model, test, server } = await start(provider);
    const answer = 'ไม่ได้ค้นเว็บให้ เพราะคำค้นมีรหัสลับ กรุณาอย่าส่งรหัสลับมาในแชต';
    model.script({ toolCalls: [{ name: 'web_search', arguments: { query: `ตรวจสอบ token ${secret} ใช้ได้ไหม` } }] }, { text: answer });

    const handled = await test.ask('ช่วยค้นว่าโทเคนนี้ยังใช้ได้ไหม');
    model.assertAllConsumed();

    expect(server.requests).toEqual([]);
    const toolResult = lastMessage(model.chatRequests[1]);
    expect(toolResult?.role).toBe('tool');
    expect(String(toolResult?.content)).toContain('ไม่ได้ค้นหาเว็บ เพราะคำค้นมีข้อมูลที่ดูเหมือนรหัสลับ');
    expect(String(toolResult?.content)).not.toContain(secret);
    expect(handled.turn?.toolCalls).toMatchObject([{ name: 'web_search', ok: false }]);
    expect(handled.replies.map((reply) => reply.text)).toEqual([answer]);
    const blocked = test.logRecords.filter((record) => record.msg.startsWith('web_search: query not sent'));
    expect(blocked).toHaveLength(1);
    expect(blocked[0]?.level).toBe(40);
    expect(blocked[0]?.kinds).toEqual(expect.arrayContaining([expect.any(String)]));
    expect(test.logLines.join('\n')).not.toContain(secret);
  });
});

describe('deep research', () => {
  it('deep_research with a credential in its question asks no provider; the model is told why', async () => {
    const { model, test, server } = await start(providers[0] as Provider, 'en');
    const secret = secrets['an AWS access key id'];
    model.script({ toolCalls: [{ name: 'deep_research', arguments: { question: `is ${secret} a valid key` } }] }, { text: 'I did not search.' });

    const handled = await test.ask('research whether this key is valid');
    model.assertAllConsumed();

    expect(server.requests).toEqual([]);
    const toolResult = lastMessage(model.chatRequests[1]);
    expect(String(toolResult?.content)).toContain('The web was not searched: the query contained what looks like a secret');
    expect(String(toolResult?.content)).not.toContain(secret);
    expect(handled.replies.map((reply) => reply.text)).toEqual(['I did not search.']);
  });

  it.each([
    ['th', '🔒 ไม่ได้ค้นคว้า เพราะคำถามมีข้อมูลที่ดูเหมือนรหัสลับ'],
    ['en', '🔒 Not researched: the question contains what looks like a secret'],
  ] as const)('/research with the configured bot token: no provider asked, no model call, a %s answer', async (language, expected) => {
    const { model, test, server } = await start(providers[0] as Provider, language);
    const replies: Reply[] = [];
    const message = await consoleMessage({ text: `/research บอตนี้ใช้ ${botToken} ได้ไหม`, userId: consoleOwnerId });
    await test.app.router.handle(message, { send: async (reply) => void replies.push(reply) });

    expect(server.requests).toEqual([]);
    expect(model.chatRequests).toEqual([]);
    expect(replies.map((reply) => reply.text.slice(0, expected.length))).toEqual([expected]);
    expect(test.logLines.join('\n')).not.toContain(botToken);
    expect(test.logRecords.some((record) => record.msg.startsWith('/research: question not searched') && Array.isArray(record.kinds))).toBe(true);
  });
});
