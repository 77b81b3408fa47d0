import type { Database, Statement } from 'better-sqlite3';
import { z } from 'zod';
import type { CollectionStatistics } from '../ranking/bm25-scoring.js';
import { candidateDepth, defaultTrigramWeight, rescoreCandidates, TitleTokens, type RankedChunk } from '../ranking/candidate-rescoring.js';
import { defaultPostingBudget, matchExpression, selectQueryTerms } from '../ranking/query-terms.js';
import { indexTableName } from './schema.js';
import { tokenize } from '../ranking/tokenize.js';

export { candidateDepth, defaultTrigramWeight, type RankedChunk };

const termRow = z.object({ term: z.string(), chunks: z.number() });
const candidateRow = z.object({ id: z.number(), text: z.string(), tokens: z.string(), token_count: z.number(), title: z.string() });
const statisticsRow = z.object({ chunks: z.number(), average_tokens: z.number().nullable() });

/** Full-text retrieval in one knowledge base: FTS5 finds candidates, rescoreCandidates ranks them. */
export class FullTextSearch {
  private readonly frequencies: Statement;
  private readonly candidates: Statement;
  private readonly statisticsQuery: Statement;
  private readonly searches = new Map<string, Statement>();
  private readonly statistics = new Map<string, CollectionStatistics>();
  private readonly titles = new TitleTokens();
  constructor(
    private readonly database: Database,
    private readonly postingBudget = defaultPostingBudget,
    private readonly trigramWeight = defaultTrigramWeight,
  ) {
    this.frequencies = database.prepare('SELECT term, chunks FROM term_stats WHERE knowledge_base_id = ? AND term IN (SELECT value FROM json_each(?))');
    this.candidates = database.prepare(
      'SELECT c.id, c.text, c.tokens, c.token_count, d.title FROM chunks c JOIN documents d ON d.id = c.document_id WHERE c.id IN (SELECT value FROM json_each(?))',
    );
    this.statisticsQuery = database.prepare('SELECT count(*) AS chunks, avg(token_count) AS average_tokens FROM chunks WHERE knowledge_base_id = ?');
  }

  /** Call after any change to the KB's documents: its statistics are cached. */
  changed(knowledgeBaseId: string): void {
    this.statistics.delete(knowledgeBaseId);
  }

  /** Call when the KB is deleted. */
  forget(knowledgeBaseId: string): void {
    this.searches.delete(knowledgeBaseId);
    this.statistics.delete(knowledgeBaseId);
  }

  private statement(knowledgeBaseId: string): Statement {
    let statement = this.searches.get(knowledgeBaseId);
    if (!statement) {
      const table = indexTableName(knowledgeBaseId);
      statement = this.database.prepare(`SELECT rowid FROM ${table} WHERE ${table} MATCH ? ORDER BY rank LIMIT ?`);
      this.searches.set(knowledgeBaseId, statement);
    }
    return statement;
  }

  private collectionStatistics(knowledgeBaseId: string): CollectionStatistics {
    let statistics = this.statistics.get(knowledgeBaseId);
    if (!statistics) {
      const row = statisticsRow.parse(this.statisticsQuery.get(knowledgeBaseId));
      statistics = { chunks: row.chunks, averageTokens: row.average_tokens ?? 0 };
      this.statistics.set(knowledgeBaseId, statistics);
    }
    return statistics;
  }

  search(knowledgeBaseId: string, query: string, limit: number): RankedChunk[] {
    const tokens = tokenize(query);
    if (tokens.length === 0) return [];
    const frequencies = new Map<string, number>();
    for (const row of this.frequencies.all(knowledgeBaseId, JSON.stringify([...new Set(tokens)]))) {
      const parsed = termRow.parse(row);
      frequencies.set(parsed.term, parsed.chunks);
    }
    const terms = selectQueryTerms(tokens, frequencies, this.postingBudget);
    if (terms.match.length === 0) return [];
    const candidateIds = z.array(z.number()).parse(this.statement(knowledgeBaseId).pluck().all(matchExpression(terms.match), Math.max(limit, candidateDepth)));
    if (candidateIds.length === 0) return [];
    const statistics = this.collectionStatistics(knowledgeBaseId);
    const candidates = this.candidates.all(JSON.stringify(candidateIds)).map((row) => {
      const parsed = candidateRow.parse(row);
      return { id: parsed.id, text: parsed.text, tokens: parsed.tokens, tokenCount: parsed.token_count, title: parsed.title };
    });
    return rescoreCandidates(candidates, { query, terms: terms.scoring, statistics, trigramWeight: this.trigramWeight, titles: this.titles }, limit);
  }
}
