import pg from 'pg';

// After a bulk load (kb-to-postgres, the bench) the new chunk_terms pages are not yet all-visible, so the full-text
// candidate query's index-only scan visits the heap for every posting row: at 100k chunks p95 went from ~28 ms to
// ~110–145 ms with the visibility map cleared. Autovacuum sets it only after ~20% growth of the table (its insert
// threshold) and a naptime, so an operator runs VACUUM right after a load; ~4 s at 100k chunks. ANALYZE comes along
// so the planner sees the loaded sizes. VACUUM cannot run inside a transaction: a plain client, one statement.

export const bulkLoadedTables = ['chunk_terms', 'chunks', 'term_stats', 'documents'] as const;

export async function vacuumAfterBulkLoad(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`VACUUM (ANALYZE) ${bulkLoadedTables.join(', ')}`);
  } finally {
    await client.end();
  }
}
