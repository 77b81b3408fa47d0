import type { Database, Statement } from 'better-sqlite3';
import { z } from 'zod';
import { defaultPostingBudget, matchExpression, selectQueryTerms } from './query-terms.js';
import { indexTableName } from './schema.js';
import { tokenize } from './tokenize.js';

export interface RankedChunk {
  chunkId: number;
  /** Higher is better (negated FTS5 bm25). */
  score: number;
}

const termRow = z.object({ term: z.string(), chunks: z.number() });
const rankRow = z.object({ rowid: z.number(), rank: z.number() });

/** BM25 over one knowledge base's FTS5 table. */
export class FullTextSearch {
  private readonly frequencies: Statement;
  private readonly searches = new Map<string, Statement>();

  constructor(
    private readonly database: Database,
    private readonly postingBudget = defaultPostingBudget,
  ) {
    this.frequencies = database.prepare(
      'SELECT term, chunks FROM term_stats WHERE knowledge_base_id = ? AND term IN (SELECT value FROM json_each(?))',
    );
  }

  forget(knowledgeBaseId: string): void {
    this.searches.delete(knowledgeBaseId);
  }

  private statement(knowledgeBaseId: string): Statement {
    let statement = this.searches.get(knowledgeBaseId);
    if (!statement) {
      const table = indexTableName(knowledgeBaseId);
      statement = this.database.prepare(`SELECT rowid, rank FROM ${table} WHERE ${table} MATCH ? ORDER BY rank LIMIT ?`);
      this.searches.set(knowledgeBaseId, statement);
    }
    return statement;
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
    if (terms.length === 0) return [];
    return this.statement(knowledgeBaseId)
      .all(matchExpression(terms), limit)
      .map((row) => {
        const parsed = rankRow.parse(row);
        return { chunkId: parsed.rowid, score: -parsed.rank };
      });
  }
}
