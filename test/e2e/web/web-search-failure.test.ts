import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { braveErrors, startBraveFake } from '../../fakes/search/brave-fake.js';
import type { FakeHttpServer, FakeResponse } from '../../fakes/search/fake-http-server.js';
import { searxngErrors, startSearxngFake } from '../../fakes/search/searxng-fake.js';
import { startTavilyFake, tavilyErrors } from '../../fakes/search/tavily-fake.js';
import { startFakeModelServer, type FakeModelServer, type RequestBody } from '../../fakes/model-server.js';
import { messagesOf } from '../../fakes/recorded-messages.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

// Live search that fails (time-out, 429) with SEARCH_LLM_FILTER=off: the model is told that live search failed
// and must say so; the user gets a Thai reply saying so, with no source list. Also: with the filter off, a
// successful search makes no YES/NO call.

const fixedNow = () => new Date('2026-03-05T03:00:00Z');
const goldResults = (
  JSON.parse(readFileSync(new URL('../../fixtures/search/searxng-thai-gold.json', import.meta.url), 'utf8')) as {
    results: Record<string, unknown>[];
  }
).results;

const lastText = (body: RequestBody | undefined): string => {
  const content = messagesOf(body).at(-1)?.content;
  return typeof content === 'string' ? content : '';
};

interface FailureCase {
  name: string;
  start(): Promise<{ server: FakeHttpServer; environment: Record<string, string> }>;
  /** The reason shown in the notice the model reads. */
  reason: string;
}

/** Every request the provider gets is answered with `failure`. */
const failing = (failure: () => FakeResponse) => () => failure();

const cases: FailureCase[] = [
  {
    name: 'SearXNG time-out',
    start: async () => {
      const server = await startSearxngFake({ answer: failing(() => searxngErrors.hang(10_000)) });
      return { server, environment: { SEARCH_PROVIDER: 'searxng', SEARXNG_URL: server.url, SEARCH_TIMEOUT_MS: '200' } };
    },
    reason: 'หมดเวลา',
  },
  {
    // Retry-After beyond what is worth sitting out: fail at once instead of holding the turn.
    name: 'SearXNG 429 (limiter, Retry-After 120)',
    start: async () => {
      const server = await startSearxngFake({ answer: failing(() => searxngErrors.tooManyRequests(120)) });
      return { server, environment: { SEARCH_PROVIDER: 'searxng', SEARXNG_URL: server.url } };
    },
    reason: 'ผู้ให้บริการค้นหาจำกัดจำนวนครั้ง',
  },
  {
    name: 'Brave 429 (X-RateLimit-Reset 60)',
    start: async () => {
      const server = await startBraveFake({ apiKey: 'brave-test-key', answer: failing(() => braveErrors.rateLimited(60)) });
      return { server, environment: { SEARCH_PROVIDER: 'brave', BRAVE_API_KEY: 'brave-test-key', BRAVE_API_BASE_URL: server.url } };
    },
    reason: 'ผู้ให้บริการค้นหาจำกัดจำนวนครั้ง',
  },
  {
    name: 'Tavily 429 (retry-after 60)',
    start: async () => {
      const server = await startTavilyFake({ apiKey: 'tvly-test-key', answer: failing(() => tavilyErrors.rateLimited(60)) });
      return { server, environment: { SEARCH_PROVIDER: 'tavily', TAVILY_API_KEY: 'tvly-test-key', TAVILY_API_BASE_URL: server.url } };
    },
    reason: 'ผู้ให้บริการค้นหาจำกัดจำนวนครั้ง',
  },
];

let model: FakeModelServer | undefined;
let test: TestApp | undefined;
const servers: FakeHttpServer[] = [];

afterEach(async () => {
  await test?.close();
  await model?.close();
  test = undefined;
  model = undefined;
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function startApp(start: FailureCase['start']): Promise<{ app: TestApp; model: FakeModelServer; server: FakeHttpServer }> {
  model = await startFakeModelServer({ flavour: 'llama-server', declaredTools: true });
  const { server, environment } = await start();
  servers.push(server);
  test = createTestApp({
    modelUrl: model.url,
    environment: { MODEL_TOOLS: 'on', MODEL_VISION: 'off', SEARCH_LLM_FILTER: 'off', ...environment },
    now: fixedNow,
  });
  return { app: test, model, server };
}

const relayed = 'ขออภัยค่ะ ตอนนี้ค้นหาข้อมูลล่าสุดจากเว็บไม่ได้ จึงยังบอกราคาทองคำวันนี้ไม่ได้ กรุณาลองใหม่อีกครั้งภายหลัง';

describe.each(cases)('$name', (testCase) => {
  it('tells the model that live search failed, and the Thai reply says so without a source list', async () => {
    const { app, model, server } = await startApp(testCase.start);
    // No YES/NO step: the filter is off, and a failed search has nothing to check anyway.
    model.script({ toolCalls: [{ name: 'web_search', arguments: { query: 'ราคาทองคำวันนี้' } }] }, { text: relayed });

    const handled = await app.ask('ราคาทองคำวันนี้เท่าไหร่');
    model.assertAllConsumed();

    expect(model.chatRequests).toHaveLength(2);
    const notice = lastText(model.chatRequests[1]);
    expect(notice).toContain(`การค้นหาเว็บแบบสดล้มเหลว (${testCase.reason})`);
    expect(notice).toContain('ต้องบอกผู้ใช้ตรง ๆ ว่าค้นหาข้อมูลล่าสุดจากเว็บไม่ได้');
    expect(handled.turn?.toolCalls).toMatchObject([{ name: 'web_search', ok: false, citations: [] }]);
    expect(handled.replies.map((reply) => reply.text)).toEqual([relayed]);
    // One request per query variant (raw + simplified), none retried.
    expect(server.requests).toHaveLength(2);
  });
});

describe('a failed search and a model that refuses in English', () => {
  it('gives the Thai user a Thai reply from the tool log that says live search failed', async () => {
    const [timeout] = cases;
    if (!timeout) throw new Error('no time-out case');
    const { app, model } = await startApp(timeout.start);
    model.script(
      { toolCalls: [{ name: 'web_search', arguments: { query: 'ราคาทองคำวันนี้' } }] },
      { text: "I'm sorry, but I can't browse the internet right now." },
    );

    const handled = await app.ask('ราคาทองคำวันนี้เท่าไหร่');
    model.assertAllConsumed();

    const reply = handled.replies[0]?.text ?? '';
    expect(reply).toMatch(/^ขออภัย ยังหาคำตอบไม่ได้ เพราะเครื่องมือที่ใช้ทำงานไม่สำเร็จ:\n\n• ค้นเว็บ `ราคาทองคำวันนี้`: ไม่สำเร็จ/);
    expect(reply).toContain('การค้นหาเว็บแบบสดล้มเหลว (หมดเวลา)');
    expect(reply).not.toContain("I'm sorry");
    expect(reply).not.toContain('แหล่งที่มา');
    expect(handled.turn?.guardEvents).toContainEqual(expect.objectContaining({ guard: 'refusal', action: 'rewrite' }));
  });
});

describe('SEARCH_LLM_FILTER=off with a working provider', () => {
  it('answers from the lexical layers alone: no YES/NO call, every kept result cited', async () => {
    const { app, model } = await startApp(async () => {
      const server = await startSearxngFake({ answer: () => goldResults });
      return { server, environment: { SEARCH_PROVIDER: 'searxng', SEARXNG_URL: server.url } };
    });
    model.script({ toolCalls: [{ name: 'web_search', arguments: { query: 'ราคาทองคำวันนี้' } }] }, { text: 'ทองคำแท่งขายออก 47,150 บาท' });

    const handled = await app.ask('ราคาทองคำวันนี้เท่าไหร่');
    model.assertAllConsumed();

    // Two streaming turn calls and nothing in between.
    expect(model.chatRequests.map((body) => body.stream)).toEqual([true, true]);
    expect(handled.turn?.citations.map((citation) => citation.url)).toEqual([
      'https://www.goldtraders.or.th/default.aspx',
      'https://www.sanook.com/money/gold-today-5-mar-2569/',
      'https://www.sanook.com/money/gold-update-69/',
    ]);
    expect(handled.replies[0]?.text).toMatch(/^ทองคำแท่งขายออก 47,150 บาท\n\n\*\*แหล่งที่มา\*\*\n1\. /);
  });
});
