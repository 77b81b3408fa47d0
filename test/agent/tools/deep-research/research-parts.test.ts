import { describe, expect, it } from 'vitest';
import { CitationNumbering, renumberMarkers } from '../../../../agent/tools/deep-research/citations.js';
import { findConflicts } from '../../../../agent/tools/deep-research/conflicts.js';
import { parseFacts } from '../../../../agent/tools/deep-research/fact-extraction.js';
import { FactStore, maxFacts } from '../../../../agent/tools/deep-research/fact-store.js';
import { parseGaps } from '../../../../agent/tools/deep-research/gap-finding.js';
import { freshQueries, stopAfterRound } from '../../../../agent/tools/deep-research/stop-rules.js';
import { finishSynthesis } from '../../../../agent/tools/deep-research/synthesis.js';
import { parseModelJson } from '../../../../agent/tools/deep-research/tolerant-json.js';
import type { Fact } from '../../../../agent/tools/deep-research/types.js';
import { mergeResults } from '../../../../agent/tools/web-search/merge-results.js';

const results = mergeResults([
  [
    { title: 'กฟภ.', url: 'https://www.pea.co.th/rates?utm_source=x', snippet: 'ค่าไฟ' },
    { title: 'กฟน.', url: 'https://www.mea.or.th/rates/', snippet: 'ค่าไฟ' },
  ],
]).candidates;

describe('parseModelJson', () => {
  it.each([
    ['{"facts":[]}', { facts: [] }],
    ['```json\n{"facts":[1]}\n```', { facts: [1] }],
    ['Here you go: {"a":1} hope it helps', { a: 1 }],
    ['<think>{"ignored":true}</think>{"a":2}', { a: 2 }],
    ['[{"fact":"x"}]', [{ fact: 'x' }]],
    ['no json here', undefined],
    ['{"broken": ', undefined],
  ])('%j → %j', (text, expected) => {
    expect(parseModelJson(text)).toEqual(expected);
  });
});

describe('parseFacts', () => {
  it('keeps facts whose URL is among the results (normalized), drops the others', () => {
    const answer = JSON.stringify({
      facts: [
        { fact: 'ค่าไฟ กฟภ. 4.18 บาทต่อหน่วย', url: 'https://pea.co.th/rates' },
        { fact: 'ค่าไฟ กฟน. 4.18 บาทต่อหน่วย', url: 'http://www.mea.or.th/rates' },
        { fact: 'invented source', url: 'https://example.net/made-up' },
        { fact: 'no url at all' },
        { fact: '', url: 'https://pea.co.th/rates' },
      ],
    });
    const parsed = parseFacts(answer, results);
    expect(parsed.facts).toEqual([
      { text: 'ค่าไฟ กฟภ. 4.18 บาทต่อหน่วย', url: 'https://www.pea.co.th/rates', title: 'กฟภ.' },
      { text: 'ค่าไฟ กฟน. 4.18 บาทต่อหน่วย', url: 'https://www.mea.or.th/rates/', title: 'กฟน.' },
    ]);
    expect(parsed.dropped).toBe(3);
  });

  it('accepts a bare array and other key names; an answer without JSON parses to nothing', () => {
    const parsed = parseFacts('```\n[{"text":"ค่าไฟ กฟภ. 4.18 บาท","source":"https://www.pea.co.th/rates"}]\n```', results);
    expect(parsed.facts).toHaveLength(1);
    expect(parseFacts('I could not find facts.', results)).toEqual({ facts: [], dropped: 0, parsed: false });
  });
});

describe('parseGaps', () => {
  it.each([
    ['{"gaps":["ค่า Ft"],"queries":["ค่า Ft งวดล่าสุด","a","b","c"]}', { gaps: ['ค่า Ft'], queries: ['ค่า Ft งวดล่าสุด', 'a', 'b'] }],
    ['{"gaps":[],"queries":[]}', { gaps: [], queries: [] }],
    ['{"gaps":["x"],"follow_up_queries":["q1"]}', { gaps: ['x'], queries: ['q1'] }],
    ['{"gaps":["x"],"queries":[1, "", "q"]}', { gaps: ['x'], queries: ['q'] }],
    ['nothing', { gaps: [], queries: [] }],
  ])('%s → %j', (answer, expected) => {
    expect(parseGaps(answer)).toEqual(expected);
  });
});

describe('stop rules', () => {
  it.each([
    [{ round: 2, newResults: 0, newFacts: 0, totalFacts: 10 }, 'empty-round'],
    [{ round: 2, newResults: 5, newFacts: 12, totalFacts: 50 }, 'fact-limit'],
    [{ round: 1, newResults: 5, newFacts: 2, totalFacts: 2 }, 'few-new-facts'],
    [{ round: 4, newResults: 5, newFacts: 5, totalFacts: 20 }, 'round-limit'],
    [{ round: 3, newResults: 5, newFacts: 3, totalFacts: 20 }, null],
  ] as const)('%j → %s', (summary, expected) => {
    expect(stopAfterRound(summary)).toBe(expected);
  });

  it('drops follow-ups that repeat earlier queries or each other', () => {
    expect(freshQueries(['ค่าไฟ กฟภ. 2568', 'ค่าไฟฟ้า กฟภ. 2568', 'ค่า Ft งวดล่าสุด', 'ค่า Ft งวดล่าสุด!'], ['ค่าไฟ กฟภ. 2568 เท่าไร', 'ค่าไฟ กฟภ. 2568'])).toEqual([
      'ค่า Ft งวดล่าสุด',
    ]);
  });
});

function fact(text: string, url: string, title = url): Fact {
  return { text, url, title, round: 1 };
}

describe('FactStore', () => {
  it('keeps a statement once but keeps statements whose figures differ', () => {
    const store = new FactStore();
    expect(store.add([{ text: 'ค่าไฟ กฟภ. 4.18 บาทต่อหน่วย', url: 'https://a.com', title: 'a' }], 1)).toBe(1);
    expect(store.add([{ text: 'ค่าไฟ กฟภ. 4.18 บาทต่อหน่วย', url: 'https://b.com', title: 'b' }], 2)).toBe(0);
    expect(store.add([{ text: 'ค่าไฟ กฟภ.  4.18  บาทต่อหน่วย!', url: 'https://b.com', title: 'b' }], 2)).toBe(0);
    expect(store.add([{ text: 'ค่าไฟ กฟภ. 4.20 บาทต่อหน่วย', url: 'https://b.com', title: 'b' }], 2)).toBe(1);
    expect(store.size).toBe(2);
  });

  it(`stops at ${maxFacts} facts`, () => {
    const store = new FactStore();
    const many = Array.from({ length: 60 }, (_, index) => ({
      text: `ข้อเท็จจริงลำดับที่ ${index} เรื่อง ${'กขคงจ'.repeat(index % 7)}`,
      url: 'https://a.com',
      title: 'a',
    }));
    expect(store.add(many, 1)).toBe(maxFacts);
  });
});

describe('findConflicts', () => {
  it('finds the same statement with one different figure from two sources', () => {
    const conflicts = findConflicts([
      fact('ค่าไฟฟ้าบ้าน กฟภ. ปี 2568 หน่วยละ 4.18 บาท', 'https://a.com'),
      fact('ค่าไฟฟ้าบ้าน กฟภ. ปี 2568 หน่วยละ 4.20 บาท', 'https://b.com'),
      fact('Python 3.12 was released in October 2023', 'https://c.com'),
      fact('Python 3.13 was released in October 2024', 'https://d.com'),
    ]);
    expect(conflicts).toHaveLength(1);
    expect(conflicts[0]).toMatchObject({ firstFigure: '4.18', secondFigure: '4.2' });
  });

  it('ignores one source disagreeing with itself and statements that are not alike', () => {
    expect(
      findConflicts([
        fact('ราคา 41,000 บาท', 'https://a.com'),
        fact('ราคา 41,500 บาท', 'https://a.com'),
        fact('ประชากร 66 ล้านคน', 'https://b.com'),
        fact('ระยะทาง 700 กิโลเมตร', 'https://c.com'),
      ]),
    ).toEqual([]);
  });
});

describe('citations', () => {
  const sources = [
    { url: 'https://a.com', title: 'A' },
    { url: 'https://b.com', title: 'B' },
    { url: 'https://c.com', title: 'C' },
  ];

  it('renumbers markers by first use, drops unknown numbers, typed URLs and a model-written source list', () => {
    const numbering = new CitationNumbering(sources);
    const text = renumberMarkers(
      'ค่าไฟ 4.18 บาท [3] ตามประกาศ https://c.com/x [1, 3] และ [9]\nดู [ที่นี่](https://evil.example)\n\nแหล่งที่มา:\n[1] https://a.com',
      numbering,
    );
    expect(text).toBe('ค่าไฟ 4.18 บาท [1] ตามประกาศ [2][1] และ\nดู ที่นี่');
    expect(numbering.citations()).toEqual([
      { label: 'C', url: 'https://c.com' },
      { label: 'A', url: 'https://a.com' },
    ]);
  });

  it('leaves unclosed or multi-line brackets alone', () => {
    const numbering = new CitationNumbering(sources);
    expect(renumberMarkers('ดู [ข้อความ](ไม่ปิด และ [2] ต่อ', numbering)).toBe('ดู [ข้อความ](ไม่ปิด และ [1] ต่อ');
    expect(renumberMarkers('a [b\nc](d) [x](y)', new CitationNumbering(sources))).toBe('a [b\nc](d) x');
  });

  it('reports a conflict in code when the answer silently picks one figure', () => {
    const facts = [fact('ค่าไฟฟ้า กฟภ. หน่วยละ 4.18 บาท', 'https://a.com', 'A'), fact('ค่าไฟฟ้า กฟภ. หน่วยละ 4.20 บาท', 'https://b.com', 'B')];
    const conflicts = findConflicts(facts);
    const picked = finishSynthesis('ค่าไฟ กฟภ. หน่วยละ 4.20 บาท [2]', facts, conflicts, 'th');
    expect(picked.text).toBe(
      'ค่าไฟ กฟภ. หน่วยละ 4.20 บาท [1]\n\nข้อมูลไม่ตรงกัน: แหล่ง [2] ระบุว่า "ค่าไฟฟ้า กฟภ. หน่วยละ 4.18 บาท" แต่แหล่ง [1] ระบุว่า "ค่าไฟฟ้า กฟภ. หน่วยละ 4.20 บาท"',
    );
    expect(picked.citations.map((citation) => citation.url)).toEqual(['https://b.com', 'https://a.com']);
    const reported = finishSynthesis('แหล่งข้อมูลไม่ตรงกัน: 4.18 บาท [1] หรือ 4.20 บาท [2]', facts, conflicts, 'en');
    expect(reported.text).toBe('แหล่งข้อมูลไม่ตรงกัน: 4.18 บาท [1] หรือ 4.20 บาท [2]');
  });

  it('falls back to the fact list when the model wrote nothing, and cites every source when it used no markers', () => {
    const facts = [fact('ข้อหนึ่งยาวพอสมควร', 'https://a.com', 'A'), fact('ข้อสองยาวพอสมควร', 'https://b.com', 'B')];
    expect(finishSynthesis('', facts, [], 'th').text).toBe('- ข้อหนึ่งยาวพอสมควร [1]\n- ข้อสองยาวพอสมควร [2]');
    expect(finishSynthesis('คำตอบไม่มีเลขอ้างอิง', facts, [], 'th').citations).toHaveLength(2);
    expect(finishSynthesis('x', [], [], 'en')).toEqual({
      text: 'The research found no reliable information in the search results for this question.',
      citations: [],
    });
  });
});
