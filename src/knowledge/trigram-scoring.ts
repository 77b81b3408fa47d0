import { inverseDocumentFrequency, lengthNormalization, termSaturation, titleBoost } from './bm25-scoring.js';
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

export interface TrigramCandidate {
  text: string;
  /** The document title: a query trigram in it counts like a title match in bm25Score. */
  title: string;
}

interface TrigramProfile {
  length: number;
  /** Occurrences in the body of each query trigram present there. */
  frequencies: Map<string, number>;
  /** Query trigrams present in the title. */
  inTitle: Set<string>;
}

function profile(candidate: TrigramCandidate, wanted: ReadonlySet<string>): TrigramProfile {
  const trigrams = characterTrigrams(candidate.text);
  const frequencies = new Map<string, number>();
  for (const trigram of trigrams) {
    if (wanted.has(trigram)) frequencies.set(trigram, (frequencies.get(trigram) ?? 0) + 1);
  }
  const inTitle = new Set(characterTrigrams(candidate.title).filter((trigram) => wanted.has(trigram)));
  return { length: trigrams.length, frequencies, inTitle };
}

/** BM25 of each candidate over the query's character trigrams, statistics from the candidates; 0 = no match. */
export function trigramScores(query: string, candidates: readonly TrigramCandidate[]): number[] {
  const wanted = new Set(characterTrigrams(query));
  if (wanted.size === 0) return candidates.map(() => 0);
  const profiles = candidates.map((candidate) => profile(candidate, wanted));
  const documentFrequencies = new Map<string, number>();
  let totalLength = 0;
  for (const { length, frequencies, inTitle } of profiles) {
    totalLength += length;
    for (const trigram of new Set([...frequencies.keys(), ...inTitle])) documentFrequencies.set(trigram, (documentFrequencies.get(trigram) ?? 0) + 1);
  }
  const statistics = { chunks: profiles.length, averageTokens: totalLength / Math.max(profiles.length, 1) };
  const averageLength = statistics.averageTokens > 0 ? statistics.averageTokens : 1;
  const idf = (trigram: string): number => inverseDocumentFrequency(documentFrequencies.get(trigram) ?? 0, statistics);
  return profiles.map(({ length, frequencies, inTitle }) => {
    const lengthFactor = 1 - lengthNormalization + lengthNormalization * (length / averageLength);
    let score = 0;
    for (const [trigram, frequency] of frequencies) score += (idf(trigram) * frequency * (termSaturation + 1)) / (frequency + termSaturation * lengthFactor);
    for (const trigram of inTitle) score += idf(trigram) * titleBoost;
    return score;
  });
}
