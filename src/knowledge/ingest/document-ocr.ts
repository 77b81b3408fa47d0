import type { OcrResult } from '../../shared/image-reading.js';
import type { Logger } from '../../shared/log.js';

// What ingest needs of OCR, and nothing more. The engine (src/ocr) is handed in by the composition root, so
// src/knowledge never imports it; without one, images and scanned pages are refused, never added empty.

export interface DocumentOcr {
  /** The text of one image (PNG/JPEG/WebP bytes). Never throws: a failure is a result. */
  read(imageBytes: Uint8Array, signal?: AbortSignal): Promise<OcrResult>;
}

/** One page OCR'd: `page` of `pages` in the document; `done` of `toRead` pages that need OCR. */
export interface OcrProgress {
  page: number;
  pages: number;
  done: number;
  toRead: number;
}

export interface OcrLimits {
  /** Pages without a text layer that one document may have OCR'd; more is refused before any work. */
  maxOcrPages: number;
  /** Wall time for all of one document's OCR; past it the document is refused (split it and send the parts). */
  timeBudgetMs: number;
  /** One page rendered (by pdftoppm, or by pdf.js where poppler is not installed). */
  renderTimeoutMs: number;
  /** A rendered page image larger than this is refused (200 dpi grey A4 is well under 2 MB). */
  maxPageImageBytes: number;
  /** Rendering resolution: 200 dpi reads Thai marks well and keeps tesseract at 1–2 s a page. */
  dpi: number;
}

export const defaultOcrLimits: OcrLimits = {
  maxOcrPages: 100,
  timeBudgetMs: 10 * 60_000,
  renderTimeoutMs: 60_000,
  maxPageImageBytes: 32 * 1024 * 1024,
  dpi: 200,
};

/** How a document gets its scanned parts read: the engine, the limits, and who wants to hear about each page. */
export interface OcrReading {
  ocr: DocumentOcr | undefined;
  limits: OcrLimits;
  onProgress?: (progress: OcrProgress) => void;
  log?: Logger;
}
