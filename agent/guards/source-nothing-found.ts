import { maxReadCharacters } from './source-words.js';

// An answer that says the passages held nothing on the question ("ไม่พบข้อมูล…", "I couldn't find…") used none
// of them. The prompts ask the model to say so plainly (prompt.ts: "ถ้าไม่ทราบให้บอกตรง ๆ" / "say so when you do
// not know"; the knowledge policy: "ไม่พบข้อมูลที่เกี่ยวข้อง ให้บอกตรง ๆ" / "nothing relevant, say so"): these are
// the ways small models put it. Plain substring search over a bounded prefix: linear, no regex.

/** Only the opening of the answer is read: where a model says it found nothing. */
const readCharacters = 4000;

const thaiPhrases = [
  'ไม่พบข้อมูล',
  'ไม่มีข้อมูล',
  'ไม่พบข้อความ',
  'ไม่มีข้อความ',
  'ไม่พบรายละเอียด',
  'ไม่มีรายละเอียด',
  'ไม่พบเนื้อหา',
  'ไม่พบคำตอบ',
  'ไม่ได้ระบุ',
  'ไม่ได้กล่าวถึง',
  'ไม่ได้พูดถึง',
  'ไม่ทราบ',
  'หาไม่พบ',
  'ค้นไม่พบ',
  'ไม่เจอข้อมูล',
];

const englishPhrases = [
  "couldn't find",
  'could not find',
  "can't find",
  'cannot find',
  "didn't find",
  'did not find',
  'unable to find',
  'no information',
  'no relevant',
  'nothing about',
  'nothing relevant',
  'nothing on this',
  'not mentioned',
  "doesn't mention",
  'does not mention',
  "don't mention",
  'do not mention',
  "don't know",
  'do not know',
  "don't have any information",
  'do not have any information',
  "doesn't contain",
  'does not contain',
  "don't contain",
  'do not contain',
  'no mention of',
];

const phrases = [...thaiPhrases, ...englishPhrases];

function prepared(text: string, limit: number): string {
  return text
    .slice(0, limit)
    .toLowerCase()
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .replace(/[\u200b-\u200d\ufeff]/g, '');
}

/**
 * Whether the answer says it found nothing. A phrase the passages themselves contain does not count: the answer
 * may be quoting them ("ถ้าไม่ทราบรหัส ให้ติดต่อฝ่ายไอที").
 */
export function saysNothingFound(answer: string, passages: readonly string[]): boolean {
  const text = prepared(answer, readCharacters);
  const passageText = passages.map((passage) => prepared(passage, maxReadCharacters));
  return phrases.some((phrase) => text.includes(phrase) && !passageText.some((passage) => passage.includes(phrase)));
}
