// Final BM25 scores of the candidates FTS5 found. FTS5's own bm25() clamps the IDF of any term found in more
// than half of the chunks to ~0, so a knowledge base of one or two documents scores every passage ~0 and
// loses every merge against a larger one. The Lucene IDF, ln(1 + (N − n + 0.5) / (n + 0.5)), stays positive.

export const termSaturation = 1.2; // k1
export const lengthNormalization = 0.75; // b
/** A query term in the document title counts this many times a body match of the same term at average length. */
export const titleBoost = 2;

export interface CollectionStatistics {
  chunks: number;
  averageTokens: number;
}

export interface ScoredTerm {
  term: string;
  /** Chunks of the knowledge base containing the term (body or title). */
  chunks: number;
}

export function inverseDocumentFrequency(chunksWithTerm: number, statistics: CollectionStatistics): number {
  return Math.log(1 + (statistics.chunks - chunksWithTerm + 0.5) / (chunksWithTerm + 0.5));
}

/** Occurrences of a token in space-joined tokens, without splitting them (this runs for every candidate). */
export function occurrences(joinedTokens: string, token: string): number {
  const padded = ` ${token} `;
  const haystack = ` ${joinedTokens} `;
  let count = 0;
  for (let index = haystack.indexOf(padded); index >= 0; index = haystack.indexOf(padded, index + padded.length - 1)) count += 1;
  return count;
}

export interface Candidate {
  /** Space-joined body tokens. */
  tokens: string;
  tokenCount: number;
  titleTokens: ReadonlySet<string>;
}

/** BM25 of one chunk (body tokens with length normalization) plus a saturated title match per term. */
export function bm25Score(terms: readonly ScoredTerm[], candidate: Candidate, statistics: CollectionStatistics): number {
  const averageTokens = statistics.averageTokens > 0 ? statistics.averageTokens : 1;
  const lengthFactor = 1 - lengthNormalization + lengthNormalization * (candidate.tokenCount / averageTokens);
  let score = 0;
  for (const { term, chunks } of terms) {
    const idf = inverseDocumentFrequency(chunks, statistics);
    const frequency = occurrences(candidate.tokens, term);
    if (frequency > 0) score += (idf * frequency * (termSaturation + 1)) / (frequency + termSaturation * lengthFactor);
    if (candidate.titleTokens.has(term)) score += idf * titleBoost;
  }
  return score;
}
