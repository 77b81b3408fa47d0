import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { z } from 'zod';
import type { Logger } from '../../shared/log.js';
import { defaultOcrLimits, type DocumentOcr, type OcrLimits } from '../ingest/document-ocr.js';
import { chunkRow, DocumentRecords } from './document-records.js';
import { createEmbeddingsClient, type EmbeddingsClient } from '../embeddings-client.js';
import { defaultTrigramWeight, FullTextSearch, type RankedChunk } from './full-text-search.js';
import { KnowledgeBaseRecords } from './knowledge-base-records.js';
import { defaultDocumentLimits, prepareDocument } from '../ingest/prepare-document.js';
import { defaultPostingBudget } from '../ranking/query-terms.js';
import { reciprocalRankFusion } from '../ranking/rank-fusion.js';
import { migrate } from './schema.js';
import type { AddDocumentResult, KnowledgeStore, RetrievalHit, VectorStatus } from '../types.js';
import { VectorSearch } from './vector-search.js';

// The SQLite backend: better-sqlite3 is synchronous, so each method does its work at once and returns a settled
// promise; checks that must hold while writing stay inside the write's transaction.

export interface SqliteKnowledgeStoreOptions {
  /** `DATA_DIR/knowledge.db`, or ':memory:'. */
  path: string;
  /** OpenAI-compatible embeddings for hybrid ranking; full text alone when absent. */
  embeddings?: { baseUrl: string; model: string; apiKey?: string; timeoutMs?: number };
  log: Logger;
  maxDocumentBytes?: number;
  maxTextCharacters?: number;
  /** Reads images and PDF pages without a text layer; without it they are refused (a mixed PDF keeps its text pages). */
  ocr?: DocumentOcr;
  ocrLimits?: Partial<OcrLimits>;
  /** See query-terms.ts; lower is faster on very large knowledge bases. */
  postingBudget?: number;
  /** Share of the ranking from character trigrams, 0–1 (see full-text-search.ts); 0 = segmented BM25 alone. */
  trigramWeight?: number;
}

/** Candidates taken from each ranking before fusion. */
const fusionCandidates = 50;
const maxTopK = 50;
const maxQueryCharacters = 2000;

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
  const embeddings: EmbeddingsClient | undefined = options.embeddings ? createEmbeddingsClient(options.embeddings) : undefined;
  const limits = {
    ...defaultDocumentLimits,
    maxDocumentBytes: options.maxDocumentBytes ?? defaultDocumentLimits.maxDocumentBytes,
    maxTextCharacters: options.maxTextCharacters ?? defaultDocumentLimits.maxTextCharacters,
    ocr: { ...defaultOcrLimits, ...options.ocrLimits },
  };
  const hasVectors = database.prepare('SELECT 1 FROM chunks WHERE knowledge_base_id = ? AND embedding IS NOT NULL LIMIT 1');
  const chunksById = database.prepare(`SELECT c.id AS chunk_id, c.position, c.page, c.text, d.id AS document_id, d.title AS document_title
    FROM chunks c JOIN documents d ON d.id = c.document_id WHERE c.id IN (SELECT value FROM json_each(?))`);
  const log = options.log;

  async function queryVector(knowledgeBaseIds: readonly string[], query: string): Promise<Float32Array | undefined> {
    if (!embeddings || !knowledgeBaseIds.some((id) => hasVectors.get(id) !== undefined)) return undefined;
    const result = await embeddings.embed([query]);
    if (result.ok) return result.vectors[0];
    log.warn({ reason: result.reason }, 'knowledge: query embedding failed, using full text alone');
    return undefined;
  }

  function rank(knowledgeBaseId: string, query: string, vector: Float32Array | undefined, limit: number): RankedChunk[] {
    if (!vector) return fullText.search(knowledgeBaseId, query, limit);
    const byText = fullText.search(knowledgeBaseId, query, fusionCandidates).map((match) => match.chunkId);
    const byMeaning = vectors.search(knowledgeBaseId, vector, fusionCandidates).map((match) => match.chunkId);
    return reciprocalRankFusion([byText, byMeaning])
      .slice(0, limit)
      .map((fused) => ({ chunkId: fused.id, score: fused.score }));
  }

  return {
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

    async addDocument(knowledgeBaseId, input): Promise<AddDocumentResult> {
      if (!knowledgeBases.get(knowledgeBaseId)) return { ok: false, failure: { code: 'unknown-knowledge-base' } };
      const prepared = await prepareDocument(input, limits, { ...(options.ocr ? { ocr: options.ocr } : {}), log });
      if (!prepared.ok) return prepared;
      const existing = documents.findByHash(knowledgeBaseId, prepared.hash);
      if (existing) return { ok: false, failure: { code: 'duplicate', existingTitle: existing.title } };

      let vectorsOfChunks: Float32Array[] | undefined;
      let vectorStatus: VectorStatus = 'not-configured';
      if (embeddings) {
        const embedded = await embeddings.embed(prepared.chunks.map((chunk) => chunk.text));
        vectorStatus = embedded.ok ? 'stored' : 'failed';
        if (embedded.ok) vectorsOfChunks = embedded.vectors;
        else log.warn({ knowledgeBaseId, reason: embedded.reason }, 'knowledge: embeddings failed, document indexed for full text only');
      }
      const title = (input.title ?? input.fileName).trim().slice(0, 120) || input.fileName;
      const written = database.transaction((): AddDocumentResult => {
        // Checked again inside the transaction: the KB may have been deleted or the same text added meanwhile.
        if (!knowledgeBases.get(knowledgeBaseId)) return { ok: false, failure: { code: 'unknown-knowledge-base' } };
        const duplicate = documents.findByHash(knowledgeBaseId, prepared.hash);
        if (duplicate) return { ok: false, failure: { code: 'duplicate', existingTitle: duplicate.title } };
        const documentId = documents.insert({
          knowledgeBaseId,
          title,
          sourceName: input.fileName,
          type: prepared.type,
          bytes: input.bytes.length,
          hash: prepared.hash,
          addedBy: input.addedBy,
          addedAt: input.now,
          chunks: prepared.chunks,
          ...(vectorsOfChunks ? { embeddings: vectorsOfChunks } : {}),
        });
        const document = documents.document(knowledgeBaseId, documentId);
        if (!document) throw new Error('document vanished inside its own transaction');
        return { ok: true, document, vectors: vectorStatus, ...(prepared.unreadPages ? { unreadPages: prepared.unreadPages } : {}) };
      })();
      if (written.ok) {
        fullText.changed(knowledgeBaseId);
        vectors.invalidate(knowledgeBaseId);
        log.info(
          {
            knowledgeBaseId,
            documentId: written.document.id,
            type: written.document.type,
            bytes: written.document.bytes,
            chunks: written.document.chunkCount,
            vectors: written.vectors,
            ...(written.unreadPages ? { unreadPages: written.unreadPages.length } : {}),
          },
          'knowledge: document added',
        );
      }
      return written;
    },

    documents: async (knowledgeBaseId) => documents.documents(knowledgeBaseId),

    async removeDocument(knowledgeBaseId, documentId) {
      const removed = database.transaction(() => documents.remove(knowledgeBaseId, documentId))();
      if (removed) {
        fullText.changed(knowledgeBaseId);
        vectors.invalidate(knowledgeBaseId);
      }
      return removed;
    },

    bind: async (conversationKey, knowledgeBaseId, boundBy, now) => knowledgeBases.bind(conversationKey, knowledgeBaseId, boundBy, now),
    unbind: async (conversationKey, knowledgeBaseId) => knowledgeBases.unbind(conversationKey, knowledgeBaseId),
    boundKnowledgeBaseIds: async (conversationKey) => knowledgeBases.boundIds(conversationKey),
    moveSpace: async (from, to) => knowledgeBases.moveSpace(from, to),

    async search(knowledgeBaseIds, query, topK): Promise<RetrievalHit[]> {
      const limit = Math.min(Math.max(Math.trunc(topK) || 1, 1), maxTopK);
      const text = query.slice(0, maxQueryCharacters);
      const known = [...new Set(knowledgeBaseIds)].flatMap((id) => {
        const knowledgeBase = knowledgeBases.get(id);
        return knowledgeBase ? [knowledgeBase] : [];
      });
      if (known.length === 0 || !text.trim()) return [];
      const vector = await queryVector(
        known.map((knowledgeBase) => knowledgeBase.id),
        text,
      );
      const ranked = known
        .flatMap((knowledgeBase) => rank(knowledgeBase.id, text, vector, limit).map((match) => ({ ...match, knowledgeBase })))
        .sort((left, right) => right.score - left.score)
        .slice(0, limit);
      if (ranked.length === 0) return [];
      const rows = new Map(chunkRowsSchema.parse(chunksById.all(JSON.stringify(ranked.map((match) => match.chunkId)))).map((row) => [row.chunk_id, row]));
      return ranked.flatMap((match) => {
        const row = rows.get(match.chunkId);
        if (!row) return [];
        return [
          {
            knowledgeBaseId: match.knowledgeBase.id,
            knowledgeBaseName: match.knowledgeBase.name,
            documentId: row.document_id,
            documentTitle: row.document_title,
            chunkId: row.chunk_id,
            position: row.position,
            ...(row.page === null ? {} : { page: row.page }),
            text: row.text,
            score: match.score,
          },
        ];
      });
    },

    async close() {
      database.close();
    },
  };
}
