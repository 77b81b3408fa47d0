import type pg from 'pg';
import { z } from 'zod';
import { nearestChunks, vectorMatrix, type VectorMatrix } from '../ranking/vector-ranking.js';
import { vectorLiteral } from './document-queries.js';

// Nearest chunks by cosine similarity. With pgvector (chunks.embedding_vector) PostgreSQL orders by `<=>` (cosine
// distance) over the vectors of the query's length; without it, the KB's Float32 vectors are loaded once per
// content_version and ranked in the app like the SQLite backend (ranking/vector-ranking.ts).

const vectorRow = z.object({ id: z.coerce.number(), embedding: z.instanceof(Buffer) });
const versionRow = z.object({ version: z.string() });

export class VectorQueries {
  private readonly cache = new Map<string, { version: string; matrix: VectorMatrix }>();

  constructor(
    private readonly pool: pg.Pool,
    private readonly hasVectorColumn: () => boolean,
  ) {}

  forget(knowledgeBaseId: string): void {
    this.cache.delete(knowledgeBaseId);
  }

  async hasVectors(knowledgeBaseIds: readonly string[]): Promise<boolean> {
    const result = await this.pool.query('SELECT 1 FROM chunks WHERE knowledge_base_id = ANY($1::text[]) AND embedding IS NOT NULL LIMIT 1', [
      knowledgeBaseIds,
    ]);
    return (result.rowCount ?? 0) > 0;
  }

  async nearest(knowledgeBaseId: string, vector: Float32Array, limit: number): Promise<number[]> {
    if (this.hasVectorColumn()) {
      const result = await this.pool.query(
        `SELECT id FROM chunks WHERE knowledge_base_id = $1 AND embedding_vector IS NOT NULL AND vector_dims(embedding_vector) = $3
         ORDER BY embedding_vector <=> $2::vector, id LIMIT $4`,
        [knowledgeBaseId, vectorLiteral(vector), vector.length, limit],
      );
      return result.rows.map((row) => z.object({ id: z.coerce.number() }).parse(row).id);
    }
    return nearestChunks(await this.matrix(knowledgeBaseId, vector.length), vector, limit).map((match) => match.chunkId);
  }

  private async matrix(knowledgeBaseId: string, dimensions: number): Promise<VectorMatrix> {
    const versions = await this.pool.query('SELECT content_version::text AS version FROM knowledge_bases WHERE id = $1', [knowledgeBaseId]);
    const version = versions.rows[0] === undefined ? '' : versionRow.parse(versions.rows[0]).version;
    const cached = this.cache.get(knowledgeBaseId);
    if (cached && cached.version === version && cached.matrix.dimensions === dimensions) return cached.matrix;
    const rows = await this.pool.query('SELECT id, embedding FROM chunks WHERE knowledge_base_id = $1 AND embedding IS NOT NULL ORDER BY id', [
      knowledgeBaseId,
    ]);
    const matrix = vectorMatrix(
      rows.rows.map((row) => vectorRow.parse(row)),
      dimensions,
    );
    this.cache.set(knowledgeBaseId, { version, matrix });
    return matrix;
  }
}
