import { Keyv } from 'keyv';
import { afterEach, describe, expect, it } from 'vitest';
import type { ResearchRunner } from '../../../../agent/tools/deep-research/index.js';
import { type SearchSettings, createWebTools } from '../../../../agent/tools/web-search/index.js';
import type { CompletionRequest } from '../../../../agent/model/index.js';
import type { AnyTool } from '../../../../agent/tools/tool.js';
import { silentLogger } from '../../../../src/shared/log.js';
import type { FakeHttpServer, FakeResponse } from '../../../fakes/search/fake-http-server.js';
import { type CompletionStep, scriptedCompleter } from '../../../fakes/search/scripted-completer.js';
import { searxngErrors, searxngResult, startSearxngFake } from '../../../fakes/search/searxng-fake.js';
import { testToolContext } from '../../../fakes/search/tool-context.js';

const servers: FakeHttpServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const question = 'ค่าไฟฟ้าบ้าน กฟน. กับ กฟภ. ต่างกันอย่างไร';

/** Results whose titles repeat the query, so layers 1–2 keep them. */
function resultsFor(query: string, count: number, offset: number): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, index) =>
    searxngResult({ url: `https://source${offset + index}.example.org/page`, title: `${query} แหล่งที่ ${offset + index}`, content: `${query} รายละเอียด` }),
  );
}

/** A fake web: query → results (or an error response); unknown queries get nothing. */
async function fakeWeb(web: Record<string, Record<string, unknown>[] | FakeResponse>) {
  const fake = await startSearxngFake({ answer: (query) => web[query] ?? [] });
  servers.push(fake);
  return fake;
}

function setup(fakeUrl: string): { research: ResearchRunner; tool: AnyTool } {
  const searchSettings: SearchSettings = {
    provider: 'searxng',
    searxngUrl: fakeUrl,
    braveApiKey: undefined,
    braveBaseUrl: 'https://api.search.brave.com',
    tavilyApiKey: undefined,
    tavilyBaseUrl: 'https://api.tavily.com',
    llmFilter: 'on',
    timeoutMs: 5000,
    cacheTtlSeconds: 900,
  };
  const web = createWebTools({ settings: searchSettings, cache: new Keyv(), log: silentLogger(), secrets: [] });
  const tool = web.tools.find((candidate) => candidate.name === 'deep_research');
  if (!web.research || !tool) throw new Error('research not configured');
  return { research: web.research, tool };
}

// Distinct statements without figures: random letters, so no two are near-duplicates or "conflicts".
let seed = 7;
function distinctStatement(): string {
  let word = '';
  for (let index = 0; index < 24; index += 1) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    word += String.fromCharCode(97 + (seed % 26));
  }
  return `statement ${word}`;
}

function urlsIn(request: CompletionRequest): string[] {
  return [...(request.messages[0]?.content ?? '').matchAll(/^URL: (\S+)$/gm)].map((match) => match[1] ?? '');
}

const isExtraction = (request: CompletionRequest) => request.jsonSchema?.name === 'facts';
const isGapFinding = (request: CompletionRequest) => request.jsonSchema?.name === 'gaps';
const isSynthesis = (request: CompletionRequest) => request.jsonSchema === undefined && (request.system ?? '').includes('numbered facts');

function extract(name: string, count: number, extra: { fact: string; url: string }[] = []): CompletionStep {
  return {
    name,
    expect: isExtraction,
    answer: (request) => {
      const urls = urlsIn(request);
      const facts = Array.from({ length: count }, (_, index) => ({ fact: distinctStatement(), url: urls[index % urls.length] ?? '' }));
      return JSON.stringify({ facts: [...facts, ...extra] });
    },
  };
}

function gaps(name: string, queries: string[]): CompletionStep {
  return { name, expect: isGapFinding, answer: JSON.stringify({ gaps: queries.length > 0 ? ['missing detail'] : [], queries }) };
}

function synthesis(name: string, answer = 'สรุปคำตอบ [1] และ [2]'): CompletionStep {
  return { name, expect: isSynthesis, answer };
}

describe('deep research loop', () => {
  it('runs several rounds with distinct queries, drops facts with unknown URLs, and cites only real sources', async () => {
    const followUps = ['ค่า Ft งวดปัจจุบัน กฟภ.', 'อัตราค่าไฟฟ้าบ้านอยู่อาศัย กฟน.'];
    const fake = await fakeWeb({
      [question]: resultsFor(question, 3, 0),
      [followUps[0] ?? '']: [...resultsFor(followUps[0] ?? '', 2, 10), ...resultsFor(question, 1, 0)],
      [followUps[1] ?? '']: resultsFor(followUps[1] ?? '', 1, 20),
    });
    const { research } = setup(fake.url);
    const model = scriptedCompleter([
      extract('extract round 1', 4, [{ fact: 'ตัวเลขจากแหล่งที่ไม่มีอยู่จริง', url: 'https://invented.example.net/x' }]),
      gaps('gaps round 1', followUps),
      extract('extract round 2', 3),
      gaps('gaps round 2', []),
      {
        name: 'synthesis',
        expect: (request) => isSynthesis(request) && !(request.messages[0]?.content ?? '').includes('invented'),
        answer: 'กฟภ. และ กฟน. ใช้อัตราเดียวกัน [5] ค่า Ft เท่ากัน [1] ดูได้ที่ https://typed.example.com [99]',
      },
    ]);
    const context = testToolContext(model.complete);
    const result = await research(question, context);
    model.verify();

    expect(result).toMatchObject({ rounds: 2, facts: 7, stopReason: 'no-gaps' });
    expect(fake.requests.map((request) => request.query.get('q'))).toEqual([question, ...followUps]);
    expect(result.text).toBe('กฟภ. และ กฟน. ใช้อัตราเดียวกัน [1] ค่า Ft เท่ากัน [2] ดูได้ที่');
    const known = new Set([0, 1, 2, 10, 11, 20].map((index) => `https://source${index}.example.org/page`));
    expect(result.citations).toHaveLength(2);
    expect(result.citations.every((citation) => known.has(citation.url ?? ''))).toBe(true);
    expect(result.citations[1]?.url).toBe('https://source0.example.org/page');
    expect(context.progressEvents.map((event) => event.text)).toEqual([
      `🔎 ค้นคว้ารอบที่ 1/4: "${question}" (ได้ข้อมูลแล้ว 0 ข้อ)`,
      `🔎 ค้นคว้ารอบที่ 2/4: "${followUps[0]}", "${followUps[1]}" (ได้ข้อมูลแล้ว 4 ข้อ)`,
    ]);
  });

  it('stops after four rounds (round limit)', async () => {
    const queries = ['ค่าไฟรอบสอง กฟภ.', 'ค่าไฟรอบสาม กฟน.', 'ค่าไฟรอบสี่ การไฟฟ้า'];
    const web: Record<string, Record<string, unknown>[]> = { [question]: resultsFor(question, 3, 0) };
    queries.forEach((query, index) => (web[query] = resultsFor(query, 3, 10 * (index + 1))));
    const fake = await fakeWeb(web);
    const model = scriptedCompleter([
      extract('extract 1', 3),
      gaps('gaps 1', [queries[0] ?? '']),
      extract('extract 2', 3),
      gaps('gaps 2', [queries[1] ?? '']),
      extract('extract 3', 3),
      gaps('gaps 3', [queries[2] ?? '']),
      extract('extract 4', 3),
      synthesis('synthesis'),
    ]);
    const result = await setup(fake.url).research(question, testToolContext(model.complete, { language: 'en' }));
    model.verify();
    expect(result).toMatchObject({ rounds: 4, facts: 12, stopReason: 'round-limit' });
    expect(fake.requests).toHaveLength(4);
  });

  it('stops at 50 facts (fact limit)', async () => {
    const fake = await fakeWeb({
      [question]: resultsFor(question, 5, 0),
      'ค่าไฟ กฟภ. รอบสอง': resultsFor('ค่าไฟ กฟภ. รอบสอง', 5, 10),
      'อัตรา Ft รอบสาม': resultsFor('อัตรา Ft รอบสาม', 5, 20),
    });
    const model = scriptedCompleter([
      extract('extract 1', 20),
      gaps('gaps 1', ['ค่าไฟ กฟภ. รอบสอง']),
      extract('extract 2', 20),
      gaps('gaps 2', ['อัตรา Ft รอบสาม']),
      extract('extract 3', 20),
      synthesis('synthesis'),
    ]);
    const result = await setup(fake.url).research(question, testToolContext(model.complete));
    model.verify();
    expect(result).toMatchObject({ rounds: 3, facts: 50, stopReason: 'fact-limit' });
  });

  it('stops when a round adds fewer than three facts', async () => {
    const fake = await fakeWeb({ [question]: resultsFor(question, 3, 0) });
    const model = scriptedCompleter([extract('extract 1', 2), synthesis('synthesis', 'คำตอบ [2]')]);
    const result = await setup(fake.url).research(question, testToolContext(model.complete));
    model.verify();
    expect(result).toMatchObject({ rounds: 1, facts: 2, stopReason: 'few-new-facts' });
    expect(result.citations).toEqual([{ label: `${question} แหล่งที่ 1`, url: 'https://source1.example.org/page' }]);
  });

  it('stops when a round returns nothing new', async () => {
    const fake = await fakeWeb({ [question]: resultsFor(question, 3, 0), 'ค่าไฟ ซ้ำเดิม กฟภ.': resultsFor(question, 3, 0) });
    const model = scriptedCompleter([extract('extract 1', 3), gaps('gaps 1', ['ค่าไฟ ซ้ำเดิม กฟภ.']), synthesis('synthesis')]);
    const result = await setup(fake.url).research(question, testToolContext(model.complete));
    model.verify();
    expect(result).toMatchObject({ rounds: 2, facts: 3, stopReason: 'empty-round' });
  });

  it('stops when every follow-up repeats an earlier query', async () => {
    const fake = await fakeWeb({ [question]: resultsFor(question, 3, 0) });
    const model = scriptedCompleter([extract('extract 1', 3), gaps('gaps 1', ['ค่าไฟฟ้าบ้าน กฟน. กับ กฟภ. ต่างกันอย่างไรบ้าง', question]), synthesis('synthesis')]);
    const result = await setup(fake.url).research(question, testToolContext(model.complete));
    model.verify();
    expect(result).toMatchObject({ rounds: 1, stopReason: 'repeated-query' });
    expect(fake.requests).toHaveLength(1);
  });

  it('reports a failed first search as the live-search notice, without calling the model', async () => {
    const fake = await fakeWeb({});
    fake.script.push(searxngErrors.searchError());
    const model = scriptedCompleter([]);
    const result = await setup(fake.url).research(question, testToolContext(model.complete));
    model.verify();
    expect(result).toMatchObject({ rounds: 1, facts: 0, citations: [], stopReason: 'search-failed' });
    expect(result.text).toContain('การค้นหาเว็บแบบสดล้มเหลว');
  });

  it('writes up what it has when a later search fails', async () => {
    const fake = await fakeWeb({ [question]: resultsFor(question, 3, 0), 'ค่า Ft งวดปัจจุบัน': searxngErrors.searchError() });
    const model = scriptedCompleter([extract('extract 1', 3), gaps('gaps 1', ['ค่า Ft งวดปัจจุบัน']), synthesis('synthesis', 'คำตอบ [1]')]);
    const result = await setup(fake.url).research(question, testToolContext(model.complete));
    model.verify();
    expect(result).toMatchObject({ rounds: 2, facts: 3, stopReason: 'search-failed' });
    expect(result.citations).toHaveLength(1);
  });

  it('stops at once when the turn is cancelled', async () => {
    const fake = await fakeWeb({});
    const controller = new AbortController();
    controller.abort();
    const model = scriptedCompleter([]);
    const result = await setup(fake.url).research(question, testToolContext(model.complete, { signal: controller.signal, language: 'en' }));
    model.verify();
    expect(result).toMatchObject({ rounds: 0, facts: 0, stopReason: 'aborted', citations: [] });
    expect(fake.requests).toHaveLength(0);
  });

  it('stops without a write-up call when the turn is cancelled between rounds', async () => {
    const fake = await fakeWeb({ [question]: resultsFor(question, 3, 0), 'ค่า Ft งวดนี้': resultsFor('ค่า Ft งวดนี้', 3, 10) });
    const controller = new AbortController();
    const model = scriptedCompleter([
      extract('extract 1', 3),
      {
        name: 'gaps, then the user cancels',
        expect: isGapFinding,
        answer: () => {
          controller.abort();
          return JSON.stringify({ gaps: ['Ft'], queries: ['ค่า Ft งวดนี้'] });
        },
      },
    ]);
    const result = await setup(fake.url).research(question, testToolContext(model.complete, { signal: controller.signal }));
    model.verify();
    expect(result).toMatchObject({ rounds: 1, facts: 3, stopReason: 'aborted' });
    expect(result.text.split('\n')).toHaveLength(3);
    expect(fake.requests).toHaveLength(1);
  });

  it('reports conflicting figures from two sources instead of choosing one', async () => {
    const results = resultsFor(question, 3, 0);
    // The snippets carry the figures the facts report (a write-up figure needs a snippet behind it).
    results[0] = searxngResult({ url: 'https://source0.example.org/page', title: `${question} แหล่งที่ 0`, content: 'กฟภ. หน่วยละ 4.18 บาท' });
    results[1] = searxngResult({ url: 'https://source1.example.org/page', title: `${question} แหล่งที่ 1`, content: 'กฟภ. หน่วยละ 4.20 บาท' });
    const fake = await fakeWeb({ [question]: results });
    const model = scriptedCompleter([
      {
        name: 'extract with a conflict',
        expect: isExtraction,
        answer: JSON.stringify({
          facts: [
            { fact: 'ค่าไฟฟ้าบ้าน กฟภ. หน่วยละ 4.18 บาท', url: 'https://source0.example.org/page' },
            { fact: 'ค่าไฟฟ้าบ้าน กฟภ. หน่วยละ 4.20 บาท', url: 'https://source1.example.org/page' },
            { fact: distinctStatement(), url: 'https://source2.example.org/page' },
          ],
        }),
      },
      gaps('gaps', []),
      {
        name: 'synthesis picks one figure',
        expect: (request) => isSynthesis(request) && (request.messages[0]?.content ?? '').includes('Conflicting figures (report both)'),
        answer: 'ค่าไฟ กฟภ. หน่วยละ 4.18 บาท [1]',
      },
    ]);
    const result = await setup(fake.url).research(question, testToolContext(model.complete));
    model.verify();
    expect(result.text).toContain('ข้อมูลไม่ตรงกัน: แหล่ง [1] ระบุว่า "ค่าไฟฟ้าบ้าน กฟภ. หน่วยละ 4.18 บาท" แต่แหล่ง [2] ระบุว่า "ค่าไฟฟ้าบ้าน กฟภ. หน่วยละ 4.20 บาท"');
    expect(result.citations.map((citation) => citation.url)).toEqual(['https://source0.example.org/page', 'https://source1.example.org/page']);
  });
});

describe('figures of the write-up', () => {
  it('marks a figure that no snippet carries, keeps one that a snippet does', async () => {
    const results = resultsFor(question, 3, 0);
    results[0] = searxngResult({ url: 'https://source0.example.org/page', title: `${question} แหล่งที่ 0`, content: 'ค่าบริการรายเดือน 24.62 บาท' });
    const fake = await fakeWeb({ [question]: results });
    const model = scriptedCompleter([
      {
        name: 'extract',
        expect: isExtraction,
        answer: JSON.stringify({
          facts: [
            { fact: 'ค่าบริการรายเดือน 24.62 บาท', url: 'https://source0.example.org/page' },
            { fact: distinctStatement(), url: 'https://source1.example.org/page' },
            { fact: distinctStatement(), url: 'https://source2.example.org/page' },
          ],
        }),
      },
      gaps('gaps', []),
      synthesis('synthesis', 'ค่าบริการรายเดือน 24.62 บาท [1] และค่าไฟเฉลี่ย 4.72 บาทต่อหน่วย [1]'),
    ]);
    const result = await setup(fake.url).research(question, testToolContext(model.complete));
    model.verify();
    expect(result.text).toContain('ค่าบริการรายเดือน 24.62 บาท [1] และค่าไฟเฉลี่ย [ตัวเลขยังไม่ยืนยัน] บาทต่อหน่วย [1]');
  });
});

describe('deep_research tool', () => {
  it('returns the cited write-up with [source: URL] lines and the citations', async () => {
    const fake = await fakeWeb({ [question]: resultsFor(question, 3, 0) });
    const { tool } = setup(fake.url);
    const model = scriptedCompleter([extract('extract', 3), gaps('gaps', []), synthesis('synthesis', 'คำตอบ [2] และ [1]')]);
    const context = testToolContext(model.complete);
    const result = await tool.execute({ question }, context);
    model.verify();
    expect(result.ok).toBe(true);
    const lines = result.content.split('\n');
    expect(lines[0]).toContain('ห้ามพิมพ์ URL');
    expect(lines).toContain('คำตอบ [1] และ [2]');
    expect(lines).toContain(`[1] ${question} แหล่งที่ 1 [source: https://source1.example.org/page]`);
    expect(result.citations?.map((citation) => citation.url)).toEqual(['https://source1.example.org/page', 'https://source0.example.org/page']);
  });

  it('returns ok:false with the live-search notice when search fails', async () => {
    const fake = await fakeWeb({});
    fake.script.push(searxngErrors.formatDisabled());
    const result = await setup(fake.url).tool.execute({ question }, testToolContext(scriptedCompleter([]).complete, { language: 'en' }));
    expect(result).toEqual({ ok: false, content: expect.stringContaining('Live web search failed') as string });
  });
});
