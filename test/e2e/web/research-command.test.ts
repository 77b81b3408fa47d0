import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { consoleMessage } from '../../../adapters/console/inbound.js';
import { consoleOwnerId } from '../../../src/app.js';
import { dlpNotice, scanForCredentials } from '../../../src/dlp/scan.js';
import type { ProgressEvent, Reply } from '../../../src/shared/types.js';
import { fake as fakeToken } from '../../support/fake-tokens.js';
import { searxngResult, startSearxngFake, type SearxngFake } from '../../fakes/search/searxng-fake.js';
import { startFakeModelServer, type FakeModelServer, type RequestBody } from '../../fakes/model-server.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

// `/research <Thai question>` through the router: several search rounds with distinct queries, progress notes
// on the responder, a synthesis whose [n] markers the code renumbers and maps to URLs, and the outbound DLP.

const fixedNow = () => new Date('2026-03-05T03:00:00Z');
const question = 'ค่าไฟฟ้าบ้าน กฟน. กับ กฟภ. ต่างกันอย่างไร';
const followUps = ['ค่า Ft งวดปัจจุบัน', 'ค่าบริการรายเดือน ค่าไฟฟ้าบ้าน'] as const;
const leakQuestion = 'ตัวอย่างไฟล์ตั้งค่า GitHub Actions สำหรับ deploy';
const leakedToken = fakeToken.githubClassic();

const page = {
  meaRate: 'https://www.mea.or.th/our-services/tariff-calculation/residential',
  peaRate: 'https://www.pea.co.th/our-services/tariff/residential',
  areas: 'https://www.thairath.co.th/money/economics/2800001',
  peaLogin: 'https://www.pea.co.th/login',
  ft: 'https://www.erc.or.th/th/news/ft-current',
  meaCharge: 'https://www.mea.or.th/faq/service-charge',
  peaCharge: 'https://www.pea.co.th/faq/service-charge',
};

/** The fake web: each query's results, with a login page the navigation filter must drop. */
const web: Record<string, Record<string, unknown>[]> = {
  [question]: [
    searxngResult({ url: page.meaRate, title: 'อัตราค่าไฟฟ้าบ้านอยู่อาศัย กฟน.', content: 'ค่าไฟฟ้าบ้าน กฟน. อัตราก้าวหน้า 150 หน่วยแรก หน่วยละ 3.2484 บาท' }, 1),
    searxngResult({ url: page.peaRate, title: 'อัตราค่าไฟฟ้าบ้านอยู่อาศัย กฟภ.', content: 'ค่าไฟฟ้าบ้าน กฟภ. ใช้อัตราเดียวกับ กฟน. ทุกขั้น' }, 2),
    searxngResult({ url: page.peaLogin, title: 'เข้าสู่ระบบ ค่าไฟฟ้าบ้าน กฟภ.', content: 'เข้าสู่ระบบเพื่อดูค่าไฟฟ้าบ้าน กฟภ. ของคุณ' }, 3),
    searxngResult(
      { url: page.areas, title: 'ค่าไฟฟ้าบ้าน กฟน. กับ กฟภ. ต่างกันอย่างไร', content: 'โครงสร้างอัตราเดียวกัน ต่างกันที่พื้นที่ให้บริการ กฟน. ดูแลกรุงเทพฯ นนทบุรี สมุทรปราการ' },
      4,
    ),
  ],
  [followUps[0]]: [searxngResult({ url: page.ft, title: 'กกพ. ประกาศค่า Ft งวดปัจจุบัน', content: 'ค่า Ft งวดปัจจุบัน 36.72 สตางค์ต่อหน่วย ใช้ทั้ง กฟน. และ กฟภ.' })],
  [followUps[1]]: [
    searxngResult({ url: page.meaCharge, title: 'ค่าบริการรายเดือน ค่าไฟฟ้าบ้าน กฟน.', content: 'ค่าบริการรายเดือนบ้านอยู่อาศัย 24.62 บาทต่อเดือน' }, 1),
    searxngResult({ url: page.peaCharge, title: 'ค่าบริการรายเดือน ค่าไฟฟ้าบ้าน กฟภ.', content: 'ค่าบริการรายเดือน 24.62 บาท เท่ากับ กฟน.' }, 2),
  ],
  // A paste page that leaks a token in its snippet.
  [leakQuestion]: [
    searxngResult({ url: 'https://paste.example.org/abc123', title: `${leakQuestion} ตัวอย่าง`, content: `deploy.yml ใช้ GH_TOKEN: ${leakedToken}` }, 1),
    searxngResult({ url: 'https://docs.github.com/th/actions/deploy', title: leakQuestion, content: 'ใช้ secrets.GITHUB_TOKEN แทนการใส่โทเคนในไฟล์' }, 2),
  ],
};

let model: FakeModelServer;
let searxng: SearxngFake;
let test: TestApp;

beforeEach(async () => {
  model = await startFakeModelServer({ flavour: 'llama-server', declaredTools: true });
  searxng = await startSearxngFake({ answer: (query) => web[query] ?? [] });
  test = createTestApp({
    modelUrl: model.url,
    environment: { MODEL_TOOLS: 'on', MODEL_VISION: 'off', SEARCH_PROVIDER: 'searxng', SEARXNG_URL: searxng.url },
    now: fixedNow,
  });
});
afterEach(async () => {
  await test.close();
  await model.close();
  await searxng.close();
});

type Message = { role: string; content?: unknown };
const promptOf = (body: RequestBody): string => {
  const messages = Array.isArray(body.messages) ? (body.messages as Message[]) : [];
  const content = messages.at(-1)?.content;
  return typeof content === 'string' ? content : '';
};
const schemaName = (body: RequestBody): unknown => (body.response_format as { json_schema?: { name?: string } } | undefined)?.json_schema?.name;
const facts = (items: [string, string][]) => JSON.stringify({ facts: items.map(([fact, url]) => ({ fact, url })) });

/** Runs `/research …` through the router with a responder that records replies and progress notes. */
async function research(text: string): Promise<{ replies: Reply[]; progress: ProgressEvent[] }> {
  const replies: Reply[] = [];
  const progress: ProgressEvent[] = [];
  const message = await consoleMessage({ text, userId: consoleOwnerId });
  await test.app.router.handle(message, {
    send: async (reply) => void replies.push(reply),
    progress: async (event) => void progress.push(event),
  });
  return { replies, progress };
}

/** The URLs a line of the reply cites, read through the reply's own numbered source list. */
function citedUrls(reply: string, claim: string): string[] {
  const [body = '', list = ''] = reply.split('\n\n**แหล่งที่มา**\n');
  // List entries read `n. [label](url)`; the text cites them as `[n]`.
  const urlByNumber = new Map(list.split('\n').map((line) => [`[${line.slice(0, line.indexOf('.'))}]`, line.slice(line.lastIndexOf('(') + 1, -1)]));
  const line = body.split('\n').find((candidate) => candidate.includes(claim)) ?? '';
  return (line.match(/\[\d{1,2}\]/g) ?? []).map((marker) => urlByNumber.get(marker) ?? `unlisted ${marker}`);
}

describe('/research through the router', () => {
  it('runs rounds with distinct queries, reports progress, and maps the numbered citations to the right URLs', async () => {
    model.script(
      {
        text: facts([
          ['กฟน. คิดค่าไฟฟ้าบ้าน 150 หน่วยแรก หน่วยละ 3.2484 บาท', page.meaRate],
          ['กฟภ. ใช้อัตราค่าไฟฟ้าบ้านเดียวกับ กฟน.', page.peaRate],
          ['กฟน. ดูแลกรุงเทพฯ นนทบุรี และสมุทรปราการ', page.areas],
          // A source that was never among the results: dropped before it can be cited.
          ['ค่าไฟฟ้าบ้านจะขึ้นเป็น 5 บาทต่อหน่วยปีหน้า', 'https://invented.example.net/rumour'],
        ]),
        expect: (body) => expect(schemaName(body)).toBe('facts'),
      },
      { text: JSON.stringify({ gaps: ['ค่า Ft', 'ค่าบริการรายเดือน'], queries: followUps }), expect: (body) => expect(schemaName(body)).toBe('gaps') },
      {
        text: facts([
          ['ค่า Ft งวดปัจจุบัน 36.72 สตางค์ต่อหน่วย ใช้ทั้งสองการไฟฟ้า', page.ft],
          ['กฟน. เก็บค่าบริการรายเดือน 24.62 บาท', page.meaCharge],
          ['กฟภ. เก็บค่าบริการรายเดือน 24.62 บาท เท่ากับ กฟน.', page.peaCharge],
        ]),
        expect: (body) => expect(schemaName(body)).toBe('facts'),
      },
      { text: JSON.stringify({ gaps: [], queries: [] }), expect: (body) => expect(schemaName(body)).toBe('gaps') },
      {
        // Markers against the prompt's numbering ([1] = first source among the facts), plus a list of its own.
        text: [
          '- ค่าไฟฟ้าบ้านของ กฟน. และ กฟภ. ใช้อัตราเดียวกัน [2]',
          '- 150 หน่วยแรกคิดหน่วยละ 3.2484 บาท [1]',
          '- ค่า Ft งวดปัจจุบัน 36.72 สตางค์ต่อหน่วย [4]',
          '- ค่าบริการรายเดือน 24.62 บาทเท่ากันทั้งสองการไฟฟ้า [5, 6]',
          '- ที่ต่างกันคือพื้นที่ให้บริการ: กฟน. ดูแลกรุงเทพฯ นนทบุรี และสมุทรปราการ [3]',
          '',
          '**แหล่งที่มา**',
          '- https://www.mea.or.th/',
        ].join('\n'),
        expect: (body) => {
          expect(schemaName(body)).toBeUndefined();
          expect(promptOf(body)).toContain('[4] ค่า Ft งวดปัจจุบัน 36.72 สตางค์ต่อหน่วย');
          expect(promptOf(body)).not.toContain('invented');
        },
      },
    );

    const { replies, progress } = await research(`/research ${question}`);
    model.assertAllConsumed();

    // Round 1 asks the question; round 2 asks both follow-ups (concurrently, so in either order).
    const queries = searxng.requests.map((request) => request.query.get('q'));
    expect(queries[0]).toBe(question);
    expect([...queries.slice(1)].sort()).toEqual([...followUps].sort());
    expect(progress).toEqual([
      { source: 'deep_research', text: `🔎 ค้นคว้ารอบที่ 1/4: "${question}" (ได้ข้อมูลแล้ว 0 ข้อ)` },
      { source: 'deep_research', text: `🔎 ค้นคว้ารอบที่ 2/4: "${followUps[0]}", "${followUps[1]}" (ได้ข้อมูลแล้ว 3 ข้อ)` },
    ]);
    // Helper calls only: non-streaming, no tools. The login page never reached the model.
    expect(model.chatRequests.map((body) => [body.stream, body.tools])).toEqual(Array.from({ length: 5 }, () => [false, undefined]));
    expect(model.chatRequests.map(promptOf).join('\n')).not.toContain(page.peaLogin);

    const reply = replies.map((sent) => sent.text);
    expect(reply).toEqual([
      [
        '- ค่าไฟฟ้าบ้านของ กฟน. และ กฟภ. ใช้อัตราเดียวกัน [1]',
        '- 150 หน่วยแรกคิดหน่วยละ 3.2484 บาท [2]',
        '- ค่า Ft งวดปัจจุบัน 36.72 สตางค์ต่อหน่วย [3]',
        '- ค่าบริการรายเดือน 24.62 บาทเท่ากันทั้งสองการไฟฟ้า [4][5]',
        '- ที่ต่างกันคือพื้นที่ให้บริการ: กฟน. ดูแลกรุงเทพฯ นนทบุรี และสมุทรปราการ [6]',
        '',
        '**แหล่งที่มา**',
        `1. [อัตราค่าไฟฟ้าบ้านอยู่อาศัย กฟภ.](${page.peaRate})`,
        `2. [อัตราค่าไฟฟ้าบ้านอยู่อาศัย กฟน.](${page.meaRate})`,
        `3. [กกพ. ประกาศค่า Ft งวดปัจจุบัน](${page.ft})`,
        `4. [ค่าบริการรายเดือน ค่าไฟฟ้าบ้าน กฟน.](${page.meaCharge})`,
        `5. [ค่าบริการรายเดือน ค่าไฟฟ้าบ้าน กฟภ.](${page.peaCharge})`,
        `6. [ค่าไฟฟ้าบ้าน กฟน. กับ กฟภ. ต่างกันอย่างไร](${page.areas})`,
      ].join('\n'),
    ]);
    const text = reply[0] ?? '';
    const claims: [string, string[]][] = [
      ['ใช้อัตราเดียวกัน', [page.peaRate]],
      ['3.2484', [page.meaRate]],
      ['36.72', [page.ft]],
      ['24.62', [page.meaCharge, page.peaCharge]],
      ['พื้นที่ให้บริการ', [page.areas]],
    ];
    for (const [claim, urls] of claims) expect(citedUrls(text, claim), claim).toEqual(urls);
    // The reply went out through the outbound DLP and passed it.
    expect(scanForCredentials(text)).toEqual({ found: false });
    expect(text).not.toBe(dlpNotice('th'));
  });

  it('sends a research reply that carries a credential as the DLP notice, whole', async () => {
    model.script(
      {
        text: facts([
          [`ไฟล์ตัวอย่างใช้ GH_TOKEN: ${leakedToken}`, 'https://paste.example.org/abc123'],
          ['ควรใช้ secrets.GITHUB_TOKEN แทนการใส่โทเคนในไฟล์', 'https://docs.github.com/th/actions/deploy'],
        ]),
      },
      // Two facts: fewer than three new, so no gap finding; straight to the write-up, which repeats the token.
      { text: `ตัวอย่างในเว็บใช้ GH_TOKEN: ${leakedToken} [1] แต่ควรใช้ secrets.GITHUB_TOKEN [2]` },
    );

    const { replies, progress } = await research(`/research ${leakQuestion}`);
    model.assertAllConsumed();

    expect(replies.map((sent) => sent.text)).toEqual([dlpNotice('th')]);
    expect(progress).toHaveLength(1);
  });
});
