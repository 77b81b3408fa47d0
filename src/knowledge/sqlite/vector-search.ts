import type { Database, Statement } from 'better-sqlite3';
import { z } from 'zod';
import { nearestChunks, vectorMatrix, type VectorMatch, type VectorMatrix } from '../ranking/vector-ranking.js';

// One knowledge base's chunk vectors, kept in memory per KB after first use and ranked by ranking/vector-ranking.ts.

const vectorRow = z.object({ id: z.number(), embedding: z.instanceof(Buffer) });

export type { VectorMatch };

export class VectorSearch {
  private readonly load: Statement;
  private readonly cache = new Map<string, VectorMatrix>();

  constructor(database: Database) {
    this.load = database.prepare('SELECT id, embedding FROM chunks WHERE knowledge_base_id = ? AND embedding IS NOT NULL ORDER BY id');
  }

  invalidate(knowledgeBaseId: string): void {
    this.cache.delete(knowledgeBaseId);
  }

  private matrix(knowledgeBaseId: string, dimensions: number): VectorMatrix {
    const cached = this.cache.get(knowledgeBaseId);
    if (cached && cached.dimensions === dimensions) return cached;
    const matrix = vectorMatrix(
      this.load.all(knowledgeBaseId).map((row) => vectorRow.parse(row)),
      dimensions,
    );
    this.cache.set(knowledgeBaseId, matrix);
    return matrix;
  }

  search(knowledgeBaseId: string, query: Float32Array, limit: number): VectorMatch[] {
    return nearestChunks(this.matrix(knowledgeBaseId, query.length), query, limit);
  }
}
