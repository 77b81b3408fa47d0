import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openKnowledgeStore, type KnowledgeStore } from '../../../../src/knowledge/index.js';
import { migrate, migrations } from '../../../../src/knowledge/postgres/schema-migrations.js';
import { tokenize } from '../../../../src/knowledge/ranking/tokenize.js';
import { silentLogger } from '../../../../src/shared/log.js';
import { utf8 } from '../../../support/knowledge/documents.js';
import { startPostgresServer, withPool, type PostgresServer } from '../../../support/postgres-server.js';
import { postgresProgram, systemProgramPresent } from '../../../support/system-programs.js';

const postgresInstalled = systemProgramPresent(postgresProgram);

// PostgreSQL only: chunk_terms (the postings the full-text score sums) always equals what the chunks hold — each
// term's 2 × title + body occurrences — after writes, removals and deletes of knowledge bases, and after the
// migration that fills it for chunks written before it existed.

let server: PostgresServer;
const now = new Date('2026-03-01T09:00:00Z');

beforeAll(async () => {
  server = await startPostgresServer();
});
afterAll(() => server.close());

const postingRow = z.object({
  knowledge_base_id: z.string(),
  term: z.string(),
  chunk_id: z.coerce.number(),
  frequency: z.number(),
  indexed_token_count: z.number(),
});
const chunkRow = z.object({ id: z.coerce.number(), knowledge_base_id: z.string(), tokens: z.string(), indexed_token_count: z.number(), title: z.string() });

function occurrences(tokens: readonly string[], term: string): number {
  return tokens.filter((token) => token === term).length;
}

/** The postings the chunks call for, worked out here from their tokens and titles; sorted rows as strings. */
async function expectedPostings(pool: pg.Pool): Promise<string[]> {
  const chunks = await pool.query(
    'SELECT c.id, c.knowledge_base_id, c.tokens, c.indexed_token_count, d.title FROM chunks c JOIN documents d ON d.id = c.document_id',
  );
  const rows: string[] = [];
  for (const chunk of chunks.rows.map((row) => chunkRow.parse(row))) {
    const body = chunk.tokens ? chunk.tokens.split(' ') : [];
    const title = tokenize(chunk.title);
    for (const term of new Set([...title, ...body])) {
      const frequency = 2 * occurrences(title, term) + occurrences(body, term);
      rows.push([chunk.knowledge_base_id, term, chunk.id, frequency, chunk.indexed_token_count].join('|'));
    }
  }
  return rows.sort();
}

async function storedPostings(pool: pg.Pool): Promise<string[]> {
  const result = await pool.query('SELECT knowledge_base_id, term, chunk_id, frequency, indexed_token_count FROM chunk_terms');
  return result.rows
    .map((row) => postingRow.parse(row))
    .map((row) => [row.knowledge_base_id, row.term, row.chunk_id, row.frequency, row.indexed_token_count].join('|'))
    .sort();
}

async function knowledgeBase(store: KnowledgeStore, name: string): Promise<string> {
  const created = await store.createKnowledgeBase({ name, description: '', spaceKey: 's', createdBy: 'u', now });
  if (!created.ok) throw new Error(created.reason);
  return created.knowledgeBase.id;
}

async function add(store: KnowledgeStore, knowledgeBaseId: string, fileName: string, text: string): Promise<number> {
  const added = await store.addDocument(knowledgeBaseId, { fileName, bytes: utf8(text), addedBy: 'u', now });
  if (!added.ok) throw new Error(added.failure.code);
  return added.document.id;
}

describe.skipIf(!postgresInstalled)('chunk_terms', () => {
  it('follows every write, removal and knowledge-base delete in the same transaction', async () => {
    const url = await server.createDatabase();
    const store = openKnowledgeStore({ databaseUrl: url, log: silentLogger() });
    try {
      const manuals = await knowledgeBase(store, 'manuals');
      const faq = await knowledgeBase(store, 'faq');
      // The title's words are in the body too: each such term counts 2 × title + body.
      await add(store, manuals, 'refund policy.md', '# Refund policy\n\nA refund is paid within 30 days; the refund goes to the card.');
      const hours = await add(store, manuals, 'hours.txt', 'ร้านเปิดทุกวันเวลาเก้าโมงเช้าถึงหกโมงเย็น ร้านปิดวันหยุดนักขัตฤกษ์');
      await add(store, faq, 'battery.txt', 'The battery warranty covers two years; battery swaps are free.');
      await withPool(url, async (pool) => {
        const expected = await expectedPostings(pool);
        expect(expected.length).toBeGreaterThan(20);
        expect(await storedPostings(pool)).toEqual(expected);
      });

      expect(await store.removeDocument(manuals, hours)).toBe(true);
      await withPool(url, async (pool) => expect(await storedPostings(pool)).toEqual(await expectedPostings(pool)));
      expect((await store.search([manuals], 'ร้านเปิดกี่โมง', 5)).length).toBe(0);

      expect(await store.deleteKnowledgeBase(manuals)).toBe(true);
      await withPool(url, async (pool) => {
        const stored = await storedPostings(pool);
        expect(stored.length).toBeGreaterThan(0);
        expect(stored.every((row) => row.startsWith(`${faq}|`))).toBe(true);
        expect(stored).toEqual(await expectedPostings(pool));
      });
      expect((await store.search([faq], 'battery warranty', 5)).length).toBe(1);
    } finally {
      await store.close();
    }
  });

  it('are filled by the migration for the chunks of a database made before it', async () => {
    const url = await server.createDatabase();
    const before = migrations.filter((migration) => migration.version < 3);
    await withPool(url, async (pool) => {
      // The schema as version 2 left it, with a knowledge base written the way that version wrote chunks.
      await pool.query(
        'CREATE TABLE knowledge_schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
      );
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        for (const migration of before) {
          await migration.up(client);
          await client.query('INSERT INTO knowledge_schema_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
        }
        await client.query('COMMIT');
      } finally {
        client.release();
      }
      await pool.query(
        "INSERT INTO knowledge_bases (id, name, name_key, space_key, created_by, created_at) VALUES ('kbolder00001', 'old', 'old', 's', 'u', now())",
      );
      await pool.query(`INSERT INTO documents (id, knowledge_base_id, title, source_name, type, bytes, hash, added_by, added_at)
        VALUES (1, 'kbolder00001', 'ร้าน เปิด', 'a.txt', 'text', 10, 'h1', 'u', now())`);
      for (const [id, tokens] of [
        [1, 'ร้าน เปิด ทุก วัน ร้าน'],
        [2, 'ปิด วัน หยุด'],
      ] as const) {
        await pool.query(
          `INSERT INTO chunks (id, document_id, knowledge_base_id, position, text, tokens, token_count, indexed_token_count, search_vector)
           VALUES ($1, 1, 'kbolder00001', $4, $2, $2, $3, $3 + 2, setweight(to_tsvector('simple', 'ร้าน เปิด'), 'A') || to_tsvector('simple', $2))`,
          [id, tokens, tokens.split(' ').length, id],
        );
      }
      await pool.query("INSERT INTO term_stats (knowledge_base_id, term, chunks) VALUES ('kbolder00001', 'หยุด', 1)");
      expect(await migrate(pool)).toEqual([3]);
      const stored = await storedPostings(pool);
      expect(stored).toContain('kbolder00001|ร้าน|1|4|7');
      expect(stored).toContain('kbolder00001|เปิด|2|2|5');
      expect(stored).toEqual(await expectedPostings(pool));
    });
    const store = openKnowledgeStore({ databaseUrl: url, log: silentLogger() });
    try {
      expect((await store.search(['kbolder00001'], 'หยุด', 5)).map((hit) => hit.position)).toEqual([2]);
    } finally {
      await store.close();
    }
  });
});
