import type { OcrReading } from '../document-ocr.js';
import { readScannedPages } from '../read-scanned-pages.js';
import type { ExtractionResult } from './extract-text.js';

/**
 * A PDF page by page (`pageTexts`: its text layer, read in the extraction worker): the text layer where a page has one, OCR of the rendered page where it has none (every
 * page of a scan, some pages of a mixed PDF). A mixed PDF on a server without OCR keeps its text pages and
 * says which were not read; a PDF with no text at all is then refused.
 */
export async function pdfSections(bytes: Uint8Array, pageTexts: readonly string[], reading: OcrReading): Promise<ExtractionResult> {
  const textPages = pageTexts.map((text, index) => ({ page: index + 1, text }));
  const scanned = textPages.filter((section) => !section.text).map((section) => section.page);
  if (scanned.length === 0) return { ok: true, sections: textPages };
  const read = await readScannedPages(bytes, scanned, pageTexts.length, reading);
  if (read.ok) return { ok: true, sections: textPages.map((section) => ({ page: section.page, text: section.text || (read.texts.get(section.page) ?? '') })) };
  if (read.failure.code === 'ocr-unavailable' && scanned.length < textPages.length) {
    reading.log?.info({ unreadPages: scanned.length }, 'knowledge: no OCR, PDF added with its text pages only');
    return { ok: true, sections: textPages, unreadPages: scanned };
  }
  return read;
}
