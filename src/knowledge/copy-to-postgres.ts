import { existsSync } from 'node:fs';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { z } from 'zod';
import { connectionProblem } from './postgres/connection-problem.js';
import { vectorLiteral } from './postgres/document-queries.js';
import { inTransaction } from './postgres/knowledge-base-queries.js';
import { hasVectorColumn, migrate } from './postgres/schema-migrations.js';
import { tokenize } from './ranking/tokenize.js';
import { vectorFromBytes } from './ranking/vector-ranking.js';
import { migrate as migrateSqlite } from './sqlite/schema.js';

// `npm run kb-to-postgres`: every knowledge base of DATA_DIR/knowledge.db into PostgreSQL, in one transaction — with
// document and chunk ids, pages, vectors, term counts and bindings as they are, so the PostgreSQL store ranks the
// copy the way the SQLite store ranked the original. The chunks' tokens are copied, not made again.

export interface CopyCounts {
  knowledgeBases: number;
  documents: number;
  chunks: number;
  vectors: number;
  bindings: number;
}

export type CopyResult =
  { ok: true; counts: CopyCounts } | { ok: false; reason: 'no-sqlite-file' } | { ok: false; reason: 'target-not-empty'; existing: string[] };

const chunkBatch = 1000;

const knowledgeBaseRow = z.object({
  id: z.string(),
  name: z.string(),
  name_key: z.string(),
  description: z.string(),
  space_key: z.string(),
  created_by: z.string(),
  created_at: z.number(),
});
const documentRow = z.object({
  id: z.number(),
  knowledge_base_id: z.string(),
  title: z.string(),
  source_name: z.string(),
  type: z.string(),
  bytes: z.number(),
  hash: z.string(),
  added_by: z.string(),
  added_at: z.number(),
});
const chunkRow = z.object({
  id: z.number(),
  document_id: z.number(),
  knowledge_base_id: z.string(),
  position: z.number(),
  page: z.number().nullable(),
  text: z.string(),
  tokens: z.string(),
  token_count: z.number(),
  embedding: z.instanceof(Buffer).nullable(),
});
const termRow = z.object({ knowledge_base_id: z.string(), term: z.string(), chunks: z.number() });
const bindingRow = z.object({ conversation_key: z.string(), knowledge_base_id: z.string(), bound_by: z.string(), bound_at: z.number() });
const existingRow = z.object({ name: z.string(), space_key: z.string() });

export async function copyKnowledgeToPostgres(options: { sqlitePath: string; databaseUrl: string; replace: boolean }): Promise<CopyResult> {
  if (!existsSync(options.sqlitePath)) return { ok: false, reason: 'no-sqlite-file' };
  const source = new BetterSqlite3(options.sqlitePath, { fileMustExist: true });
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 2 });
  pool.on('error', () => undefined); // a failure surfaces as the rejected query
  try {
    migrateSqlite(source); // an older knowledge.db gets chunks.page first, as the bot would at start
    await migrate(pool).catch((error: unknown) => {
      throw connectionProblem(options.databaseUrl, error);
    });
    const vectorColumn = await hasVectorColumn(pool);
    return await inTransaction(pool, async (client): Promise<CopyResult> => {
      const existing = (await client.query('SELECT name, space_key FROM knowledge_bases ORDER BY created_at, id FOR UPDATE')).rows.map((row) =>
        existingRow.parse(row),
      );
      if (existing.length > 0 && !options.replace) {
        return { ok: false, reason: 'target-not-empty', existing: existing.map((row) => `${row.name} (${row.space_key})`) };
      }
      await client.query('DELETE FROM knowledge_bases'); // documents, chunks, term counts and bindings go with them
      const counts: CopyCounts = { knowledgeBases: 0, documents: 0, chunks: 0, vectors: 0, bindings: 0 };
      for (const row of source.prepare('SELECT * FROM knowledge_bases ORDER BY created_at, id').all()) {
        const base = knowledgeBaseRow.parse(row);
        await client.query(
          `INSERT INTO knowledge_bases (id, name, name_key, description, space_key, created_by, created_at, content_version)
           VALUES ($1, $2, $3, $4, $5, $6, $7, 1)`,
          [base.id, base.name, base.name_key, base.description, base.space_key, base.created_by, new Date(base.created_at)],
        );
        counts.knowledgeBases += 1;
      }
      const titleTokens = new Map<number, string[]>();
      for (const row of source.prepare('SELECT * FROM documents ORDER BY id').all()) {
        const document = documentRow.parse(row);
        titleTokens.set(document.id, tokenize(document.title));
        await client.query(
          `INSERT INTO documents (id, knowledge_base_id, title, source_name, type, bytes, hash, added_by, added_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
          [
            document.id,
            document.knowledge_base_id,
            document.title,
            document.source_name,
            document.type,
            document.bytes,
            document.hash,
            document.added_by,
            new Date(document.added_at),
          ],
        );
        counts.documents += 1;
      }
      const chunks = source.prepare('SELECT id, document_id, knowledge_base_id, position, page, text, tokens, token_count, embedding FROM chunks ORDER BY id');
      let batch: z.infer<typeof chunkRow>[] = [];
      const flush = async (): Promise<void> => {
        if (batch.length === 0) return;
        const titles = batch.map((chunk) => titleTokens.get(chunk.document_id) ?? []);
        await client.query(
          `INSERT INTO chunks (id, document_id, knowledge_base_id, position, page, text, tokens, token_count, indexed_token_count, search_vector, embedding
             ${vectorColumn ? ', embedding_vector' : ''})
           SELECT u.id, u.document_id, u.knowledge_base_id, u.position, u.page, u.text, u.tokens, u.token_count, u.token_count + u.title_count,
             setweight(to_tsvector('simple', u.title), 'A') || to_tsvector('simple', u.tokens), u.embedding ${vectorColumn ? ', u.embedding_vector::vector' : ''}
           FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::int[], $5::int[], $6::text[], $7::text[], $8::int[], $9::text[], $10::int[], $11::bytea[], $12::text[])
             AS u(id, document_id, knowledge_base_id, position, page, text, tokens, token_count, title, title_count, embedding, embedding_vector)`,
          [
            batch.map((chunk) => chunk.id),
            batch.map((chunk) => chunk.document_id),
            batch.map((chunk) => chunk.knowledge_base_id),
            batch.map((chunk) => chunk.position),
            batch.map((chunk) => chunk.page),
            batch.map((chunk) => chunk.text),
            batch.map((chunk) => chunk.tokens),
            batch.map((chunk) => chunk.token_count),
            titles.map((tokens) => tokens.join(' ')),
            titles.map((tokens) => tokens.length),
            batch.map((chunk) => chunk.embedding),
            batch.map((chunk) => (vectorColumn && chunk.embedding ? vectorLiteral(vectorFromBytes(chunk.embedding)) : null)),
          ],
        );
        counts.chunks += batch.length;
        counts.vectors += batch.filter((chunk) => chunk.embedding !== null).length;
        batch = [];
      };
      for (const row of chunks.iterate()) {
        batch.push(chunkRow.parse(row));
        if (batch.length >= chunkBatch) await flush();
      }
      await flush();
      const terms = source
        .prepare('SELECT knowledge_base_id, term, chunks FROM term_stats')
        .all()
        .map((row) => termRow.parse(row));
      for (let start = 0; start < terms.length; start += 10_000) {
        const slice = terms.slice(start, start + 10_000);
        await client.query('INSERT INTO term_stats (knowledge_base_id, term, chunks) SELECT * FROM unnest($1::text[], $2::text[], $3::int[])', [
          slice.map((term) => term.knowledge_base_id),
          slice.map((term) => term.term),
          slice.map((term) => term.chunks),
        ]);
      }
      for (const row of source.prepare('SELECT conversation_key, knowledge_base_id, bound_by, bound_at FROM bindings ORDER BY bound_at, rowid').all()) {
        const binding = bindingRow.parse(row);
        await client.query('INSERT INTO bindings (conversation_key, knowledge_base_id, bound_by, bound_at) VALUES ($1, $2, $3, $4)', [
          binding.conversation_key,
          binding.knowledge_base_id,
          binding.bound_by,
          new Date(binding.bound_at),
        ]);
        counts.bindings += 1;
      }
      // Explicit ids were inserted: new rows continue after them.
      for (const table of ['documents', 'chunks']) {
        await client.query(`SELECT setval(pg_get_serial_sequence('${table}', 'id'), (SELECT coalesce(max(id), 0) + 1 FROM ${table}), false)`);
      }
      return { ok: true, counts };
    });
  } finally {
    source.close();
    await pool.end();
  }
}
