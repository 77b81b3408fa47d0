import { createHash } from 'node:crypto';
import { chunkText, defaultChunkOptions, type ChunkOptions, type TextChunk } from './chunk-text.js';
import { defaultOcrLimits, type DocumentOcr, type OcrLimits, type OcrProgress } from './document-ocr.js';
import { detectDocumentType, type DocumentType } from './document-type.js';
import { extractText, type TextSection } from './extract/extract-text.js';
import { defaultParseLimits, type ParseLimits } from './extract/parse-in-worker.js';
import type { IngestFailure } from './ingest-failure.js';
import { maskSections } from './mask-sections.js';
import { normalizeText } from '../ranking/normalize-text.js';
import type { Logger } from '../../shared/log.js';

export interface DocumentLimits {
  maxDocumentBytes: number;
  /** Extracted text beyond this is refused rather than silently cut. */
  maxTextCharacters: number;
  chunk: ChunkOptions;
  ocr: OcrLimits;
  /** Heap and time of the worker that parses one document (parse-in-worker.ts). */
  parse: ParseLimits;
}

export const defaultDocumentLimits: DocumentLimits = {
  maxDocumentBytes: 20 * 1024 * 1024,
  maxTextCharacters: 3_000_000,
  chunk: defaultChunkOptions,
  ocr: defaultOcrLimits,
  parse: defaultParseLimits,
};

/** A chunk and the PDF page it comes from (none for other documents): a chunk never spans two pages. */
export interface DocumentChunk extends TextChunk {
  page?: number;
}

export type PreparedDocument =
  | {
      ok: true;
      type: DocumentType;
      text: string;
      hash: string;
      chunks: DocumentChunk[];
      unreadPages?: number[];
      /** Credentials masked in the text (mask-sections.ts), by kind; absent when none. */
      masked?: Record<string, number>;
    }
  | { ok: false; failure: IngestFailure };

export interface PrepareInput {
  fileName: string;
  bytes: Uint8Array;
  mime?: string;
  onProgress?: (progress: OcrProgress) => void;
}

/** Each section chunked on its own, positions counted on across the document. */
function chunkSections(sections: readonly TextSection[], options: ChunkOptions): DocumentChunk[] {
  const chunks: DocumentChunk[] = [];
  for (const section of sections) {
    for (const chunk of chunkText(section.text, options)) {
      const position = chunks.length;
      chunks.push(section.page === undefined ? { position, text: chunk.text } : { position, text: chunk.text, page: section.page });
    }
  }
  return chunks;
}

/**
 * Bytes → checked type → text (OCR for images and pages without a text layer) → normalized chunks, with the
 * content hash used for duplicate detection.
 */
export async function prepareDocument(
  input: PrepareInput,
  limits: DocumentLimits = defaultDocumentLimits,
  services: { ocr?: DocumentOcr; log?: Logger; secrets?: readonly string[] } = {},
): Promise<PreparedDocument> {
  if (input.bytes.length > limits.maxDocumentBytes) return { ok: false, failure: { code: 'too-large', limitBytes: limits.maxDocumentBytes } };
  const detected = detectDocumentType(input.fileName, input.bytes, input.mime);
  if (!detected.ok) return detected;
  const reading = {
    ocr: services.ocr,
    limits: limits.ocr,
    ...(input.onProgress ? { onProgress: input.onProgress } : {}),
    ...(services.log ? { log: services.log } : {}),
  };
  // Twice the limit: normalizing removes whitespace and control characters; the exact check comes after it.
  const extracted = await extractText(detected.type, input.bytes, reading, { maxCharacters: limits.maxTextCharacters * 2, parse: limits.parse });
  const tooLong: IngestFailure = { code: 'too-long', limitCharacters: limits.maxTextCharacters };
  if (!extracted.ok) return extracted.failure.code === 'too-long' ? { ok: false, failure: tooLong } : extracted;
  // Checked before normalizing (and masking) as well: a small compressed PDF or DOCX can expand to far more text than bytes.
  if (extracted.sections.reduce((sum, section) => sum + section.text.length, 0) > limits.maxTextCharacters * 2) return { ok: false, failure: tooLong };
  const masking = maskSections(extracted.sections, services.secrets ?? []);
  if (!masking.ok) return { ok: false, failure: { code: 'hidden-credential', kinds: masking.kinds } };
  const joined = masking.sections.map((section) => section.text).join('\n\n');
  const text = normalizeText(joined);
  // An image or scan whose OCR found nothing is not an empty file: the user is told why.
  if (!text) return { ok: false, failure: detected.type === 'image' || detected.type === 'pdf' ? { code: 'scanned' } : { code: 'empty' } };
  if (text.length > limits.maxTextCharacters) return { ok: false, failure: tooLong };
  const hash = createHash('sha256').update(text).digest('hex');
  const chunks = chunkSections(masking.sections, limits.chunk);
  const masked = Object.keys(masking.masked).length > 0 ? { masked: masking.masked } : {};
  return { ok: true, type: detected.type, text, hash, chunks, ...(extracted.unreadPages ? { unreadPages: extracted.unreadPages } : {}), ...masked };
}
