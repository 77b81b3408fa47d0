// The PostgreSQL backend's face for src/knowledge/index.ts and the copy command.
export { openPostgresKnowledgeStore, type PostgresKnowledgeStore, type PostgresKnowledgeStoreOptions } from './postgres-knowledge-store.js';
export { checkPostgres, databaseAddress, PostgresConnectionError } from './connection-problem.js';
export { vacuumAfterBulkLoad } from './vacuum-after-bulk-load.js';
