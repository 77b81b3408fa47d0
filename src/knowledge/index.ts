import { openSqliteKnowledgeStore, type SqliteKnowledgeStoreOptions } from './sqlite/sqlite-knowledge-store.js';
import type { KnowledgeStore } from './types.js';

// The knowledge service's one face: callers outside src/knowledge import from here only. Backends sit in their
// own folders behind the KnowledgeStore interface; SQLite is the only one today.

/** Where the knowledge bases live (a PostgreSQL backend would add its own options here, as a union). */
export type KnowledgeStoreOptions = SqliteKnowledgeStoreOptions;

export function openKnowledgeStore(options: KnowledgeStoreOptions): KnowledgeStore {
  return openSqliteKnowledgeStore(options);
}

export type * from './types.js';
export { maxDescriptionLength } from './types.js';
export { describeIngestFailure, formatBytes } from './ingest/ingest-failure.js';
export { defaultOcrLimits, type OcrLimits } from './ingest/document-ocr.js';
export { naiveRagContext, type NaiveRagOptions } from './naive-rag.js';
