import { inverseDocumentFrequency, lengthNormalization, termSaturation } from './bm25-scoring.js';
import { normalizeCharacters } from './normalize-text.js';

// A second opinion on the candidates that segmented BM25 found. ICU may cut the same Thai phrase differently in a
// question and in a passage (names, compounds, words missing from its dictionary); the words then differ, their
// character trigrams still match. Scored like BM25, with document frequencies and average length taken among the
// candidates themselves: no second index to write, store or migrate, and a fixed cost per query.

/** Text beyond this is not cut into trigrams (a chunk is ~1,200 characters, a query far shorter). */
export const maxTrigramCharacters = 4000;

const isBlank = (character: string): boolean => character.trim() === '';

/** Every window of three characters without whitespace, after the same normalization as the index, lower-cased. */
export function characterTrigrams(text: string): string[] {
  const characters = Array.from(normalizeCharacters(text.slice(0, maxTrigramCharacters)).toLowerCase());
  const trigrams: string[] = [];
  for (let index = 2; index < characters.length; index += 1) {
    const first = characters[index - 2] ?? ' ';
    const second = characters[index - 1] ?? ' ';
    const third = characters[index] ?? ' ';
    if (!isBlank(first) && !isBlank(second) && !isBlank(third)) trigrams.push(first + second + third);
  }
  return trigrams;
}

interface TrigramProfile {
  length: number;
  /** Occurrences of each query trigram present in the text. */
  frequencies: Map<string, number>;
}

function profile(text: string, wanted: ReadonlySet<string>): TrigramProfile {
  const trigrams = characterTrigrams(text);
  const frequencies = new Map<string, number>();
  for (const trigram of trigrams) {
    if (wanted.has(trigram)) frequencies.set(trigram, (frequencies.get(trigram) ?? 0) + 1);
  }
  return { length: trigrams.length, frequencies };
}

/** BM25 of each candidate text over the query's character trigrams, statistics from the candidates; 0 = no match. */
export function trigramScores(query: string, candidateTexts: readonly string[]): number[] {
  const wanted = new Set(characterTrigrams(query));
  if (wanted.size === 0) return candidateTexts.map(() => 0);
  const profiles = candidateTexts.map((text) => profile(text, wanted));
  const documentFrequencies = new Map<string, number>();
  let totalLength = 0;
  for (const { length, frequencies } of profiles) {
    totalLength += length;
    for (const trigram of frequencies.keys()) documentFrequencies.set(trigram, (documentFrequencies.get(trigram) ?? 0) + 1);
  }
  const statistics = { chunks: profiles.length, averageTokens: totalLength / Math.max(profiles.length, 1) };
  const averageLength = statistics.averageTokens > 0 ? statistics.averageTokens : 1;
  return profiles.map(({ length, frequencies }) => {
    const lengthFactor = 1 - lengthNormalization + lengthNormalization * (length / averageLength);
    let score = 0;
    for (const [trigram, frequency] of frequencies) {
      const idf = inverseDocumentFrequency(documentFrequencies.get(trigram) ?? 0, statistics);
      score += (idf * frequency * (termSaturation + 1)) / (frequency + termSaturation * lengthFactor);
    }
    return score;
  });
}
