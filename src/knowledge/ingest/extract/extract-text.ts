import type { OcrReading } from '../document-ocr.js';
import type { DocumentType } from '../document-type.js';
import type { IngestFailure } from '../ingest-failure.js';
import { readImage } from '../read-scanned-pages.js';
import { parseDocument } from './parse-document.js';
import { parseInWorker, type ParseLimits } from './parse-in-worker.js';
import { pdfSections } from './pdf-sections.js';
import { zipDirectoryFailure } from './zip-directory.js';

/** A part of a document that is chunked on its own: a PDF page (1-based `page`), or the whole of anything else. */
export interface TextSection {
  page?: number;
  text: string;
}

export type ExtractionResult =
  | {
      ok: true;
      sections: TextSection[];
      /** PDF pages without a text layer that could not be OCR'd (no OCR on this server); the rest was read. */
      unreadPages?: number[];
    }
  | { ok: false; failure: IngestFailure };

export interface ExtractionLimits {
  /** Text a parser may hand back (the worker refuses more before copying it out). */
  maxCharacters: number;
  parse: ParseLimits;
}

/**
 * The readable text of a document whose type was already checked against its bytes: images through OCR, every
 * other type but plain text parsed in a worker with a heap cap and a deadline (a DOCX's ZIP directory is checked
 * first).
 */
export async function extractText(type: DocumentType, bytes: Uint8Array, reading: OcrReading, limits: ExtractionLimits): Promise<ExtractionResult> {
  if (type === 'image') {
    const image = await readImage(bytes, reading);
    return image.ok ? { ok: true, sections: [{ text: image.text }] } : image;
  }
  if (type === 'docx') {
    const bomb = zipDirectoryFailure(bytes);
    if (bomb) return { ok: false, failure: bomb };
  }
  // Plain text is only decoded (no object tree, at most as many characters as bytes): no worker to start for it.
  const request = { type, bytes, maxCharacters: limits.maxCharacters };
  const parsed = type === 'text' ? await parseDocument(request) : await parseInWorker(request, limits.parse);
  if (!parsed.ok) return parsed;
  if ('pages' in parsed) return pdfSections(bytes, parsed.pages, reading);
  return { ok: true, sections: [{ text: parsed.text }] };
}
