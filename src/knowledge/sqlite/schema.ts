import type { Database } from 'better-sqlite3';

// One FTS5 table per knowledge base: filtering by KB costs nothing at query time, statistics are those of
// the KB itself, and deleting a KB drops its index at once. The table holds no text of its own (contentless,
// deletable by rowid = chunks.id); it indexes space-joined tokens from tokenize(). FTS5 finds and orders the
// candidates; bm25-scoring.ts gives the final scores.
// unicode61 needs the M* categories: by default it treats Thai vowel and tone marks as separators.

export const indexTokenizer = "unicode61 remove_diacritics 0 categories 'L* N* Co M*'";

/** Title matches count double: a document named for the topic is a strong signal. */
export const titleWeight = 2;

const knowledgeBaseIdPattern = /^kb[a-z0-9]{10}$/;

export function isKnowledgeBaseId(value: string): boolean {
  return knowledgeBaseIdPattern.test(value);
}

/** The FTS table of a knowledge base; the id is checked because it becomes part of an SQL identifier. */
export function indexTableName(knowledgeBaseId: string): string {
  if (!isKnowledgeBaseId(knowledgeBaseId)) throw new Error(`not a knowledge base id: ${knowledgeBaseId}`);
  return `kb_index_${knowledgeBaseId}`;
}

export function createIndexTable(database: Database, knowledgeBaseId: string): void {
  const table = indexTableName(knowledgeBaseId);
  database.exec(
    `CREATE VIRTUAL TABLE IF NOT EXISTS ${table} USING fts5(title, body, content='', contentless_delete=1, tokenize="${indexTokenizer}");
     INSERT INTO ${table}(${table}, rank) VALUES ('rank', 'bm25(${titleWeight}.0, 1.0)');`,
  );
}

export function dropIndexTable(database: Database, knowledgeBaseId: string): void {
  database.exec(`DROP TABLE IF EXISTS ${indexTableName(knowledgeBaseId)}`);
}

/** 1: the tables; 2: chunks.page (the PDF page of a chunk, NULL for other documents and older rows). */
export const schemaVersion = 2;

export function migrate(database: Database): void {
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  const version = Number(database.pragma('user_version', { simple: true }));
  if (version >= schemaVersion) return;
  // Each step runs once, in order, in one transaction with the version it reaches.
  database.transaction(() => {
    if (version < 1) createTables(database);
    if (version < 2) database.exec('ALTER TABLE chunks ADD COLUMN page INTEGER');
    database.pragma(`user_version = ${schemaVersion}`);
  })();
}

function createTables(database: Database): void {
  database.exec(`
    CREATE TABLE IF NOT EXISTS knowledge_bases (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      name_key TEXT NOT NULL,
      description TEXT NOT NULL DEFAULT '',
      space_key TEXT NOT NULL,
      created_by TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      UNIQUE (space_key, name_key)
    );
    CREATE INDEX IF NOT EXISTS knowledge_bases_by_name ON knowledge_bases(name_key);
    CREATE TABLE IF NOT EXISTS documents (
      id INTEGER PRIMARY KEY,
      knowledge_base_id TEXT NOT NULL REFERENCES knowledge_bases(id) ON DELETE CASCADE,
      title TEXT NOT NULL,
      source_name TEXT NOT NULL,
      type TEXT NOT NULL,
      bytes INTEGER NOT NULL,
      hash TEXT NOT NULL,
      added_by TEXT NOT NULL,
      added_at INTEGER NOT NULL,
      UNIQUE (knowledge_base_id, hash)
    );
    CREATE TABLE IF NOT EXISTS chunks (
      id INTEGER PRIMARY KEY,
      document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
      knowledge_base_id TEXT NOT NULL,
      position INTEGER NOT NULL,
      text TEXT NOT NULL,
      -- The body's index tokens, space-joined: term frequencies for BM25 rescoring and term counts on removal.
      tokens TEXT NOT NULL,
      token_count INTEGER NOT NULL,
      embedding BLOB
    );
    CREATE INDEX IF NOT EXISTS chunks_by_document ON chunks(document_id);
    CREATE INDEX IF NOT EXISTS chunks_by_knowledge_base ON chunks(knowledge_base_id);
    -- Chunks per term and KB: picks the informative query terms without scanning FTS posting lists.
    CREATE TABLE IF NOT EXISTS term_stats (
      knowledge_base_id TEXT NOT NULL,
      term TEXT NOT NULL,
      chunks INTEGER NOT NULL,
      PRIMARY KEY (knowledge_base_id, term)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS bindings (
      conversation_key TEXT NOT NULL,
      knowledge_base_id TEXT NOT NULL REFERENCES knowledge_bases(id) ON DELETE CASCADE,
      bound_by TEXT NOT NULL,
      bound_at INTEGER NOT NULL,
      PRIMARY KEY (conversation_key, knowledge_base_id)
    );
    CREATE INDEX IF NOT EXISTS bindings_by_knowledge_base ON bindings(knowledge_base_id);
  `);
}
