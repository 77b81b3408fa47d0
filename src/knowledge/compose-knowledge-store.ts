import { maskCredentials } from '../dlp/mask-credentials.js';
import { redactCredentials } from '../dlp/redact-credentials.js';
import { createEmbeddingsClient, type EmbeddingsClient } from './embeddings-client.js';
import { defaultOcrLimits } from './ingest/document-ocr.js';
import { defaultDocumentLimits, prepareDocument } from './ingest/prepare-document.js';
import type { RankedChunk } from './ranking/candidate-rescoring.js';
import { reciprocalRankFusion } from './ranking/rank-fusion.js';
import type { KnowledgeBackend, KnowledgeStoreCommonOptions } from './knowledge-backend.js';
import type { AddDocumentResult, KnowledgeStore, RetrievalHit, VectorStatus } from './types.js';

// The KnowledgeStore on top of any backend: document intake (prepare, refuse duplicates, embed, write) and search
// (full text or hybrid with reciprocal-rank fusion, merged across KBs by score, hits with their page labels).

/** Candidates taken from each ranking before fusion. */
const fusionCandidates = 50;
const maxTopK = 50;
const maxQueryCharacters = 2000;

export function composeKnowledgeStore(backend: KnowledgeBackend, options: KnowledgeStoreCommonOptions): KnowledgeStore {
  const embeddings: EmbeddingsClient | undefined = options.embeddings ? createEmbeddingsClient(options.embeddings) : undefined;
  const limits = {
    ...defaultDocumentLimits,
    maxDocumentBytes: options.maxDocumentBytes ?? defaultDocumentLimits.maxDocumentBytes,
    maxTextCharacters: options.maxTextCharacters ?? defaultDocumentLimits.maxTextCharacters,
    ocr: { ...defaultOcrLimits, ...options.ocrLimits },
  };
  const log = options.log;
  const secrets = options.secrets ?? [];

  async function queryVector(knowledgeBaseIds: readonly string[], query: string): Promise<Float32Array | undefined> {
    if (!embeddings || !(await backend.hasVectors(knowledgeBaseIds))) return undefined;
    // The embeddings server may be remote (EMBEDDINGS_BASE_URL): a credential in the question is masked first.
    const result = await embeddings.embed([maskCredentials(query, secrets).text]);
    if (result.ok) return result.vectors[0];
    log.warn({ reason: result.reason }, 'knowledge: query embedding failed, using full text alone');
    return undefined;
  }

  async function rank(knowledgeBaseId: string, query: string, vector: Float32Array | undefined, limit: number): Promise<RankedChunk[]> {
    if (!vector) return backend.fullTextSearch(knowledgeBaseId, query, limit);
    const [byText, byMeaning] = await Promise.all([
      backend.fullTextSearch(knowledgeBaseId, query, fusionCandidates),
      backend.nearestChunks(knowledgeBaseId, vector, fusionCandidates),
    ]);
    return reciprocalRankFusion([byText.map((match) => match.chunkId), byMeaning])
      .slice(0, limit)
      .map((fused) => ({ chunkId: fused.id, score: fused.score }));
  }

  return {
    createKnowledgeBase: (input) => backend.createKnowledgeBase(input),
    getKnowledgeBase: (id) => backend.getKnowledgeBase(id),
    findKnowledgeBases: (reference) => backend.findKnowledgeBases(reference),
    listKnowledgeBases: (filter) => backend.listKnowledgeBases(filter),
    summarize: (id) => backend.summarize(id),
    deleteKnowledgeBase: (id) => backend.deleteKnowledgeBase(id),
    documents: (knowledgeBaseId) => backend.documents(knowledgeBaseId),
    removeDocument: (knowledgeBaseId, documentId) => backend.removeDocument(knowledgeBaseId, documentId),
    bind: (conversationKey, knowledgeBaseId, boundBy, now) => backend.bind(conversationKey, knowledgeBaseId, boundBy, now),
    unbind: (conversationKey, knowledgeBaseId) => backend.unbind(conversationKey, knowledgeBaseId),
    boundKnowledgeBaseIds: (conversationKey) => backend.boundKnowledgeBaseIds(conversationKey),
    boundConversationKeys: (knowledgeBaseId, limit) => backend.boundConversationKeys(knowledgeBaseId, limit),
    moveSpace: (from, to) => backend.moveSpace(from, to),
    close: () => backend.close(),

    async addDocument(knowledgeBaseId, input): Promise<AddDocumentResult> {
      if (!(await backend.getKnowledgeBase(knowledgeBaseId))) return { ok: false, failure: { code: 'unknown-knowledge-base' } };
      const prepared = await prepareDocument(input, limits, { ...(options.ocr ? { ocr: options.ocr } : {}), log, secrets });
      if (!prepared.ok) return prepared;
      const existing = await backend.findByHash(knowledgeBaseId, prepared.hash);
      if (existing) return { ok: false, failure: { code: 'duplicate', existingTitle: existing.title } };

      let vectorsOfChunks: Float32Array[] | undefined;
      let vectorStatus: VectorStatus = 'not-configured';
      if (embeddings) {
        const embedded = await embeddings.embed(prepared.chunks.map((chunk) => chunk.text));
        vectorStatus = embedded.ok ? 'stored' : 'failed';
        if (embedded.ok) vectorsOfChunks = embedded.vectors;
        else log.warn({ knowledgeBaseId, reason: embedded.reason }, 'knowledge: embeddings failed, document indexed for full text only');
      }
      const written = await backend.writeDocument({
        knowledgeBaseId,
        // The title is often the text's first line, and a file name is the sender's: masked like the text.
        title: redactCredentials((input.title ?? input.fileName).trim().slice(0, 120) || input.fileName, secrets),
        sourceName: redactCredentials(input.fileName, secrets),
        type: prepared.type,
        bytes: input.bytes.length,
        hash: prepared.hash,
        addedBy: input.addedBy,
        addedAt: input.now,
        chunks: prepared.chunks,
        ...(vectorsOfChunks ? { embeddings: vectorsOfChunks } : {}),
      });
      if (!written.ok) return written;
      const result: AddDocumentResult = {
        ok: true,
        document: written.document,
        vectors: vectorStatus,
        ...(prepared.unreadPages ? { unreadPages: prepared.unreadPages } : {}),
        ...(prepared.masked ? { masked: prepared.masked } : {}),
      };
      log.info(
        {
          knowledgeBaseId,
          documentId: written.document.id,
          type: written.document.type,
          bytes: written.document.bytes,
          chunks: written.document.chunkCount,
          vectors: vectorStatus,
          ...(prepared.unreadPages ? { unreadPages: prepared.unreadPages.length } : {}),
          ...(prepared.masked ? { maskedCredentials: prepared.masked } : {}),
        },
        'knowledge: document added',
      );
      return result;
    },

    async search(knowledgeBaseIds, query, topK): Promise<RetrievalHit[]> {
      const limit = Math.min(Math.max(Math.trunc(topK) || 1, 1), maxTopK);
      const text = query.slice(0, maxQueryCharacters);
      if (!text.trim()) return [];
      const found = await Promise.all([...new Set(knowledgeBaseIds)].map((id) => backend.getKnowledgeBase(id)));
      const known = found.flatMap((knowledgeBase) => (knowledgeBase ? [knowledgeBase] : []));
      if (known.length === 0) return [];
      const vector = await queryVector(
        known.map((knowledgeBase) => knowledgeBase.id),
        text,
      );
      const rankings = await Promise.all(
        known.map(async (knowledgeBase) => (await rank(knowledgeBase.id, text, vector, limit)).map((match) => ({ ...match, knowledgeBase }))),
      );
      const ranked = rankings
        .flat()
        .sort((left, right) => right.score - left.score)
        .slice(0, limit);
      if (ranked.length === 0) return [];
      const rows = new Map((await backend.chunkRows(ranked.map((match) => match.chunkId))).map((row) => [row.chunkId, row]));
      return ranked.flatMap((match) => {
        const row = rows.get(match.chunkId);
        if (!row) return [];
        return [
          {
            knowledgeBaseId: match.knowledgeBase.id,
            knowledgeBaseName: match.knowledgeBase.name,
            documentId: row.documentId,
            documentTitle: row.documentTitle,
            chunkId: row.chunkId,
            position: row.position,
            ...(row.page === null ? {} : { page: row.page }),
            text: row.text,
            score: match.score,
          },
        ];
      });
    },
  };
}
