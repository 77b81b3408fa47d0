import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { consoleMessage } from '../../../adapters/console/inbound.js';
import { consoleOwnerId } from '../../../src/app.js';
import type { HandledMessage } from '../../../src/pipeline/router.js';
import type { ProgressEvent } from '../../../src/shared/types.js';
import { searxngResult, startSearxngFake, type SearxngFake } from '../../fakes/search/searxng-fake.js';
import { startFakeModelServer, type FakeModelServer, type RequestBody } from '../../fakes/model-server.js';
import { expectSharedPrefix, expectToolsBarred } from '../../support/prompt-prefix.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

// The model chooses deep_research inside a turn. The tool's helper calls (facts, gaps, synthesis) go to the same
// fake model, non-streaming, between the turn's two streaming calls; the answer ends with the source list in the
// tool's citation order — the order of first use in the synthesis, not the order the search returned.

const fixedNow = () => new Date('2026-03-05T03:00:00Z');
const question = 'ข้าวหอมมะลิกับข้าวกล้องต่างกันอย่างไร';
const followUp = 'ดัชนีน้ำตาลข้าวกล้อง ข้าวหอมมะลิ';

const source = {
  milling: { url: 'https://www.rice.go.th/jasmine-vs-brown', title: 'ข้าวหอมมะลิกับข้าวกล้องต่างกันอย่างไร' },
  fibre: { url: 'https://www.thaihealth.or.th/brown-rice-fibre', title: 'ข้าวกล้องมีใยอาหารมากกว่าข้าวหอมมะลิ' },
  cooking: { url: 'https://www.sanook.com/health/rice-compare', title: 'ข้าวหอมมะลิ ข้าวกล้อง กินแบบไหนดี' },
  glycaemic: { url: 'https://www.pobpad.com/gi-rice', title: 'ดัชนีน้ำตาลข้าวกล้อง ข้าวหอมมะลิ' },
  digestion: { url: 'https://www.hfocus.org/content/rice-gi', title: 'ดัชนีน้ำตาลข้าวกล้อง ข้าวหอมมะลิ เทียบกัน' },
};

const web: Record<string, Record<string, unknown>[]> = {
  [question]: [
    searxngResult({ ...source.milling, content: 'ข้าวหอมมะลิผ่านการขัดสี ส่วนข้าวกล้องยังมีรำข้าวและจมูกข้าว' }, 1),
    searxngResult({ ...source.fibre, content: 'ข้าวกล้อง 100 กรัม มีใยอาหารราว 3.5 กรัม ข้าวหอมมะลิขัดขาวมีราว 1 กรัม' }, 2),
    searxngResult({ ...source.cooking, content: 'ข้าวกล้องหุงนานกว่าและนุ่มน้อยกว่าข้าวหอมมะลิ' }, 3),
  ],
  [followUp]: [
    searxngResult({ ...source.glycaemic, content: 'ข้าวกล้องมีดัชนีน้ำตาลต่ำกว่าข้าวหอมมะลิ' }, 1),
    searxngResult({ ...source.digestion, content: 'ข้าวกล้องย่อยช้ากว่า น้ำตาลในเลือดขึ้นช้ากว่า' }, 2),
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
const lastText = (body: RequestBody | undefined): string => {
  const messages = Array.isArray(body?.messages) ? (body.messages as Message[]) : [];
  const content = messages.at(-1)?.content;
  return typeof content === 'string' ? content : '';
};
const facts = (items: [string, string][]) => JSON.stringify({ facts: items.map(([fact, url]) => ({ fact, url })) });

async function ask(text: string): Promise<{ handled: HandledMessage; progress: ProgressEvent[] }> {
  const progress: ProgressEvent[] = [];
  const message = await consoleMessage({ text, userId: consoleOwnerId });
  const handled = await test.app.router.handle(message, { send: async () => undefined, progress: async (event) => void progress.push(event) });
  return { handled, progress };
}

describe('deep_research called by the model inside a turn', () => {
  it('ends the answer with the source list in the tool citation order', async () => {
    model.script(
      { toolCalls: [{ name: 'deep_research', arguments: { question } }] },
      {
        text: facts([
          ['ข้าวหอมมะลิผ่านการขัดสี ส่วนข้าวกล้องยังมีรำข้าวและจมูกข้าว', source.milling.url],
          ['ข้าวกล้องมีใยอาหารมากกว่าข้าวหอมมะลิ', source.fibre.url],
          ['ข้าวกล้องหุงนานกว่าและนุ่มน้อยกว่า', source.cooking.url],
        ]),
      },
      { text: JSON.stringify({ gaps: ['ผลต่อน้ำตาลในเลือด'], queries: [followUp] }) },
      // Two new facts: fewer than three, so the loop stops without another gap call.
      {
        text: facts([
          ['ข้าวกล้องมีดัชนีน้ำตาลต่ำกว่าข้าวหอมมะลิ', source.glycaemic.url],
          ['ข้าวกล้องย่อยช้ากว่า น้ำตาลในเลือดขึ้นช้ากว่า', source.digestion.url],
        ]),
      },
      // Prompt numbering: 1 milling, 2 fibre, 3 cooking, 4 glycaemic, 5 digestion. First use: 1, 4, 2, 3.
      { text: 'ข้าวหอมมะลิขัดสีแล้ว ข้าวกล้องยังมีรำและจมูกข้าว [1] มีดัชนีน้ำตาลต่ำกว่า [4] ใยอาหารมากกว่า [2] แต่หุงนานกว่า [3]' },
      { text: 'ข้าวกล้องยังมีรำและจมูกข้าว [1] ดัชนีน้ำตาลต่ำกว่า [2] ใยอาหารมากกว่า [3] แต่หุงนานกว่าข้าวหอมมะลิ [4]' },
    );

    const { handled, progress } = await ask(`${question} ช่วยค้นคว้าละเอียด ๆ หน่อย`);
    model.assertAllConsumed();

    const order = [source.milling, source.glycaemic, source.fibre, source.cooking];
    const toolCall = handled.turn?.toolCalls[0];
    expect(toolCall).toMatchObject({ name: 'deep_research', ok: true });
    expect(toolCall?.citations.map((citation) => citation.url)).toEqual(order.map((entry) => entry.url));

    // The model read the write-up renumbered by code, under the "do not type URLs" heading, then numbered sources.
    const toolResult = lastText(model.chatRequests.at(-1));
    const lines = toolResult.split('\n');
    expect(lines[0]).toContain('ห้ามพิมพ์ URL');
    expect(lines[1]).toBe('ข้าวหอมมะลิขัดสีแล้ว ข้าวกล้องยังมีรำและจมูกข้าว [1] มีดัชนีน้ำตาลต่ำกว่า [2] ใยอาหารมากกว่า [3] แต่หุงนานกว่า [4]');
    expect(lines.slice(3)).toEqual(order.map((entry, index) => `[${index + 1}] ${entry.title} [source: ${entry.url}]`));

    expect(handled.replies.map((reply) => reply.text)).toEqual([
      [
        'ข้าวกล้องยังมีรำและจมูกข้าว [1] ดัชนีน้ำตาลต่ำกว่า [2] ใยอาหารมากกว่า [3] แต่หุงนานกว่าข้าวหอมมะลิ [4]',
        '',
        '**แหล่งที่มา**',
        ...order.map((entry, index) => `${index + 1}. [${entry.title}](${entry.url})`),
      ].join('\n'),
    ]);
    // The unused fifth source is not listed; the turn's own progress notes reached the responder.
    expect(handled.replies[0]?.text).not.toContain(source.digestion.url);
    expect(progress.map((event) => event.text)).toEqual([
      `🔎 ค้นคว้ารอบที่ 1/4: "${question}" (ได้ข้อมูลแล้ว 0 ข้อ)`,
      `🔎 ค้นคว้ารอบที่ 2/4: "${followUp}" (ได้ข้อมูลแล้ว 3 ข้อ)`,
    ]);
    expect(model.chatRequests.map((body) => body.stream === true)).toEqual([true, false, false, false, false, true]);
    // The helper calls append one user message each to the turn's first request: the server re-reads only that.
    expectSharedPrefix(model.chatRequests);
    for (const body of model.chatRequests.slice(1, 5)) expectToolsBarred(body);
  });
});
