import { inverseDocumentFrequency, lengthNormalization, termSaturation, titleBoost } from './bm25-scoring.js';
import { normalizeCharacters } from './normalize-text.js';

// A second opinion on the candidates that segmented BM25 found. ICU may cut the same Thai phrase differently in a
// question and in a passage (names, compounds, words missing from its dictionary); the words then differ, their
// character trigrams still match. Scored like BM25, with document frequencies and average length taken among the
// candidates themselves: no second index to write, store or migrate, and a fixed cost per query.

/** Text beyond this is not cut into trigrams (a chunk is ~1,200 characters, a query far shorter). */
export const maxTrigramCharacters = 4000;

/** What JS `\s` matches, by UTF-16 code unit (this runs for every character of every candidate). */
function isWhitespace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

const codeUnits = 0x10000;

/**
 * Every window of three UTF-16 code units without whitespace, after the index's normalization, lower-cased, as one
 * exact number (< 2⁴⁸): numbers hash and compare faster than strings. Thai and Latin are one unit per character;
 * a character outside the BMP takes two, the same in query and passage.
 */
export function trigramKeys(text: string): number[] {
  const prepared = normalizeCharacters(text.slice(0, maxTrigramCharacters)).toLowerCase();
  const keys: number[] = [];
  for (let index = 2; index < prepared.length; index += 1) {
    const first = prepared.charCodeAt(index - 2);
    const second = prepared.charCodeAt(index - 1);
    const third = prepared.charCodeAt(index);
    if (!isWhitespace(first) && !isWhitespace(second) && !isWhitespace(third)) keys.push((first * codeUnits + second) * codeUnits + third);
  }
  return keys;
}

/** The trigrams of trigramKeys as text (for tests and logs). */
export function characterTrigrams(text: string): string[] {
  return trigramKeys(text).map((key) =>
    String.fromCharCode(Math.floor(key / (codeUnits * codeUnits)), Math.floor(key / codeUnits) % codeUnits, key % codeUnits),
  );
}

export interface TrigramCandidate {
  text: string;
  /** The document title: a query trigram in it counts like a title match in bm25Score. */
  title: string;
}

interface TrigramProfile {
  length: number;
  /** Occurrences in the body of each query trigram present there. */
  frequencies: Map<number, number>;
  /** Query trigrams present in the title. */
  inTitle: Set<number>;
}

function profile(candidate: TrigramCandidate, wanted: ReadonlySet<number>): TrigramProfile {
  const trigrams = trigramKeys(candidate.text);
  const frequencies = new Map<number, number>();
  for (const trigram of trigrams) {
    if (wanted.has(trigram)) frequencies.set(trigram, (frequencies.get(trigram) ?? 0) + 1);
  }
  const inTitle = new Set(trigramKeys(candidate.title).filter((trigram) => wanted.has(trigram)));
  return { length: trigrams.length, frequencies, inTitle };
}

/** BM25 of each candidate over the query's character trigrams, statistics from the candidates; 0 = no match. */
export function trigramScores(query: string, candidates: readonly TrigramCandidate[]): number[] {
  const wanted = new Set(trigramKeys(query));
  if (wanted.size === 0) return candidates.map(() => 0);
  const profiles = candidates.map((candidate) => profile(candidate, wanted));
  const documentFrequencies = new Map<number, number>();
  let totalLength = 0;
  for (const { length, frequencies, inTitle } of profiles) {
    totalLength += length;
    for (const trigram of new Set([...frequencies.keys(), ...inTitle])) documentFrequencies.set(trigram, (documentFrequencies.get(trigram) ?? 0) + 1);
  }
  const statistics = { chunks: profiles.length, averageTokens: totalLength / Math.max(profiles.length, 1) };
  const averageLength = statistics.averageTokens > 0 ? statistics.averageTokens : 1;
  const idf = (trigram: number): number => inverseDocumentFrequency(documentFrequencies.get(trigram) ?? 0, statistics);
  return profiles.map(({ length, frequencies, inTitle }) => {
    const lengthFactor = 1 - lengthNormalization + lengthNormalization * (length / averageLength);
    let score = 0;
    for (const [trigram, frequency] of frequencies) score += (idf(trigram) * frequency * (termSaturation + 1)) / (frequency + termSaturation * lengthFactor);
    for (const trigram of inTitle) score += idf(trigram) * titleBoost;
    return score;
  });
}
