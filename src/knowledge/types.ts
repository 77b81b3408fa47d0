import type { DocumentType } from './ingest/document-type.js';
import type { DocumentOcr, OcrProgress } from './ingest/document-ocr.js';
import type { IngestFailure } from './ingest/ingest-failure.js';

export type { DocumentOcr, DocumentType, IngestFailure, OcrProgress };

export interface KnowledgeBase {
  /** `kb` + 10 lower-case letters/digits; stable, safe in SQL identifiers and FTS queries. */
  id: string;
  name: string;
  description: string;
  /** The space that owns it (`platform:space`); its admins manage it. */
  spaceKey: string;
  createdBy: string;
  createdAt: Date;
}

export interface KnowledgeBaseSummary extends KnowledgeBase {
  documentCount: number;
  chunkCount: number;
  totalBytes: number;
  boundConversationCount: number;
}

export interface KnowledgeDocument {
  id: number;
  knowledgeBaseId: string;
  title: string;
  sourceName: string;
  type: DocumentType;
  /** Size of the file as received. */
  bytes: number;
  /** SHA-256 of the normalized text: the same content twice in one KB is refused. */
  hash: string;
  addedBy: string;
  addedAt: Date;
  chunkCount: number;
}

export interface RetrievalHit {
  knowledgeBaseId: string;
  knowledgeBaseName: string;
  documentId: number;
  documentTitle: string;
  chunkId: number;
  /** 0-based position of the chunk in its document. */
  position: number;
  /** 1-based PDF page of the chunk; absent for other documents (and for PDFs added before pages were kept). */
  page?: number;
  text: string;
  /** Higher is better: BM25 (full text alone) or reciprocal-rank-fusion score (hybrid). */
  score: number;
}

export type CreateKnowledgeBaseResult = { ok: true; knowledgeBase: KnowledgeBase } | { ok: false; reason: 'invalid-name' | 'duplicate-name' };

export interface AddDocumentInput {
  /** File name as sent (its extension decides the type, checked against the bytes). */
  fileName: string;
  bytes: Uint8Array;
  mime?: string;
  /** Defaults to the file name. */
  title?: string;
  addedBy: string;
  now: Date;
  /** Called before each page is OCR'd (scanned PDFs); throttling is the caller's. */
  onProgress?: (progress: OcrProgress) => void;
}

export type AddDocumentResult =
  | {
      ok: true;
      document: KnowledgeDocument;
      vectors: VectorStatus;
      /** Pages without a text layer left out because this server has no OCR (a mixed PDF); absent when none. */
      unreadPages?: number[];
      /** Credentials masked in the document's text at ingest, by kind; absent when none. */
      masked?: Record<string, number>;
    }
  | { ok: false; failure: IngestFailure };

/** Whether the chunks got embedding vectors: 'failed' means full-text search only for this document. */
export type VectorStatus = 'not-configured' | 'stored' | 'failed';

// Rules every backend applies (the /kb commands quote them to users).

/** Letters (any script, Thai included), digits, `_ . -`; no spaces so `/kb add <name>` stays unambiguous. */
const namePattern = /^[\p{L}\p{M}\p{N}_.-]{1,40}$/u;
/** Longer descriptions are cut. */
export const maxDescriptionLength = 300;

export function isValidKnowledgeBaseName(name: string): boolean {
  return namePattern.test(name);
}

export type BindResult = 'bound' | 'already-bound' | 'unknown-knowledge-base';

/**
 * Where knowledge bases live. Every method is asynchronous so that a networked backend (PostgreSQL) can sit
 * behind the same interface; callers never rely on a result being ready at once.
 */
export interface SpaceMoveResult {
  knowledgeBases: number;
  bindings: number;
  /** Names left in the old space because the new one has a knowledge base of that name. */
  keptBehind: string[];
}

export interface KnowledgeStore {
  createKnowledgeBase(input: { name: string; description: string; spaceKey: string; createdBy: string; now: Date }): Promise<CreateKnowledgeBaseResult>;
  getKnowledgeBase(id: string): Promise<KnowledgeBase | undefined>;
  /** Knowledge bases whose id is `reference`, or whose name is `reference` (case-insensitive), in any space. */
  findKnowledgeBases(reference: string): Promise<KnowledgeBase[]>;
  /** All knowledge bases, or those of one space; oldest first. */
  listKnowledgeBases(filter?: { spaceKey?: string }): Promise<KnowledgeBase[]>;
  summarize(id: string): Promise<KnowledgeBaseSummary | undefined>;
  deleteKnowledgeBase(id: string): Promise<boolean>;

  addDocument(knowledgeBaseId: string, input: AddDocumentInput): Promise<AddDocumentResult>;
  documents(knowledgeBaseId: string): Promise<KnowledgeDocument[]>;
  removeDocument(knowledgeBaseId: string, documentId: number): Promise<boolean>;

  bind(conversationKey: string, knowledgeBaseId: string, boundBy: string, now: Date): Promise<BindResult>;
  unbind(conversationKey: string, knowledgeBaseId: string): Promise<boolean>;
  boundKnowledgeBaseIds(conversationKey: string): Promise<string[]>;
  /** The conversations bound to a knowledge base, sorted, at most `limit` (the admin page's list). */
  boundConversationKeys(knowledgeBaseId: string, limit: number): Promise<string[]>;
  /**
   * A space's new key (see SpaceMove in src/shared/channel.ts): its knowledge bases and the bindings of its
   * conversations move. A knowledge base whose name the new space already uses stays behind (reported).
   */
  moveSpace(from: string, to: string): Promise<SpaceMoveResult>;

  /** Best chunks of the given knowledge bases for a query, best first; unknown ids are skipped. */
  search(knowledgeBaseIds: readonly string[], query: string, topK: number): Promise<RetrievalHit[]>;
  close(): Promise<void>;
}
