import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { startBraveFake } from '../../fakes/search/brave-fake.js';
import type { FakeHttpServer, RecordedRequest } from '../../fakes/search/fake-http-server.js';
import { startSearxngFake } from '../../fakes/search/searxng-fake.js';
import { startTavilyFake } from '../../fakes/search/tavily-fake.js';
import { startFakeModelServer, type FakeModelServer, type RequestBody } from '../../fakes/model-server.js';
import { messagesOf, type RecordedMessage as Message } from '../../fakes/recorded-messages.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import { expectToolsBarred } from '../../support/prompt-prefix.js';

// A Thai question through the whole app: router → turn → web_search → provider fake (a Thai fixture with
// distractors) → the layer-3 YES/NO call → the model's answer, whose typed URLs go and whose one source list is
// written by code. Once per provider, with SEARCH_LLM_FILTER=always (every result to the check; `on` in web-search-tool.test.ts).

const fixture = (name: string): unknown => JSON.parse(readFileSync(new URL(`../../fixtures/search/${name}`, import.meta.url), 'utf8'));
const records = (value: unknown): Record<string, unknown>[] => (Array.isArray(value) ? (value as Record<string, unknown>[]) : []);
const goldResults = records((fixture('searxng-thai-gold.json') as { results?: unknown }).results);
const pythonResults = records((fixture('brave-thai-python.json') as { web?: { results?: unknown } }).web?.results);
const taxResults = records((fixture('tavily-thai-tax.json') as { results?: unknown }).results);

// 5 March 2026, 10:00 in Bangkok (BE 2569): "today" for the fixtures.
const fixedNow = () => new Date('2026-03-05T03:00:00Z');

const textOf = (message: Message | undefined): string => (typeof message?.content === 'string' ? message.content : '');
const toolNames = (body: RequestBody | undefined): string[] =>
  (Array.isArray(body?.tools) ? (body.tools as { function?: { name?: string } }[]) : []).map((tool) => tool.function?.name ?? '');
const queryOf = (request: RecordedRequest): string | null =>
  request.method === 'POST' ? ((JSON.parse(request.body) as { query?: string }).query ?? null) : request.query.get('q');

interface ProviderCase {
  provider: 'searxng' | 'brave' | 'tavily';
  start(): Promise<{ server: FakeHttpServer; environment: Record<string, string> }>;
  question: string;
  /** What the model searches for. */
  query: string;
  /** How many results reach the layer-3 check, and its answer. */
  checked: number;
  verdicts: string;
  answer: string;
  typedUrls: string[];
  expectedReply: string;
  keptUrls: string[];
}

const cases: ProviderCase[] = [
  {
    provider: 'searxng',
    start: async () => {
      const server = await startSearxngFake({ answer: () => goldResults });
      return { server, environment: { SEARCH_PROVIDER: 'searxng', SEARXNG_URL: server.url } };
    },
    question: 'ราคาทองคำวันนี้เท่าไหร่ ขอลิงก์ด้วย',
    query: 'ราคาทองคำวันนี้',
    checked: 3,
    verdicts: '1: YES\n2: YES\n3: NO',
    // A URL from memory in the sentence, and the model's own source list.
    answer:
      'ราคาทองคำแท่งวันนี้ (5 มี.ค. 2569) รับซื้อ 47,050 บาท ขายออก 47,150 บาท ตามประกาศสมาคมค้าทองคำ ' +
      '(https://www.goldtraders.or.th/gold-price-today.html)\n\nแหล่งที่มา:\n- https://www.goldtraders.or.th/default.aspx?utm_source=chat',
    typedUrls: ['https://www.goldtraders.or.th/gold-price-today.html', 'utm_source'],
    expectedReply: [
      'ราคาทองคำแท่งวันนี้ (5 มี.ค. 2569) รับซื้อ 47,050 บาท ขายออก 47,150 บาท ตามประกาศสมาคมค้าทองคำ',
      '',
      '**แหล่งที่มา**',
      '1. [ราคาทองคำวันนี้ 5 มี.ค. 2569 - สมาคมค้าทองคำ](https://www.goldtraders.or.th/default.aspx)',
      '2. [ราคาทองวันนี้ ๕ มี.ค. ๒๕๖๙ ทองคำแท่งขายออก ๔๗,๑๕๐ บาท](https://www.sanook.com/money/gold-today-5-mar-2569/)',
    ].join('\n'),
    // The fixture's two goldtraders entries (utm parameters; no www. and a fragment) are one source.
    keptUrls: ['https://www.goldtraders.or.th/default.aspx', 'https://www.sanook.com/money/gold-today-5-mar-2569/'],
  },
  {
    provider: 'brave',
    start: async () => {
      const server = await startBraveFake({ apiKey: 'brave-test-key', answer: () => pythonResults });
      return { server, environment: { SEARCH_PROVIDER: 'brave', BRAVE_API_KEY: 'brave-test-key', BRAVE_API_BASE_URL: server.url } };
    },
    question: 'Python 3.13 มีอะไรใหม่บ้าง',
    query: 'Python 3.13 มีอะไรใหม่',
    checked: 5,
    // The snake article (item 4) passes the lexical layers; the model's check removes it.
    verdicts: '1: YES\n2: YES\n3: YES\n4: NO\n5: YES',
    answer:
      'Python 3.13 มี REPL ใหม่ โหมด free-threaded แบบทดลอง และ JIT compiler รุ่นแรก ' +
      'อ่านเพิ่มได้ใน[เอกสารทางการ](https://docs.python.org/3.13/whatsnew/changelog.html)ครับ',
    typedUrls: ['changelog.html'],
    expectedReply: [
      'Python 3.13 มี REPL ใหม่ โหมด free-threaded แบบทดลอง และ JIT compiler รุ่นแรก อ่านเพิ่มได้ในเอกสารทางการครับ',
      '',
      '**แหล่งที่มา**',
      '1. [Python 3.13 มีอะไรใหม่ สรุปฟีเจอร์เด่นที่ควรรู้](https://www.blognone.com/node/142000)',
      '2. [What’s New In Python 3.13 — Python 3.13.1 documentation](https://docs.python.org/3/whatsnew/3.13.html)',
      '3. [Python Release Python 3.13.0 | Python.org](https://www.python.org/downloads/release/python-3130/)',
      "4. [What's new in Python 3.13 — Python 3.13 docs (mirror)](https://docs.python.org/3.13/whatsnew/3.13.html)",
    ].join('\n'),
    keptUrls: [
      'https://www.blognone.com/node/142000',
      'https://docs.python.org/3/whatsnew/3.13.html',
      'https://www.python.org/downloads/release/python-3130/',
      'https://docs.python.org/3.13/whatsnew/3.13.html',
    ],
  },
  {
    provider: 'tavily',
    start: async () => {
      const server = await startTavilyFake({ apiKey: 'tvly-test-key', answer: () => taxResults });
      return { server, environment: { SEARCH_PROVIDER: 'tavily', TAVILY_API_KEY: 'tvly-test-key', TAVILY_API_BASE_URL: server.url } };
    },
    question: 'ยื่นภาษีออนไลน์ปี 2568 หมดเขตวันไหนคะ',
    query: 'ยื่นภาษีออนไลน์ปี 2568 หมดเขตวันไหน',
    checked: 2,
    verdicts: '1: YES\n2: YES',
    answer: 'ยื่นภาษีออนไลน์สำหรับปีภาษี 2568 ได้ถึงวันที่ 8 เมษายน 2569 ค่ะ\nดูเพิ่มเติม: https://efiling.rd.go.th/rd-efiling-web/login',
    typedUrls: ['efiling.rd.go.th', 'ดูเพิ่มเติม'],
    expectedReply: [
      'ยื่นภาษีออนไลน์สำหรับปีภาษี 2568 ได้ถึงวันที่ 8 เมษายน 2569 ค่ะ',
      '',
      '**แหล่งที่มา**',
      '1. [คำถามที่พบบ่อยเรื่องยื่นภาษีออนไลน์ปี 2568](https://www.rd.go.th/faq/2568.html)',
      '2. [ยื่นภาษีออนไลน์ 2568 ผ่านแอป หมดเขต 8 เม.ย. 2569](https://www.rd.go.th/e-filing/2568.html)',
    ].join('\n'),
    keptUrls: ['https://www.rd.go.th/faq/2568.html', 'https://www.rd.go.th/e-filing/2568.html'],
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

describe.each(cases)('a Thai question answered from $provider', (testCase) => {
  it('drops the typed URL and ends with one code-written source list of the kept results', async () => {
    model = await startFakeModelServer({ flavour: 'llama-server', declaredTools: true });
    const { server, environment } = await testCase.start();
    servers.push(server);
    test = createTestApp({
      modelUrl: model.url,
      environment: { MODEL_TOOLS: 'on', MODEL_VISION: 'off', SEARCH_LLM_FILTER: 'always', ...environment },
      now: fixedNow,
    });
    model.script({ toolCalls: [{ name: 'web_search', arguments: { query: testCase.query } }] }, { text: testCase.verdicts }, { text: testCase.answer });

    const handled = await test.ask(testCase.question);
    model.assertAllConsumed();

    const reply = handled.replies.map((sent) => sent.text);
    expect(reply).toEqual([testCase.expectedReply]);
    expect(reply[0]?.split('แหล่งที่มา')).toHaveLength(2);
    for (const typed of testCase.typedUrls) expect(reply[0]).not.toContain(typed);
    expect(handled.turn?.citations.map((citation) => citation.url)).toEqual(testCase.keptUrls);
    expect(handled.turn?.guardEvents).toContainEqual(expect.objectContaining({ guard: 'sources', action: 'rewrite' }));

    const [first, check, last] = model.chatRequests;
    expect(toolNames(first)).toEqual(expect.arrayContaining(['web_search', 'deep_research']));
    expect(server.requests.map(queryOf)).toContain(testCase.query);

    // Layer 3: one non-streaming call without tools, the numbered titles and snippets, no URLs.
    expect(check?.stream).not.toBe(true);
    expectToolsBarred(check);
    const checkPrompt = textOf(messagesOf(check).at(-1));
    expect(checkPrompt.match(/^\d{1,2}\. /gm)).toHaveLength(testCase.checked);
    expect(checkPrompt).not.toMatch(/https?:\/\//);

    // What the model read back: the "do not type URLs" heading, then one line per kept result tagged by code.
    const toolResult = messagesOf(last).at(-1);
    expect(toolResult?.role).toBe('tool');
    const [heading, ...lines] = textOf(toolResult).split('\n');
    expect(heading).toContain('ห้ามพิมพ์ URL');
    expect(lines.map((line) => /\[source: (\S{1,300})\]$/.exec(line)?.[1])).toEqual(testCase.keptUrls);
  });
});

describe('a layer-3 answer that does not parse', () => {
  it('rejects every result: the model is told nothing relevant was found, and no source list is appended', async () => {
    model = await startFakeModelServer({ flavour: 'llama-server', declaredTools: true });
    const server = await startSearxngFake({ answer: () => goldResults });
    servers.push(server);
    test = createTestApp({
      modelUrl: model.url,
      environment: { MODEL_TOOLS: 'on', MODEL_VISION: 'off', SEARCH_PROVIDER: 'searxng', SEARXNG_URL: server.url, SEARCH_LLM_FILTER: 'always' },
      now: fixedNow,
    });
    const answer = 'ขออภัยค่ะ ไม่พบข้อมูลราคาทองคำวันนี้ที่เกี่ยวข้อง';
    model.script(
      { toolCalls: [{ name: 'web_search', arguments: { query: 'ราคาทองคำวันนี้' } }] },
      { text: 'All three results look relevant to the question.' },
      { text: answer },
    );

    const handled = await test.ask('ราคาทองคำวันนี้เท่าไหร่');
    model.assertAllConsumed();

    expect(textOf(messagesOf(model.chatRequests[2]).at(-1))).toContain('ไม่พบผลการค้นหาที่เกี่ยวข้องกับ "ราคาทองคำวันนี้"');
    expect(handled.turn?.toolCalls).toMatchObject([{ name: 'web_search', ok: true, citations: [] }]);
    expect(handled.replies.map((reply) => reply.text)).toEqual([answer]);
  });
});
