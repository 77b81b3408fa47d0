import { words } from './phrase-match.js';
import { normalizeForMatch } from './thai-text.js';
import { stopWords } from './trigrams.js';

// Code's side of the relevance check: a result whose title and snippet carry every content word of the query (Thai
// segmented by Intl.Segmenter) is kept without asking the model; only the rest go to the model's YES/NO call.
// Measured on test/fixtures/search/relevance-labelled.json (npm run bench -- model-work, `relevanceCheck`): a result
// about another place, dish or product lacks one of the query's words, so it is never kept here.

// "How to" is asked, not looked for: a how-to page rarely says วิธี in its title and snippet.
const askingWords = new Set(['วิธี', 'ทำ', 'อย่าง', 'ไร', 'ไง']);

/** The query's content words: segmented, stop words and single characters dropped. */
export function queryWords(query: string): string[] {
  return [...new Set(words(normalizeForMatch(query)).filter((word) => word.length > 1 && !stopWords.has(word) && !askingWords.has(word)))];
}

/**
 * Every word found in title + snippet, as a substring (Thai words segment differently in other contexts:
 * "ราคาทองคำ" may be ราคา|ทองคำ or ราคา|ทอง|คำ). A query without content words covers nothing: the model decides.
 */
export function coversQuery(wanted: readonly string[], item: { title: string; snippet: string }): boolean {
  if (wanted.length === 0) return false;
  const text = normalizeForMatch(`${item.title} ${item.snippet}`);
  const squeezed = text.replaceAll(' ', '');
  return wanted.every((word) => text.includes(word) || squeezed.includes(word));
}
