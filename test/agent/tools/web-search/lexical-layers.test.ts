import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { applyLexicalLayers, relevanceThreshold } from '../../../../agent/tools/web-search/lexical-layers.js';
import { parseBrave } from '../../../../agent/tools/web-search/providers/brave.js';
import { parseSearxng } from '../../../../agent/tools/web-search/providers/searxng.js';
import { parseTavily } from '../../../../agent/tools/web-search/providers/tavily.js';
import { analyzeIntent } from '../../../../agent/tools/web-search/query-intent.js';
import { planQuery } from '../../../../agent/tools/web-search/query-variants.js';
import { containment, jaccard, queryTrigrams, textTrigrams } from '../../../../agent/tools/web-search/trigrams.js';
import type { ProviderOutcome, RawResult, SearchProvider } from '../../../../agent/tools/web-search/types.js';

const provider: SearchProvider = { name: 'searxng', siteRestriction: 'query', search: () => Promise.reject(new Error('not used')) };

function fixture(name: string, parse: (body: string) => ProviderOutcome): RawResult[] {
  const outcome = parse(readFileSync(new URL(`../../../fixtures/search/${name}`, import.meta.url), 'utf8'));
  if (!outcome.ok) throw new Error(`fixture ${name} did not parse`);
  return outcome.results;
}

function layers(query: string, results: RawResult[][]) {
  const plan = planQuery(query, provider);
  return applyLexicalLayers(plan, analyzeIntent(plan, 2026), results);
}

describe('character-trigram relevance', () => {
  it.each([
    ['ราคาทองคำ', 'ราคาทองคำวันนี้ 5 มี.ค. ขายออก 47,150 บาท', true],
    ['ราคาทองคำ', 'วิธีทำขนมทองหยอด สูตรโบราณ', false],
    ['python 3.13 new features', "What's New In Python 3.13", true],
    ['python 3.13 new features', 'Best hiking trails in the Alps', false],
    ['Python 3.13 มีอะไรใหม่', 'What’s New In Python 3.13 — documentation', true],
    ['ค่าไฟ กฟภ. 2568', 'อัตราค่าไฟฟ้า กฟภ. ปี 2568 หน่วยละ 4.18 บาท', true],
    ['go 1.22 loopvar', 'Go 1.22 changes the loop variable semantics (loopvar)', true],
  ])('%s vs %s → relevant: %s', (query, text, relevant) => {
    const score = containment(queryTrigrams(query), textTrigrams(text));
    expect(score >= relevanceThreshold).toBe(relevant);
  });

  it('ignores question words, and treats Thai digits as digits', () => {
    expect(queryTrigrams('ราคาทองคำเท่าไร')).toEqual(queryTrigrams('ราคาทองคำ'));
    expect(queryTrigrams('what is the price of gold')).toEqual(queryTrigrams('price gold'));
    expect(containment(queryTrigrams('ภาษี 2568'), textTrigrams('ภาษีปี ๒๕๖๘'))).toBe(1);
  });

  it('a query with only stop words matches everything; Jaccard is symmetric', () => {
    expect(containment(queryTrigrams('อะไร'), textTrigrams('anything'))).toBe(1);
    const left = textTrigrams('ราคาทองวันนี้');
    const right = textTrigrams('ราคาทองคำวันนี้');
    expect(jaccard(left, right)).toBe(jaccard(right, left));
    expect(jaccard(left, left)).toBe(1);
  });
});

describe('layers 1–2 over the Thai fixtures', () => {
  it('gold price today (SearXNG): stale years, forecast, login, channel, adult, no-price title, duplicates, domain cap', () => {
    const outcome = layers('ราคาทองคำวันนี้', [fixture('searxng-thai-gold.json', parseSearxng)]);
    expect(outcome.kept.map((result) => result.url)).toEqual([
      'https://www.goldtraders.or.th/default.aspx',
      'https://www.sanook.com/money/gold-today-5-mar-2569/',
      'https://www.sanook.com/money/gold-update-69/',
    ]);
    expect(outcome.stats).toMatchObject({
      fetched: 13,
      duplicates: 1,
      navigation: 2,
      adult: 1,
      rejected: { year: 2, forecast: 1, price: 2 },
      domainCapped: 1,
      kept: 3,
    });
  });

  it('Python 3.13 what is new (Brave): other versions and the sign-in page go', () => {
    const outcome = layers('Python 3.13 มีอะไรใหม่', [fixture('brave-thai-python.json', parseBrave)]);
    const urls = outcome.kept.map((result) => result.url);
    expect(urls).toContain('https://docs.python.org/3/whatsnew/3.13.html');
    expect(urls).toContain('https://www.blognone.com/node/142000');
    expect(urls.some((url) => url.includes('3.9') || url.includes('python312'))).toBe(false);
    expect(outcome.stats.rejected.version).toBe(2);
    expect(outcome.stats.navigation).toBe(1);
  });

  it('tax deadline 2568 (Tavily): other years and the page without a deadline go', () => {
    const outcome = layers('ยื่นภาษีออนไลน์ปี 2568 หมดเขตวันไหน', [fixture('tavily-thai-tax.json', parseTavily)]);
    expect(outcome.stats.rejected).toEqual({ year: 2, deadline: 1 });
    expect(outcome.kept).toHaveLength(2);
    expect(outcome.kept.every((result) => result.host === 'rd.go.th')).toBe(true);
  });

  it('merges results that several variants returned and ranks them first among equals', () => {
    const shared = { title: 'ราคาทองคำวันนี้', url: 'https://a.com/gold', snippet: 'ราคาทองคำ' };
    const other = { title: 'ราคาทองคำวันนี้', url: 'https://b.com/gold', snippet: 'ราคาทองคำแท่ง' };
    const outcome = layers('ราคาทองคำ', [[other, shared], [{ ...shared, url: 'https://www.a.com/gold/?utm_source=x' }]]);
    // Interleaving puts the second list's first item before the first list's second: that URL is shown.
    expect(outcome.kept.map((result) => result.url)).toEqual(['https://www.a.com/gold/', 'https://b.com/gold']);
    expect(outcome.kept[0]?.variantHits).toBe(2);
  });

  it('keeps the captured English results for a plain query (two per domain)', () => {
    const outcome = layers('python', [fixture('searxng-python.json', parseSearxng)]);
    expect(outcome.stats.fetched).toBe(30);
    expect(outcome.kept.length).toBeGreaterThan(15);
    const perHost = new Map<string, number>();
    for (const result of outcome.kept) perHost.set(result.host, (perHost.get(result.host) ?? 0) + 1);
    expect(Math.max(...perHost.values())).toBe(2);
  });
});
