import { bm25Score, type CollectionStatistics, type ScoredTerm } from './bm25-scoring.js';
import { normalizedScoreFusion } from './rank-fusion.js';
import { tokenize } from './tokenize.js';
import { trigramScores } from './trigram-scoring.js';

// The final full-text order of the candidates a backend's index found (FTS5, PostgreSQL's tsvector): segmented BM25
// blended with character-trigram BM25. Every backend calls this, so they rank the same candidates the same way.

export interface RankedChunk {
  chunkId: number;
  /** BM25 (Lucene IDF) blended with trigram BM25, on the BM25 scale; higher is better, comparable between KBs. */
  score: number;
}

/** Candidates rescored per query. The index's ranking differs from ours only for terms in over half the chunks
 * (small KBs, whose matches all fit in this depth, or very common terms, mostly left out by the posting budget). */
export const candidateDepth = 20;

/** Share of the final order that comes from character trigrams (trigram-scoring.ts). On XQuAD-th 0.5–0.7 measured
 * the same (r@1 0.939 → 0.955, MRR 0.961 → 0.972); 0 ranks by segmented BM25 alone. */
export const defaultTrigramWeight = 0.6;

export interface RescoringCandidate {
  id: number;
  text: string;
  /** Space-joined body tokens. */
  tokens: string;
  tokenCount: number;
  title: string;
}

/** Tokenized titles kept between queries (titles repeat across chunks and queries); bounded. */
const maxCachedTitles = 10_000;

export class TitleTokens {
  private readonly cache = new Map<string, ReadonlySet<string>>();

  of(title: string): ReadonlySet<string> {
    let tokens = this.cache.get(title);
    if (!tokens) {
      if (this.cache.size >= maxCachedTitles) this.cache.clear();
      tokens = new Set(tokenize(title));
      this.cache.set(title, tokens);
    }
    return tokens;
  }
}

export interface Rescoring {
  query: string;
  /** Every content term of the query present in the knowledge base (selectQueryTerms().scoring). */
  terms: readonly ScoredTerm[];
  statistics: CollectionStatistics;
  trigramWeight: number;
  titles: TitleTokens;
}

/** Best first, ties by chunk id; at most `limit`. */
export function rescoreCandidates(candidates: readonly RescoringCandidate[], rescoring: Rescoring, limit: number): RankedChunk[] {
  const bm25 = candidates.map((candidate) =>
    bm25Score(
      rescoring.terms,
      { tokens: candidate.tokens, tokenCount: candidate.tokenCount, titleTokens: rescoring.titles.of(candidate.title) },
      rescoring.statistics,
    ),
  );
  const scores = rescoring.trigramWeight > 0 ? normalizedScoreFusion(bm25, trigramScores(rescoring.query, candidates), rescoring.trigramWeight) : bm25;
  return candidates
    .map((candidate, index) => ({ chunkId: candidate.id, score: scores[index] ?? 0 }))
    .sort((left, right) => right.score - left.score || left.chunkId - right.chunkId)
    .slice(0, limit);
}
