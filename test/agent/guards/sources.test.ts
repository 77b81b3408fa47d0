import { describe, expect, it } from 'vitest';
import { applySources, collectCitations } from '../../../agent/guards/sources.js';
import { toolCall, turnRecord } from '../../support/turn-record.js';

const search = toolCall({
  name: 'web_search',
  result: [
    '1. ราคาทองวันนี้ — สมาคมค้าทองคำ [source: https://www.goldtraders.or.th/?utm_source=x#top]',
    '2. ข่าวทอง — Thairath [source: https://www.thairath.co.th/money/gold/]',
  ].join('\n'),
  citations: [{ label: 'สมาคมค้าทองคำ', url: 'HTTPS://WWW.GoldTraders.or.th:443/' }],
});
const knowledge = toolCall({
  name: 'query_knowledge',
  result: 'วันลาพักร้อน 10 วัน',
  citations: [{ label: 'HR › คู่มือพนักงาน.pdf' }],
});

describe('collectCitations', () => {
  it('dedupes normalized URLs in first-returned order and keeps KB labels', () => {
    const citations = collectCitations(turnRecord({ toolCalls: [search, knowledge, { ...search, id: 'again' }] }));
    expect(citations).toEqual([
      { label: 'สมาคมค้าทองคำ', url: 'https://www.goldtraders.or.th/' },
      { label: 'https://www.thairath.co.th/money/gold/', url: 'https://www.thairath.co.th/money/gold/' },
      { label: 'HR › คู่มือพนักงาน.pdf' },
    ]);
  });

  it('ignores non-web URLs', () => {
    const odd = toolCall({ name: 'web_search', citations: [{ label: 'x', url: 'javascript:alert(1)' }], result: '[source: ftp://x.org/a]' });
    expect(collectCitations(turnRecord({ toolCalls: [odd] }))).toEqual([]);
  });
});

describe('applySources', () => {
  const record = turnRecord({ toolCalls: [search, knowledge] });

  it('appends one list under a Thai heading, KB citations by label', () => {
    const result = applySources('ราคาทองวันนี้บาทละ 41,050 บาท', record);
    expect(result.text).toBe(
      [
        'ราคาทองวันนี้บาทละ 41,050 บาท',
        '',
        '**แหล่งที่มา**',
        '1. [สมาคมค้าทองคำ](https://www.goldtraders.or.th/)',
        '2. https://www.thairath.co.th/money/gold/',
        '3. HR › คู่มือพนักงาน.pdf',
      ].join('\n'),
    );
    expect(result.citations).toHaveLength(3);
    expect(result.events).toEqual([]);
  });

  it('uses an English heading for an English turn', () => {
    expect(applySources('Gold is up.', turnRecord({ language: 'en', toolCalls: [knowledge] })).text).toBe('Gold is up.\n\n**Sources**\n1. HR › คู่มือพนักงาน.pdf');
  });

  const rewrites: [string, string, string][] = [
    ['an invented bare URL is dropped, the sentence kept', 'ราคาอยู่ที่ https://gold-prices.example.com/today ได้เลย', 'ราคาอยู่ที่ ได้เลย'],
    ['an invented URL at the end of a sentence keeps the full stop', 'See https://made.up/page.', 'See.'],
    ['an invented Markdown link keeps its text', 'ตาม[ประกาศล่าสุด](https://fake.example.org/news)ของสมาคม', 'ตามประกาศล่าสุดของสมาคม'],
    ['an invented URL in brackets goes with its brackets', 'ราคาขึ้น (https://fake.example.org/x) วันนี้', 'ราคาขึ้น วันนี้'],
    ['a line left with only a label goes', 'ราคาขึ้น\nที่มา: https://fake.example.org/x', 'ราคาขึ้น'],
    ['a line left with only the Thai word for link goes', 'ราคาขึ้น\nลิงก์: https://fake.example.org/x', 'ราคาขึ้น'],
    ['a Thai lead-in goes with the URL', 'ลาได้ครับ ดูเพิ่มเติมที่ https://fake.example.org/x ส่วนลาป่วยถามฝ่ายบุคคล', 'ลาได้ครับ ส่วนลาป่วยถามฝ่ายบุคคล'],
    ['an English lead-in goes with the URL', 'Gold rose; see https://fake.example.org/x and the notes.', 'Gold rose; and the notes.'],
    ['copied [source: …] markers go', 'ราคาขึ้น [source: https://www.thairath.co.th/money/gold/]', 'ราคาขึ้น'],
    [
      "the model's own source list goes",
      'ราคาขึ้น\n\n**แหล่งที่มา:**\n- https://www.goldtraders.or.th\n- [Thairath](https://www.thairath.co.th/money/gold)',
      'ราคาขึ้น',
    ],
    ['an English references block goes', 'Gold rose.\n\n## References\n1. Gold Traders Association\n2. https://x.example/y', 'Gold rose.'],
    ['a trailing list of bare URLs goes', 'ราคาขึ้น\n\n- https://www.goldtraders.or.th\n- https://fake.example.org', 'ราคาขึ้น'],
  ];
  it.each(rewrites)('%s', (_name, answer, expectedBody) => {
    const result = applySources(answer, turnRecord({ toolCalls: [knowledge] }));
    expect(result.text).toBe(`${expectedBody}\n\n**แหล่งที่มา**\n1. HR › คู่มือพนักงาน.pdf`);
  });

  const kept: [string, string][] = [
    ['a URL a tool returned (normalized differently)', 'ดูที่ http://goldtraders.or.th/ นะครับ'],
    ['a Markdown link to a returned URL', 'ตาม[ข่าว](https://www.thairath.co.th/money/gold?utm_medium=social)'],
    ['code with parentheses and indentation', '```python\nprint()\n    x = (1)\n```'],
    ['a list that is not a source list', 'ขั้นตอน:\n1. เปิดแอป\n2. กดบันทึก'],
    ['the word ที่มา inside a sentence', 'ที่มาของข่าวนี้คือสมาคมค้าทองคำ'],
  ];
  it.each(kept)('keeps %s', (_name, answer) => {
    const result = applySources(answer, record);
    expect(result.text.startsWith(`${answer}\n\n**แหล่งที่มา**`)).toBe(true);
    expect(result.events).toEqual([]);
  });

  it('keeps a URL the user wrote in the question', () => {
    const fromUser = turnRecord({ question: 'สรุปหน้า https://blog.example.com/post-1 ให้หน่อย' });
    expect(applySources('หน้า https://blog.example.com/post-1 พูดถึงทอง', fromUser).text).toBe('หน้า https://blog.example.com/post-1 พูดถึงทอง');
  });

  it('without tool sources removes every typed URL and appends nothing', () => {
    const result = applySources('อ่านต่อที่ https://www.goldtraders.or.th', turnRecord());
    expect(result.text).toBe('อ่านต่อที่');
    expect(result.citations).toEqual([]);
    expect(result.events).toEqual([{ guard: 'sources', action: 'rewrite', reason: 'removed 1 URL(s) that no tool returned in this turn' }]);
  });
});
