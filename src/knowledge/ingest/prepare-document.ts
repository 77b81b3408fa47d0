import { createHash } from 'node:crypto';
import { chunkText, defaultChunkOptions, type ChunkOptions, type TextChunk } from './chunk-text.js';
import { detectDocumentType, type DocumentType } from './document-type.js';
import { extractText } from './extract/extract-text.js';
import type { IngestFailure } from './ingest-failure.js';
import { normalizeText } from '../ranking/normalize-text.js';

export interface DocumentLimits {
  maxDocumentBytes: number;
  /** Extracted text beyond this is refused rather than silently cut. */
  maxTextCharacters: number;
  chunk: ChunkOptions;
}

export const defaultDocumentLimits: DocumentLimits = {
  maxDocumentBytes: 20 * 1024 * 1024,
  maxTextCharacters: 3_000_000,
  chunk: defaultChunkOptions,
};

export type PreparedDocument = { ok: true; type: DocumentType; text: string; hash: string; chunks: TextChunk[] } | { ok: false; failure: IngestFailure };

/** Bytes → checked type → text → normalized chunks, with the content hash used for duplicate detection. */
export async function prepareDocument(
  input: { fileName: string; bytes: Uint8Array; mime?: string },
  limits: DocumentLimits = defaultDocumentLimits,
): Promise<PreparedDocument> {
  if (input.bytes.length > limits.maxDocumentBytes) return { ok: false, failure: { code: 'too-large', limitBytes: limits.maxDocumentBytes } };
  const detected = detectDocumentType(input.fileName, input.bytes, input.mime);
  if (!detected.ok) return detected;
  const extracted = await extractText(detected.type, input.bytes);
  if (!extracted.ok) return extracted;
  // Checked before normalizing as well: a small compressed PDF or DOCX can expand to far more text than bytes.
  if (extracted.text.length > limits.maxTextCharacters * 2) return { ok: false, failure: { code: 'too-long', limitCharacters: limits.maxTextCharacters } };
  const text = normalizeText(extracted.text);
  if (!text) return { ok: false, failure: { code: 'empty' } };
  if (text.length > limits.maxTextCharacters) return { ok: false, failure: { code: 'too-long', limitCharacters: limits.maxTextCharacters } };
  const hash = createHash('sha256').update(text).digest('hex');
  return { ok: true, type: detected.type, text, hash, chunks: chunkText(text, limits.chunk) };
}
