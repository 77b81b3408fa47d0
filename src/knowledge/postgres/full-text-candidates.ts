import type pg from 'pg';
import { z } from 'zod';
import { lengthNormalization, termSaturation, type CollectionStatistics } from '../ranking/bm25-scoring.js';
import { candidateDepth, rescoreCandidates, TitleTokens, type RankedChunk } from '../ranking/candidate-rescoring.js';
import { selectQueryTerms } from '../ranking/query-terms.js';
import { tokenize } from '../ranking/tokenize.js';

// Full-text retrieval in one knowledge base. chunk_terms (chunk-terms-migration.ts) holds a row per term and chunk;
// the selected query terms' rows (the posting budget bounds how many) are summed per chunk into the score FTS5's
// bm25() gives (its IDF, title matches weighted 2, row length = title + body tokens), all from the B-tree, so the
// candidates are those the SQLite backend takes; only the top ones' text is read, then rescoreCandidates ranks them
// exactly as SQLite does.

interface Statistics extends CollectionStatistics {
  version: string;
  /** Average title + body tokens per chunk: FTS5's avgdl. */
  averageIndexedTokens: number;
}

const termRow = z.object({ version: z.string(), term: z.string().nullable(), chunks: z.number().nullable() });
const statisticsRow = z.object({ chunks: z.coerce.number(), average_tokens: z.coerce.number().nullable(), average_indexed: z.coerce.number().nullable() });
const candidateRow = z.object({ id: z.coerce.number(), text: z.string(), tokens: z.string(), token_count: z.number(), title: z.string() });

/** FTS5's IDF: terms in over half the chunks get ~0 (only the candidate order uses it; the final scores do not). */
function fts5InverseDocumentFrequency(chunksWithTerm: number, chunks: number): number {
  return Math.max(1e-6, Math.log((chunks - chunksWithTerm + 0.5) / (chunksWithTerm + 0.5)));
}

/** A float8 literal: a bare 0.75 is numeric, and numeric arithmetic per posting row cost ~30% of the query (100k chunks). */
function float8(value: number): string {
  return `${value}::float8`;
}

const candidatesQuery = `
  WITH scored AS (
    SELECT p.chunk_id, sum(t.idf * p.frequency * ${float8(termSaturation + 1)}
      / (p.frequency + ${float8(termSaturation)} * (${float8(1 - lengthNormalization)} + ${float8(lengthNormalization)} * p.indexed_token_count / $4::float8))) AS score
    FROM unnest($2::text[], $3::float8[]) AS t(term, idf)
    JOIN chunk_terms p ON p.knowledge_base_id = $1 AND p.term = t.term
    GROUP BY p.chunk_id
    ORDER BY score DESC, p.chunk_id
    LIMIT $5
  )
  SELECT c.id, c.text, c.tokens, c.token_count, d.title
  FROM scored s
  JOIN chunks c ON c.id = s.chunk_id
  JOIN documents d ON d.id = c.document_id
  ORDER BY s.score DESC, c.id`;

export class FullTextCandidates {
  private readonly statistics = new Map<string, Statistics>();
  private readonly titles = new TitleTokens();

  constructor(
    private readonly pool: pg.Pool,
    private readonly postingBudget: number,
    private readonly trigramWeight: number,
  ) {}

  forget(knowledgeBaseId: string): void {
    this.statistics.delete(knowledgeBaseId);
  }

  /** Cached per KB while its content_version stays (another process may have written since). */
  private async collectionStatistics(knowledgeBaseId: string, version: string): Promise<Statistics> {
    const cached = this.statistics.get(knowledgeBaseId);
    if (cached?.version === version) return cached;
    const result = await this.pool.query(
      'SELECT count(*) AS chunks, avg(token_count) AS average_tokens, avg(indexed_token_count) AS average_indexed FROM chunks WHERE knowledge_base_id = $1',
      [knowledgeBaseId],
    );
    const row = statisticsRow.parse(result.rows[0]);
    const statistics = { version, chunks: row.chunks, averageTokens: row.average_tokens ?? 0, averageIndexedTokens: row.average_indexed ?? 0 };
    this.statistics.set(knowledgeBaseId, statistics);
    return statistics;
  }

  async search(knowledgeBaseId: string, query: string, limit: number): Promise<RankedChunk[]> {
    const tokens = tokenize(query);
    if (tokens.length === 0) return [];
    // The KB's version and the query terms' chunk counts in one round trip.
    const termResult = await this.pool.query(
      `SELECT kb.content_version::text AS version, t.term, t.chunks FROM knowledge_bases kb
       LEFT JOIN term_stats t ON t.knowledge_base_id = kb.id AND t.term = ANY($2::text[]) WHERE kb.id = $1`,
      [knowledgeBaseId, [...new Set(tokens)]],
    );
    const rows = termResult.rows.map((row) => termRow.parse(row));
    const version = rows[0]?.version;
    if (version === undefined) return [];
    const frequencies = new Map<string, number>();
    for (const row of rows) if (row.term !== null && row.chunks !== null) frequencies.set(row.term, row.chunks);
    const terms = selectQueryTerms(tokens, frequencies, this.postingBudget);
    if (terms.match.length === 0) return [];
    const statistics = await this.collectionStatistics(knowledgeBaseId, version);
    const result = await this.pool.query(candidatesQuery, [
      knowledgeBaseId,
      terms.match.map(({ term }) => term),
      terms.match.map(({ chunks }) => fts5InverseDocumentFrequency(chunks, statistics.chunks)),
      statistics.averageIndexedTokens > 0 ? statistics.averageIndexedTokens : 1,
      Math.max(limit, candidateDepth),
    ]);
    const candidates = result.rows.map((row) => {
      const parsed = candidateRow.parse(row);
      return { id: parsed.id, text: parsed.text, tokens: parsed.tokens, tokenCount: parsed.token_count, title: parsed.title };
    });
    return rescoreCandidates(candidates, { query, terms: terms.scoring, statistics, trigramWeight: this.trigramWeight, titles: this.titles }, limit);
  }
}
