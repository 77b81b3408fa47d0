import type pg from 'pg';
import { z } from 'zod';
import type { NewDocument, WrittenDocument } from '../knowledge-backend.js';
import { tokenize } from '../ranking/tokenize.js';
import { vectorBytes } from '../ranking/vector-ranking.js';
import type { KnowledgeDocument } from '../types.js';
import { inTransaction } from './knowledge-base-queries.js';

// Documents, their chunks (with the tsvector built from the app's tokens) and the per-KB term counts, always written
// together in one transaction that also bumps the KB's content_version. One INSERT … SELECT FROM unnest() per
// document writes all its chunks (a round trip per chunk made loading 100k chunks crawl).

const documentRow = z.object({
  id: z.coerce.number(),
  knowledge_base_id: z.string(),
  title: z.string(),
  source_name: z.string(),
  type: z.enum(['text', 'markdown', 'html', 'pdf', 'docx', 'csv', 'image']),
  bytes: z.coerce.number(),
  hash: z.string(),
  added_by: z.string(),
  added_at: z.date(),
  chunk_count: z.coerce.number(),
});

const documentColumns = `d.id, d.knowledge_base_id, d.title, d.source_name, d.type, d.bytes, d.hash, d.added_by, d.added_at,
  (SELECT count(*) FROM chunks c WHERE c.document_id = d.id) AS chunk_count`;

function toDocument(row: unknown): KnowledgeDocument {
  const parsed = documentRow.parse(row);
  return {
    id: parsed.id,
    knowledgeBaseId: parsed.knowledge_base_id,
    title: parsed.title,
    sourceName: parsed.source_name,
    type: parsed.type,
    bytes: parsed.bytes,
    hash: parsed.hash,
    addedBy: parsed.added_by,
    addedAt: parsed.added_at,
    chunkCount: parsed.chunk_count,
  };
}

/** pgvector's text form of a vector. */
export function vectorLiteral(vector: Float32Array): string {
  return `[${Array.from(vector).join(',')}]`;
}

type Queryable = pg.Pool | pg.PoolClient;

export class DocumentQueries {
  constructor(
    private readonly pool: pg.Pool,
    private readonly hasVectorColumn: () => boolean,
  ) {}

  async findByHash(knowledgeBaseId: string, hash: string, on: Queryable = this.pool): Promise<KnowledgeDocument | undefined> {
    const result = await on.query(`SELECT ${documentColumns} FROM documents d WHERE d.knowledge_base_id = $1 AND d.hash = $2`, [knowledgeBaseId, hash]);
    return result.rows[0] === undefined ? undefined : toDocument(result.rows[0]);
  }

  async documents(knowledgeBaseId: string): Promise<KnowledgeDocument[]> {
    const result = await this.pool.query(`SELECT ${documentColumns} FROM documents d WHERE d.knowledge_base_id = $1 ORDER BY d.id`, [knowledgeBaseId]);
    return result.rows.map(toDocument);
  }

  private async document(on: Queryable, knowledgeBaseId: string, documentId: number): Promise<KnowledgeDocument | undefined> {
    const result = await on.query(`SELECT ${documentColumns} FROM documents d WHERE d.knowledge_base_id = $1 AND d.id = $2`, [knowledgeBaseId, documentId]);
    return result.rows[0] === undefined ? undefined : toDocument(result.rows[0]);
  }

  /** The KB row is locked first: a concurrent delete of the KB or write of the same text waits, then is seen. */
  async write(document: NewDocument): Promise<WrittenDocument> {
    return inTransaction(this.pool, async (client) => {
      const knowledgeBase = await client.query('SELECT 1 FROM knowledge_bases WHERE id = $1 FOR UPDATE', [document.knowledgeBaseId]);
      if ((knowledgeBase.rowCount ?? 0) === 0) return { ok: false, failure: { code: 'unknown-knowledge-base' } };
      const duplicate = await this.findByHash(document.knowledgeBaseId, document.hash, client);
      if (duplicate) return { ok: false, failure: { code: 'duplicate', existingTitle: duplicate.title } };
      const inserted = await client.query(
        `INSERT INTO documents (knowledge_base_id, title, source_name, type, bytes, hash, added_by, added_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
        [document.knowledgeBaseId, document.title, document.sourceName, document.type, document.bytes, document.hash, document.addedBy, document.addedAt],
      );
      const documentId = z.coerce.number().parse(inserted.rows[0]?.id);
      await this.insertChunks(client, documentId, document);
      await client.query('UPDATE knowledge_bases SET content_version = content_version + 1 WHERE id = $1', [document.knowledgeBaseId]);
      const stored = await this.document(client, document.knowledgeBaseId, documentId);
      if (!stored) throw new Error('document vanished inside its own transaction');
      return { ok: true, document: stored };
    });
  }

  private async insertChunks(client: pg.PoolClient, documentId: number, document: NewDocument): Promise<void> {
    const titleTokens = tokenize(document.title);
    const termCounts = new Map<string, number>();
    const bodies = document.chunks.map((chunk) => {
      const tokens = tokenize(chunk.text);
      for (const term of new Set([...titleTokens, ...tokens])) termCounts.set(term, (termCounts.get(term) ?? 0) + 1);
      return tokens;
    });
    const vectors = document.embeddings;
    const withVectorColumn = this.hasVectorColumn() && vectors !== undefined;
    await client.query(
      `INSERT INTO chunks (document_id, knowledge_base_id, position, page, text, tokens, token_count, indexed_token_count, search_vector, embedding
         ${withVectorColumn ? ', embedding_vector' : ''})
       SELECT $1, $2, u.position, u.page, u.text, u.tokens, u.token_count, u.token_count + $4,
         setweight(to_tsvector('simple', $3), 'A') || to_tsvector('simple', u.tokens), u.embedding
         ${withVectorColumn ? ', u.embedding_vector::vector' : ''}
       FROM unnest($5::int[], $6::int[], $7::text[], $8::text[], $9::int[], $10::bytea[]${withVectorColumn ? ', $11::text[]' : ''})
         AS u(position, page, text, tokens, token_count, embedding${withVectorColumn ? ', embedding_vector' : ''})`,
      [
        documentId,
        document.knowledgeBaseId,
        titleTokens.join(' '),
        titleTokens.length,
        document.chunks.map((chunk) => chunk.position),
        document.chunks.map((chunk) => chunk.page ?? null),
        document.chunks.map((chunk) => chunk.text),
        bodies.map((tokens) => tokens.join(' ')),
        bodies.map((tokens) => tokens.length),
        document.chunks.map((_, index) => {
          const vector = vectors?.[index];
          return vector ? vectorBytes(vector) : null;
        }),
        ...(withVectorColumn ? [document.chunks.map((_, index) => (vectors[index] ? vectorLiteral(vectors[index]) : null))] : []),
      ],
    );
    await this.addTerms(client, document.knowledgeBaseId, termCounts, 1);
  }

  /** Sorted by term: concurrent writers to one KB lock the rows in the same order. */
  private async addTerms(client: pg.PoolClient, knowledgeBaseId: string, counts: ReadonlyMap<string, number>, sign: 1 | -1): Promise<void> {
    if (counts.size === 0) return;
    const terms = [...counts.keys()].sort();
    await client.query(
      `INSERT INTO term_stats (knowledge_base_id, term, chunks)
       SELECT $1, u.term, u.chunks FROM unnest($2::text[], $3::int[]) AS u(term, chunks) ORDER BY u.term
       ON CONFLICT (knowledge_base_id, term) DO UPDATE SET chunks = term_stats.chunks + excluded.chunks`,
      [knowledgeBaseId, terms, terms.map((term) => sign * (counts.get(term) ?? 0))],
    );
    if (sign < 0) await client.query('DELETE FROM term_stats WHERE knowledge_base_id = $1 AND chunks <= 0', [knowledgeBaseId]);
  }

  async remove(knowledgeBaseId: string, documentId: number): Promise<boolean> {
    return inTransaction(this.pool, async (client) => {
      await client.query('SELECT 1 FROM knowledge_bases WHERE id = $1 FOR UPDATE', [knowledgeBaseId]);
      const document = await this.document(client, knowledgeBaseId, documentId);
      if (!document) return false;
      const titleTokens = tokenize(document.title);
      const termCounts = new Map<string, number>();
      const chunks = await client.query('SELECT tokens FROM chunks WHERE document_id = $1', [documentId]);
      for (const row of chunks.rows) {
        const tokens = z.object({ tokens: z.string() }).parse(row).tokens;
        for (const term of new Set([...titleTokens, ...(tokens ? tokens.split(' ') : [])])) termCounts.set(term, (termCounts.get(term) ?? 0) + 1);
      }
      await this.addTerms(client, knowledgeBaseId, termCounts, -1);
      await client.query('DELETE FROM documents WHERE id = $1', [documentId]);
      await client.query('UPDATE knowledge_bases SET content_version = content_version + 1 WHERE id = $1', [knowledgeBaseId]);
      return true;
    });
  }
}
