import type { Logger } from '../shared/log.js';
import type { DocumentOcr, OcrLimits } from './ingest/document-ocr.js';
import type { IngestFailure } from './ingest/ingest-failure.js';
import type { DocumentChunk } from './ingest/prepare-document.js';
import type { RankedChunk } from './ranking/candidate-rescoring.js';
import type { KnowledgeDocument, KnowledgeStore } from './types.js';

// What a storage backend (sqlite/, postgres/) provides; compose-knowledge-store.ts builds the KnowledgeStore on
// it, so ingestion, hybrid ranking and hit assembly are one code path whatever holds the rows.

/** Options every backend takes. */
export interface KnowledgeStoreCommonOptions {
  /** OpenAI-compatible embeddings for hybrid ranking; full text alone when absent. */
  embeddings?: { baseUrl: string; model: string; apiKey?: string; timeoutMs?: number };
  log: Logger;
  maxDocumentBytes?: number;
  maxTextCharacters?: number;
  /** Reads images and PDF pages without a text layer; without it they are refused (a mixed PDF keeps its text pages). */
  ocr?: DocumentOcr;
  ocrLimits?: Partial<OcrLimits>;
  /** Saeng's configured secrets: masked in documents at ingest like any credential (exact values). */
  secrets?: readonly string[];
  /** See ranking/query-terms.ts; lower is faster on very large knowledge bases. */
  postingBudget?: number;
  /** Share of the ranking from character trigrams, 0–1 (see ranking/candidate-rescoring.ts); 0 = segmented BM25 alone. */
  trigramWeight?: number;
}

/** A document as a backend stores it: the fields of KnowledgeDocument it does not assign, plus its chunks. */
export interface NewDocument extends Omit<KnowledgeDocument, 'id' | 'chunkCount'> {
  chunks: readonly DocumentChunk[];
  /** One unit-length vector per chunk, or none. */
  embeddings?: readonly Float32Array[];
}

export type WrittenDocument = { ok: true; document: KnowledgeDocument } | { ok: false; failure: IngestFailure };

export interface ChunkRow {
  chunkId: number;
  position: number;
  page: number | null;
  text: string;
  documentId: number;
  documentTitle: string;
}

type PassedThrough =
  | 'createKnowledgeBase'
  | 'getKnowledgeBase'
  | 'findKnowledgeBases'
  | 'listKnowledgeBases'
  | 'summarize'
  | 'deleteKnowledgeBase'
  | 'documents'
  | 'removeDocument'
  | 'bind'
  | 'unbind'
  | 'boundKnowledgeBaseIds'
  | 'boundConversationKeys'
  | 'moveSpace'
  | 'close';

export interface KnowledgeBackend extends Pick<KnowledgeStore, PassedThrough> {
  findByHash(knowledgeBaseId: string, hash: string): Promise<KnowledgeDocument | undefined>;
  /** One transaction that checks again that the KB exists and the hash is new, then writes everything. */
  writeDocument(document: NewDocument): Promise<WrittenDocument>;
  /** Whether any chunk of these KBs has a vector (else the query is not embedded). */
  hasVectors(knowledgeBaseIds: readonly string[]): Promise<boolean>;
  /** Full-text candidates from the backend's index, rescored with ranking/candidate-rescoring.ts. */
  fullTextSearch(knowledgeBaseId: string, query: string, limit: number): Promise<RankedChunk[]>;
  /** Chunk ids by cosine similarity to a unit-length vector, best first. */
  nearestChunks(knowledgeBaseId: string, vector: Float32Array, limit: number): Promise<number[]>;
  chunkRows(chunkIds: readonly number[]): Promise<ChunkRow[]>;
}
