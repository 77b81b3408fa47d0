import type pg from 'pg';

// Migration 3: chunk_terms, one row per (knowledge base, term, chunk) with the term's frequency in the chunk and the
// chunk's row length, so a full-text search sums index-only B-tree rows instead of reading and unnesting the
// tsvector of every matched chunk (100k chunks: p95 576 ms that way). Kept by statement-level triggers on chunks,
// so every path that writes chunks (the store, the SQLite copy, a cascade from documents or knowledge_bases) keeps
// it in its own transaction. The GIN index goes: nothing searches search_vector any more, and it only cost writes.

const postingTable = `
  CREATE TABLE chunk_terms (
    knowledge_base_id text NOT NULL,
    term text NOT NULL,
    chunk_id bigint NOT NULL,
    -- 2 × title occurrences + body occurrences, as FTS5 weighs the title column.
    frequency integer NOT NULL,
    -- chunks.indexed_token_count: the row length of the score, here so the scan never visits chunks.
    indexed_token_count integer NOT NULL,
    PRIMARY KEY (knowledge_base_id, term, chunk_id) INCLUDE (frequency, indexed_token_count)
  )`;

// From the tsvector, as the former per-chunk score read it: every position counts once, a title position (weight A)
// once more. No foreign keys: a check per posting row would double the cost of loading chunks.
const postingsOf = (chunks: string) => `
  SELECT c.knowledge_base_id, l.lexeme, c.id,
    cardinality(l.positions) + (SELECT count(*) FROM unnest(l.weights) AS w(weight) WHERE w.weight = 'A')::integer,
    c.indexed_token_count
  FROM ${chunks} c CROSS JOIN LATERAL unnest(c.search_vector) AS l`;

// A knowledge base's postings go in one range delete before its documents cascade; the chunk trigger then sees the
// knowledge base gone (deleted by this transaction) and skips a lookup per posting.
const triggers = `
  CREATE FUNCTION chunk_terms_after_chunks() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_OP IN ('DELETE', 'UPDATE') THEN
      DELETE FROM chunk_terms p
      USING old_chunks o CROSS JOIN LATERAL unnest(o.search_vector) AS l
      WHERE p.knowledge_base_id = o.knowledge_base_id AND p.term = l.lexeme AND p.chunk_id = o.id
        AND EXISTS (SELECT 1 FROM knowledge_bases k WHERE k.id = o.knowledge_base_id);
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
      INSERT INTO chunk_terms (knowledge_base_id, term, chunk_id, frequency, indexed_token_count) ${postingsOf('new_chunks')};
    END IF;
    RETURN NULL;
  END $$;
  CREATE TRIGGER chunk_terms_on_insert AFTER INSERT ON chunks REFERENCING NEW TABLE AS new_chunks
    FOR EACH STATEMENT EXECUTE FUNCTION chunk_terms_after_chunks();
  CREATE TRIGGER chunk_terms_on_update AFTER UPDATE ON chunks REFERENCING OLD TABLE AS old_chunks NEW TABLE AS new_chunks
    FOR EACH STATEMENT EXECUTE FUNCTION chunk_terms_after_chunks();
  CREATE TRIGGER chunk_terms_on_delete AFTER DELETE ON chunks REFERENCING OLD TABLE AS old_chunks
    FOR EACH STATEMENT EXECUTE FUNCTION chunk_terms_after_chunks();
  CREATE FUNCTION chunk_terms_before_knowledge_base_delete() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    DELETE FROM chunk_terms WHERE knowledge_base_id = OLD.id;
    RETURN OLD;
  END $$;
  CREATE TRIGGER chunk_terms_on_knowledge_base_delete BEFORE DELETE ON knowledge_bases
    FOR EACH ROW EXECUTE FUNCTION chunk_terms_before_knowledge_base_delete();`;

/** The triggers come first: they lock chunks against writers until this commits, so the backfill misses none. */
export async function createChunkTerms(client: pg.PoolClient): Promise<void> {
  await client.query(postingTable);
  await client.query(triggers);
  await client.query(`INSERT INTO chunk_terms (knowledge_base_id, term, chunk_id, frequency, indexed_token_count) ${postingsOf('chunks')}`);
  await client.query('DROP INDEX IF EXISTS chunks_search');
}
