import { openPostgresKnowledgeStore, type PostgresKnowledgeStore, type PostgresKnowledgeStoreOptions } from './postgres/index.js';
import { openSqliteKnowledgeStore, type SqliteKnowledgeStoreOptions } from './sqlite/sqlite-knowledge-store.js';
import type { KnowledgeStore } from './types.js';

// The knowledge service's one face: callers outside src/knowledge import from here only. Backends sit in their
// own folders behind the KnowledgeStore interface: SQLite (`path`, DATA_DIR/knowledge.db) or PostgreSQL
// (`databaseUrl`, DATABASE_URL).

/** Where the knowledge bases live: `{ path }` for SQLite, `{ databaseUrl }` for PostgreSQL. */
export type KnowledgeStoreOptions = SqliteKnowledgeStoreOptions | PostgresKnowledgeStoreOptions;

export function openKnowledgeStore(options: PostgresKnowledgeStoreOptions): PostgresKnowledgeStore;
export function openKnowledgeStore(options: KnowledgeStoreOptions): KnowledgeStore;
export function openKnowledgeStore(options: KnowledgeStoreOptions): KnowledgeStore {
  return 'databaseUrl' in options ? openPostgresKnowledgeStore(options) : openSqliteKnowledgeStore(options);
}

export type * from './types.js';
export type { PostgresKnowledgeStore } from './postgres/index.js';
export { checkPostgres, databaseAddress, PostgresConnectionError, vacuumAfterBulkLoad } from './postgres/index.js';
export { maxDescriptionLength } from './types.js';
export { describeIngestFailure, formatBytes } from './ingest/ingest-failure.js';
export { defaultOcrLimits, type OcrLimits } from './ingest/document-ocr.js';
export { naiveRagContext, type NaiveRagOptions } from './naive-rag.js';
export { copyKnowledgeToPostgres, type CopyCounts, type CopyResult } from './copy-to-postgres.js';
