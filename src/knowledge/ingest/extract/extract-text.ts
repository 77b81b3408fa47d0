import type { OcrReading } from '../document-ocr.js';
import type { DocumentType } from '../document-type.js';
import type { IngestFailure } from '../ingest-failure.js';
import { readImage } from '../read-scanned-pages.js';
import { csvToPlainText } from './csv.js';
import { decodeText } from './decode-text.js';
import { docxToPlainText } from './docx.js';
import { htmlToPlainText } from './html.js';
import { markdownToPlainText } from './markdown.js';
import { pdfSections } from './pdf-sections.js';

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

function whole(text: string): ExtractionResult {
  return { ok: true, sections: [{ text }] };
}

/** The readable text of a document whose type was already checked against its bytes. */
export async function extractText(type: DocumentType, bytes: Uint8Array, reading: OcrReading): Promise<ExtractionResult> {
  switch (type) {
    case 'pdf':
      return pdfSections(bytes, reading);
    case 'image': {
      const image = await readImage(bytes, reading);
      return image.ok ? whole(image.text) : image;
    }
    case 'docx': {
      const docx = await docxToPlainText(bytes);
      return docx.ok ? whole(docx.text) : { ok: false, failure: { code: 'corrupt', type } };
    }
    case 'html':
      return whole(htmlToPlainText(decodeText(bytes)));
    case 'markdown':
      return whole(markdownToPlainText(decodeText(bytes)));
    case 'csv':
      return whole(csvToPlainText(decodeText(bytes)));
    case 'text':
      return whole(decodeText(bytes));
  }
}
