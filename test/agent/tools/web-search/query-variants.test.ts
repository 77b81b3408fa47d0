import { describe, expect, it } from 'vitest';
import { analyzeIntent } from '../../../../agent/tools/web-search/query-intent.js';
import { planQuery, simplifyQuery } from '../../../../agent/tools/web-search/query-variants.js';
import type { SearchProvider } from '../../../../agent/tools/web-search/types.js';

function provider(siteRestriction: SearchProvider['siteRestriction']): SearchProvider {
  return {
    name: siteRestriction === 'query' ? 'searxng' : 'tavily',
    siteRestriction,
    search: () => Promise.reject(new Error('not used')),
  };
}
const searxng = provider('query');
const tavily = provider('include-domains');

describe('simplifyQuery: instruction words go, the subject stays', () => {
  it.each([
    ['ช่วยค้นหาราคาทองคำหน่อยครับ', 'ราคาทองคำ'],
    ['หาให้หน่อย ผลบอลเมื่อคืน', 'ผลบอลเมื่อคืน'],
    ['ค่าไฟเดือนละเท่าไร พร้อมแหล่งที่มา', 'ค่าไฟเดือนละเท่าไร'],
    ['ขอลิงก์ ตารางรถไฟสายใต้', 'ตารางรถไฟสายใต้'],
    ['ค้นหาวิธีต่อภาษีรถออนไลน์', 'วิธีต่อภาษีรถออนไลน์'],
    ['please search for the latest Node.js LTS with sources', 'Node.js LTS'],
    ['Search the web for bangkok air quality today', 'bangkok air quality'],
    ['can you find me cheap flights to Chiang Mai please', 'me cheap flights to Chiang Mai'],
  ])('%s → %s', (query, expected) => {
    expect(simplifyQuery(query)).toBe(expected);
  });

  it.each([
    // "หาให้" inside ปัญหาให้, "หา" at the start of หาดใหญ่, "นะ" at the end of ชนะ, "search" inside a term.
    ['วิธีแก้ปัญหาให้ลูกค้า', 'วิธีแก้ปัญหาให้ลูกค้า'],
    ['หาดใหญ่ฝนตกไหม', 'หาดใหญ่ฝนตกไหม'],
    ['ใครชนะ', 'ใครชนะ'],
    ['binary search tree complexity', 'binary search tree complexity'],
    ['15 นาที', '15 นาที'],
    ['google pixel 9 price', 'google pixel 9 price'],
  ])('leaves %s alone', (query, expected) => {
    expect(simplifyQuery(query)).toBe(expected);
  });

  it('falls back to the raw query when nothing but instructions is left', () => {
    expect(simplifyQuery('ช่วยค้นหาให้หน่อย')).toBe('ช่วยค้นหาให้หน่อย');
  });
});

describe('planQuery', () => {
  it.each([
    ['ราคาทองวันนี้', 'today', 'day', 'ราคาทอง'],
    ['ข่าวเศรษฐกิจสัปดาห์นี้', 'this-week', 'week', 'ข่าวเศรษฐกิจ'],
    ['โปรโมชันบัตรเครดิตเดือนนี้', 'this-month', 'month', 'โปรโมชันบัตรเครดิต'],
    ['วันหยุดราชการปีนี้', 'this-year', 'year', 'วันหยุดราชการ'],
    ['iPhone รุ่นล่าสุด', 'latest', 'year', 'iPhone รุ่น'],
    ['weather in Bangkok today', 'today', 'day', 'weather in Bangkok'],
    ['latest Node.js release', 'latest', 'year', 'Node.js release'],
  ])('%s → time intent %s, time range %s instead of words', (query, intent, range, simplified) => {
    const plan = planQuery(query, searxng);
    expect(plan.timeIntent).toBe(intent);
    expect(plan.simplified).toBe(simplified);
    expect(plan.variants.find((variant) => variant.kind === 'simplified')).toMatchObject({ query: simplified, timeRange: range });
    expect(plan.variants.find((variant) => variant.kind === 'raw')).toEqual({ kind: 'raw', query, thai: plan.thai });
  });

  it('sends one variant when the query is already plain', () => {
    const plan = planQuery('ประชากรประเทศไทย', searxng);
    expect(plan.variants).toEqual([{ kind: 'raw', query: 'ประชากรประเทศไทย', thai: true }]);
    expect(plan.timeIntent).toBeUndefined();
  });

  it('adds an English "what\'s new" variant restricted to docs.python.org with site: for SearXNG/Brave', () => {
    const plan = planQuery('Python 3.13 มีอะไรใหม่', searxng);
    expect(plan.featureQuestion).toBe(true);
    expect(plan.variants).toContainEqual({ kind: 'feature', query: "Python 3.13 what's new site:docs.python.org", thai: false });
    expect(plan.variants.length).toBeLessThanOrEqual(3);
  });

  it('uses include_domains instead of site: for Tavily', () => {
    const plan = planQuery('Python 3.13 มีฟีเจอร์ใหม่อะไรบ้าง', tavily);
    expect(plan.variants).toContainEqual({ kind: 'feature', query: "Python 3.13 what's new", thai: false, includeDomains: ['docs.python.org'] });
    expect(plan.variants.some((variant) => variant.query.includes('site:'))).toBe(false);
  });

  it('adds "what\'s new" without a site for products it has no docs host for, or without a version', () => {
    expect(planQuery('iOS 18 มีอะไรใหม่', searxng).variants).toContainEqual({ kind: 'feature', query: "iOS 18 what's new", thai: false });
    expect(planQuery("what's new in python", searxng).variants.find((variant) => variant.kind === 'feature')?.query).toBe("python what's new");
  });

  it('adds no feature variant to other questions', () => {
    expect(planQuery('Python 3.13 ดาวน์โหลด', searxng).variants.some((variant) => variant.kind === 'feature')).toBe(false);
  });

  it('marks Thai queries for the provider language hint and English ones not', () => {
    expect(planQuery('ราคาทอง', searxng).thai).toBe(true);
    expect(planQuery('gold price', searxng).thai).toBe(false);
  });
});

describe('analyzeIntent', () => {
  it.each([
    ['ราคาทองคำวันนี้', { years: [2026], wantsPrice: true, wantsDeadline: false, wantsLatest: true }],
    ['ยื่นภาษีปี 2568 หมดเขตวันไหน', { years: [2025], wantsPrice: false, wantsDeadline: true, wantsLatest: false }],
    ['iPhone 16 price in Thailand', { years: [], wantsPrice: true, wantsDeadline: false, wantsLatest: false }],
    ['deadline for the 2025 tax return', { years: [2025], wantsPrice: false, wantsDeadline: true, wantsLatest: false }],
    ['วันหยุดปีนี้', { years: [2026], wantsPrice: false, wantsDeadline: false, wantsLatest: false }],
    // A forecast or the weather is what a "today" question about them wants.
    ['พยากรณ์อากาศวันนี้', { years: [2026], wantsPrice: false, wantsDeadline: false, wantsLatest: false }],
    ['gold price forecast today', { years: [2026], wantsPrice: true, wantsDeadline: false, wantsLatest: false }],
    ['อายุเท่าไร', { years: [], wantsPrice: false, wantsDeadline: false, wantsLatest: false }],
  ])('%s → %j', (query, expected) => {
    expect(analyzeIntent(planQuery(query, searxng), 2026)).toMatchObject(expected);
  });
});
