import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from '../../fakes/model-server.js';
import { createTestApp, lookupTool, type TestApp } from '../../support/test-app.js';

// Sources end to end: URLs come only from this turn's tool results (`[source: URL]` lines). A URL the model typed
// that no tool returned is removed, the model's own source list is replaced, and one deduplicated list (first-use
// order) is appended by code under แหล่งที่มา.

let fake: FakeModelServer;
let test: TestApp;

const results: Record<string, string> = {
  ดีเซล: 'ดีเซล 29.94 บาทต่อลิตร [source: https://www.pttor.com/th/oil-price?utm_source=line]\nประกาศโดย ปตท. [source: https://www.pttor.com/th/oil-price]',
  แก๊สโซฮอล์: 'แก๊สโซฮอล์ 95 ราคา 35.35 บาท [source: https://www.bangchak.co.th/th/oilprice]\nอ้างอิงเดียวกัน [source: https://pttor.com/th/oil-price/]',
};

beforeEach(async () => {
  fake = await startFakeModelServer({ flavour: 'llama-server', declaredTools: true });
  test = createTestApp({
    modelUrl: fake.url,
    environment: { MODEL_TOOLS: 'on', MODEL_VISION: 'off' },
    extraTools: [lookupTool((query) => results[query] ?? 'ไม่พบข้อมูล')],
    now: () => new Date('2026-11-29T04:00:00Z'),
  });
});
afterEach(async () => {
  await test.close();
  await fake.close();
});

const bothLookups = {
  toolCalls: [
    { name: 'lookup', arguments: { query: 'ดีเซล' } },
    { name: 'lookup', arguments: { query: 'แก๊สโซฮอล์' } },
  ],
};
const sourceList = '**แหล่งที่มา**\n1. https://www.pttor.com/th/oil-price\n2. https://www.bangchak.co.th/th/oilprice';

describe('sources through the turn', () => {
  it('one deduplicated list from the tools; typed URLs removed; the model list replaced', async () => {
    const answer = [
      'ดีเซลลิตรละ 29.94 บาท ([ประกาศ ปตท.](https://www.pttor.com/th/oil-price)) ส่วนแก๊สโซฮอล์ 95 ราคา 35.35 บาท',
      'อ่านบทวิเคราะห์ได้ที่ https://www.fake-oil-news.example.com/today',
      '',
      'แหล่งที่มา:',
      '- https://made-up.example.net/oil',
      '- https://www.pttor.com/th/oil-price',
    ].join('\n');
    fake.script(bothLookups, { text: answer });
    const handled = await test.ask('ราคาน้ำมันวันนี้');
    fake.assertAllConsumed();

    const text = handled.replies[0]?.text ?? '';
    expect(text).toBe(
      ['ดีเซลลิตรละ 29.94 บาท ([ประกาศ ปตท.](https://www.pttor.com/th/oil-price)) ส่วนแก๊สโซฮอล์ 95 ราคา 35.35 บาท', 'อ่านบทวิเคราะห์ได้ที่', '', sourceList].join('\n'),
    );
    expect(text).not.toContain('example');
    expect(text.split('แหล่งที่มา')).toHaveLength(2);
    expect(handled.turn?.citations.map((citation) => citation.url)).toEqual(['https://www.pttor.com/th/oil-price', 'https://www.bangchak.co.th/th/oilprice']);
    expect(handled.turn?.guardEvents.filter((event) => event.guard === 'sources').map((event) => event.reason)).toEqual([
      "removed the model's own source list",
      'removed 1 URL(s) that no tool returned in this turn',
    ]);
  });

  it('a model that copies the [source: …] markers gets them removed and the list appended once', async () => {
    fake.script(bothLookups, {
      text: 'ดีเซล 29.94 บาท [source: https://www.pttor.com/th/oil-price] แก๊สโซฮอล์ 95 ราคา 35.35 บาท [source: https://www.bangchak.co.th/th/oilprice]',
    });
    const handled = await test.ask('ราคาน้ำมันวันนี้');
    expect(handled.replies[0]?.text).toBe(`ดีเซล 29.94 บาท แก๊สโซฮอล์ 95 ราคา 35.35 บาท\n\n${sourceList}`);
  });

  it('a URL the user wrote in the question may stay', async () => {
    fake.script({ text: 'หน้า https://www.example.org/promo เป็นโปรโมชันเดือนนี้ค่ะ' });
    const handled = await test.ask('ลิงก์ https://www.example.org/promo คืออะไร');
    expect(handled.replies[0]?.text).toBe('หน้า https://www.example.org/promo เป็นโปรโมชันเดือนนี้ค่ะ');
  });

  it('no tool, no source: a URL from memory is removed and no list is added', async () => {
    fake.script({ text: 'ดูราคาได้ที่ https://oil-price.example.com/today ค่ะ' });
    const handled = await test.ask('ราคาน้ำมันวันนี้');
    const text = handled.replies[0]?.text ?? '';
    expect(text).not.toContain('http');
    expect(text).not.toContain('แหล่งที่มา');
    expect(text).toContain('ดูราคาได้ที่');
  });
});
