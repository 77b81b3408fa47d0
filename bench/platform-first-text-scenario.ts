import { readFileSync } from 'node:fs';
import type { FakeModelServer, ScriptStep } from '../test/fakes/model-server.js';
import { isRelevanceCheck } from './model-work-relevance.js';

// The turn the first-text run times: a Thai question whose turn makes one web_search call (the SearXNG fake answers
// with the Thai gold-price fixture, as test/e2e/web/web-search-answer.test.ts), the relevance check's YES/NO call,
// then an answer of about 250 Qwen3 tokens whose every figure is in the search result, so the guards keep it
// (the sources list is added by the app).

// 5 March 2026, 10:00 in Bangkok: the fixture's "today".
export const fixedNow = () => new Date('2026-03-05T03:00:00Z');

export const question = 'ราคาทองคำวันนี้เท่าไหร่ครับ';

export const searchResults = (
  JSON.parse(readFileSync(new URL('../test/fixtures/search/searxng-thai-gold.json', import.meta.url), 'utf8')) as { results: Record<string, unknown>[] }
).results;

export const answer = [
  'ราคาทองคำวันนี้ (5 มี.ค. 2569) ตามประกาศสมาคมค้าทองคำ ประกาศครั้งที่ 3 ของวัน มีดังนี้ครับ',
  '',
  '- ทองคำแท่ง รับซื้อ 47,050 บาท ขายออก 47,150 บาท',
  '- ทองรูปพรรณ ขายออก 47,650 บาท',
  '',
  'ราคาทองรูปพรรณสูงกว่าทองคำแท่งเพราะรวมค่ากำเหน็จ ถ้าจะซื้อเก็บไว้เพื่อออมหรือลงทุน ' +
    'ทองคำแท่งมักคุ้มกว่า เพราะส่วนต่างระหว่างราคารับซื้อกับราคาขายออกแคบกว่า ส่วนทองรูปพรรณเหมาะกับการสวมใส่',
  '',
  'ราคาทองในประเทศปรับได้หลายครั้งต่อวันตามราคาทองโลกและค่าเงินบาท ก่อนซื้อขายจริงควรเช็กราคาล่าสุดกับร้านทองอีกครั้งนะครับ',
].join('\n');

/** The first characters of the answer: a platform call whose text starts with them shows answer text, not a status. */
export const answerHead = Array.from(answer).slice(0, 2).join('');

/** Strips what a platform may put before the text (Markdown marks, a blockquote, spaces) before the comparison. */
export const showsAnswer = (text: string): boolean => text.replace(/^[\s*_>#~`|-]+/, '').startsWith(answerHead);

/** At most: the relevance check is left out when code decides every result. */
export const modelCallsPerTurn = 3;

/** The model's steps for one turn. */
export function scriptTurn(model: FakeModelServer): void {
  const steps: ScriptStep[] = [
    { toolCalls: [{ name: 'web_search', arguments: { query: 'ราคาทองคำวันนี้' } }] },
    // The relevance check is asked only about results code cannot keep by their words: dropped unused when not asked.
    { when: isRelevanceCheck, text: '1: YES\n2: YES\n3: NO' },
    { text: answer },
  ];
  model.script(...steps);
}
