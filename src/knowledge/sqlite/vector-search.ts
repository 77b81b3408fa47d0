import type { Database, Statement } from 'better-sqlite3';
import { z } from 'zod';

// Brute-force cosine similarity over one knowledge base's chunk vectors, kept in memory per KB after first use
// (a few thousand chunks × a few hundred dimensions is a few MB and a millisecond or two per query).

interface Matrix {
  chunkIds: number[];
  dimensions: number;
  values: Float32Array;
}

const vectorRow = z.object({ id: z.number(), embedding: z.instanceof(Buffer) });

export interface VectorMatch {
  chunkId: number;
  similarity: number;
}

export class VectorSearch {
  private readonly load: Statement;
  private readonly cache = new Map<string, Matrix>();

  constructor(database: Database) {
    this.load = database.prepare('SELECT id, embedding FROM chunks WHERE knowledge_base_id = ? AND embedding IS NOT NULL ORDER BY id');
  }

  invalidate(knowledgeBaseId: string): void {
    this.cache.delete(knowledgeBaseId);
  }

  private matrix(knowledgeBaseId: string, dimensions: number): Matrix {
    const cached = this.cache.get(knowledgeBaseId);
    if (cached && cached.dimensions === dimensions) return cached;
    const rows = this.load.all(knowledgeBaseId).map((row) => vectorRow.parse(row));
    // Vectors of another length come from a different model: they cannot be compared and are skipped.
    const usable = rows.filter((row) => row.embedding.byteLength === dimensions * 4);
    const values = new Float32Array(usable.length * dimensions);
    usable.forEach((row, index) => {
      // Copied first: a BLOB's bytes need not be 4-byte aligned inside Node's buffer pool.
      values.set(new Float32Array(new Uint8Array(row.embedding).buffer, 0, dimensions), index * dimensions);
    });
    const matrix = { chunkIds: usable.map((row) => row.id), dimensions, values };
    this.cache.set(knowledgeBaseId, matrix);
    return matrix;
  }

  search(knowledgeBaseId: string, query: Float32Array, limit: number): VectorMatch[] {
    const matrix = this.matrix(knowledgeBaseId, query.length);
    const matches: VectorMatch[] = [];
    for (let row = 0; row < matrix.chunkIds.length; row += 1) {
      let similarity = 0;
      const offset = row * matrix.dimensions;
      for (let column = 0; column < matrix.dimensions; column += 1) similarity += (query[column] ?? 0) * (matrix.values[offset + column] ?? 0);
      matches.push({ chunkId: matrix.chunkIds[row] ?? 0, similarity });
    }
    return matches.sort((left, right) => right.similarity - left.similarity).slice(0, limit);
  }
}
