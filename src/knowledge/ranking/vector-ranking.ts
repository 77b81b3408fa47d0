// Brute-force cosine similarity over one knowledge base's unit-length chunk vectors, held as one matrix (a few
// thousand chunks × a few hundred dimensions is a few MB and a millisecond or two per query). Backends without a
// vector index of their own (SQLite, PostgreSQL without pgvector) load their vectors into it.

export interface VectorMatrix {
  chunkIds: number[];
  dimensions: number;
  values: Float32Array;
}

export interface VectorMatch {
  chunkId: number;
  similarity: number;
}

/** Float32 bytes as stored (SQLite BLOB, PostgreSQL bytea); copied first, since they need not be 4-byte aligned. */
export function vectorFromBytes(bytes: Uint8Array): Float32Array {
  return new Float32Array(new Uint8Array(bytes).buffer);
}

export function vectorBytes(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}

/** Vectors of another length come from a different model: they cannot be compared and are left out. */
export function vectorMatrix(rows: readonly { id: number; embedding: Uint8Array }[], dimensions: number): VectorMatrix {
  const usable = rows.filter((row) => row.embedding.byteLength === dimensions * 4);
  const values = new Float32Array(usable.length * dimensions);
  usable.forEach((row, index) => values.set(vectorFromBytes(row.embedding), index * dimensions));
  return { chunkIds: usable.map((row) => row.id), dimensions, values };
}

export function nearestChunks(matrix: VectorMatrix, query: Float32Array, limit: number): VectorMatch[] {
  const matches: VectorMatch[] = [];
  for (let row = 0; row < matrix.chunkIds.length; row += 1) {
    let similarity = 0;
    const offset = row * matrix.dimensions;
    for (let column = 0; column < matrix.dimensions; column += 1) similarity += (query[column] ?? 0) * (matrix.values[offset + column] ?? 0);
    matches.push({ chunkId: matrix.chunkIds[row] ?? 0, similarity });
  }
  return matches.sort((left, right) => right.similarity - left.similarity).slice(0, limit);
}
