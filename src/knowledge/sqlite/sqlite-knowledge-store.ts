import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { z } from 'zod';
import { composeKnowledgeStore } from '../compose-knowledge-store.js';
import type { KnowledgeBackend, KnowledgeStoreCommonOptions, WrittenDocument } from '../knowledge-backend.js';
import { defaultTrigramWeight } from '../ranking/candidate-rescoring.js';
import { defaultPostingBudget } from '../ranking/query-terms.js';
import type { KnowledgeStore } from '../types.js';
import { chunkRow, DocumentRecords } from './document-records.js';
import { FullTextSearch } from './full-text-search.js';
import { KnowledgeBaseRecords } from './knowledge-base-records.js';
import { migrate } from './schema.js';
import { VectorSearch } from './vector-search.js';

// The SQLite backend: better-sqlite3 is synchronous, so each method does its work at once and returns a settled
// promise; checks that must hold while writing stay inside the write's transaction.

export interface SqliteKnowledgeStoreOptions extends KnowledgeStoreCommonOptions {
  /** `DATA_DIR/knowledge.db`, or ':memory:'. */
  path: string;
}

const chunkRowsSchema = z.array(chunkRow);

export function openSqliteKnowledgeStore(options: SqliteKnowledgeStoreOptions): KnowledgeStore {
  if (options.path !== ':memory:') mkdirSync(dirname(options.path), { recursive: true });
  const database = new BetterSqlite3(options.path);
  migrate(database);
  const knowledgeBases = new KnowledgeBaseRecords(database);
  const documents = new DocumentRecords(database);
  const trigramWeight = Math.min(1, Math.max(0, options.trigramWeight ?? defaultTrigramWeight));
  const fullText = new FullTextSearch(database, options.postingBudget ?? defaultPostingBudget, trigramWeight);
  const vectors = new VectorSearch(database);
  const hasVectors = database.prepare('SELECT 1 FROM chunks WHERE knowledge_base_id = ? AND embedding IS NOT NULL LIMIT 1');
  const chunksById = database.prepare(`SELECT c.id AS chunk_id, c.position, c.page, c.text, d.id AS document_id, d.title AS document_title
    FROM chunks c JOIN documents d ON d.id = c.document_id WHERE c.id IN (SELECT value FROM json_each(?))`);

  const changed = (knowledgeBaseId: string): void => {
    fullText.changed(knowledgeBaseId);
    vectors.invalidate(knowledgeBaseId);
  };

  const backend: KnowledgeBackend = {
    createKnowledgeBase: async (input) => knowledgeBases.create(input),
    getKnowledgeBase: async (id) => knowledgeBases.get(id),
    findKnowledgeBases: async (reference) => knowledgeBases.find(reference),
    listKnowledgeBases: async (filter) => knowledgeBases.list(filter?.spaceKey),
    summarize: async (id) => knowledgeBases.summarize(id),

    async deleteKnowledgeBase(id) {
      const deleted = knowledgeBases.delete(id);
      documents.forgetIndex(id);
      fullText.forget(id);
      vectors.invalidate(id);
      return deleted;
    },

    findByHash: async (knowledgeBaseId, hash) => documents.findByHash(knowledgeBaseId, hash),

    async writeDocument(document) {
      const written = database.transaction((): WrittenDocument => {
        // Checked again inside the transaction: the KB may have been deleted or the same text added meanwhile.
        if (!knowledgeBases.get(document.knowledgeBaseId)) return { ok: false, failure: { code: 'unknown-knowledge-base' } };
        const duplicate = documents.findByHash(document.knowledgeBaseId, document.hash);
        if (duplicate) return { ok: false, failure: { code: 'duplicate', existingTitle: duplicate.title } };
        const stored = documents.document(document.knowledgeBaseId, documents.insert(document));
        if (!stored) throw new Error('document vanished inside its own transaction');
        return { ok: true, document: stored };
      })();
      if (written.ok) changed(document.knowledgeBaseId);
      return written;
    },

    documents: async (knowledgeBaseId) => documents.documents(knowledgeBaseId),

    async removeDocument(knowledgeBaseId, documentId) {
      const removed = database.transaction(() => documents.remove(knowledgeBaseId, documentId))();
      if (removed) changed(knowledgeBaseId);
      return removed;
    },

    bind: async (conversationKey, knowledgeBaseId, boundBy, now) => knowledgeBases.bind(conversationKey, knowledgeBaseId, boundBy, now),
    unbind: async (conversationKey, knowledgeBaseId) => knowledgeBases.unbind(conversationKey, knowledgeBaseId),
    boundKnowledgeBaseIds: async (conversationKey) => knowledgeBases.boundIds(conversationKey),
    boundConversationKeys: async (knowledgeBaseId, limit) => knowledgeBases.boundConversations(knowledgeBaseId, limit),
    moveSpace: async (from, to) => knowledgeBases.moveSpace(from, to),

    hasVectors: async (knowledgeBaseIds) => knowledgeBaseIds.some((id) => hasVectors.get(id) !== undefined),
    fullTextSearch: async (knowledgeBaseId, query, limit) => fullText.search(knowledgeBaseId, query, limit),
    nearestChunks: async (knowledgeBaseId, vector, limit) => vectors.search(knowledgeBaseId, vector, limit).map((match) => match.chunkId),

    async chunkRows(chunkIds) {
      return chunkRowsSchema.parse(chunksById.all(JSON.stringify(chunkIds))).map((row) => ({
        chunkId: row.chunk_id,
        position: row.position,
        page: row.page,
        text: row.text,
        documentId: row.document_id,
        documentTitle: row.document_title,
      }));
    },

    async close() {
      database.close();
    },
  };
  return composeKnowledgeStore(backend, options);
}
