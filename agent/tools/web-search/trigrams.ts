import { words } from './phrase-match.js';
import { normalizeForMatch } from './thai-text.js';

// Character trigrams: language-neutral lexical overlap that works for Thai (no spaces), English,
// numbers and mixed text.

export const stopWords: ReadonlySet<string> = new Set([
  'อะไร',
  'คือ',
  'ไหม',
  'มั้ย',
  'หรือไม่',
  'เท่าไร',
  'เท่าไหร่',
  'ยังไง',
  'อย่างไร',
  'บ้าง',
  'ที่',
  'ของ',
  'และ',
  'กับ',
  'ใน',
  'ได้',
  'จะ',
  'มี',
  'เป็น',
  'ไหน',
  'เมื่อไร',
  'เมื่อไหร่',
  'ทำไม',
  'ใคร',
  'ให้',
  'แล้ว',
  'หรือ',
  'นี้',
  'what',
  'is',
  'are',
  'was',
  'were',
  'the',
  'a',
  'an',
  'of',
  'for',
  'in',
  'on',
  'to',
  'how',
  'does',
  'do',
  'did',
  'which',
  'when',
  'where',
  'who',
  'why',
  'and',
  'or',
  'me',
  'my',
  'i',
  'about',
  'much',
  'many',
  'it',
  'its',
  'with',
  'from',
  'by',
  'at',
  'be',
  'can',
  's',
]);

/** Trigrams of a whole text (spaces included), for titles and snippets. */
export function textTrigrams(text: string): Set<string> {
  const normalized = ` ${normalizeForMatch(text)} `;
  const grams = new Set<string>();
  for (let index = 0; index + 3 <= normalized.length; index += 1) grams.add(normalized.slice(index, index + 3));
  return grams;
}

/**
 * Trigrams of the query's content words (stop words dropped). Words are segmented (Thai too) and
 * trigrams stay inside a word, so "ราคา ทองคำ" matches the unspaced "ราคาทองคำวันนี้"; words shorter
 * than three characters are padded with spaces so "go" only matches the word "go".
 */
export function queryTrigrams(query: string): Set<string> {
  const grams = new Set<string>();
  for (const word of words(normalizeForMatch(query))) {
    if (stopWords.has(word)) continue;
    if (word.length < 3) {
      const padded = ` ${word} `;
      for (let index = 0; index + 3 <= padded.length; index += 1) grams.add(padded.slice(index, index + 3));
      continue;
    }
    for (let index = 0; index + 3 <= word.length; index += 1) grams.add(word.slice(index, index + 3));
  }
  return grams;
}

/** Share of the query's trigrams found in the text (1 when the query has none). */
export function containment(query: ReadonlySet<string>, text: ReadonlySet<string>): number {
  if (query.size === 0) return 1;
  let shared = 0;
  for (const gram of query) if (text.has(gram)) shared += 1;
  return shared / query.size;
}

/** Symmetric overlap, for comparing two queries or two facts. */
export function jaccard(left: ReadonlySet<string>, right: ReadonlySet<string>): number {
  if (left.size === 0 && right.size === 0) return 1;
  let shared = 0;
  for (const gram of left) if (right.has(gram)) shared += 1;
  return shared / (left.size + right.size - shared);
}
