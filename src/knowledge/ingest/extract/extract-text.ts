import type { DocumentType } from '../document-type.js';
import type { IngestFailure } from '../ingest-failure.js';
import { csvToPlainText } from './csv.js';
import { decodeText } from './decode-text.js';
import { docxToPlainText } from './docx.js';
import { htmlToPlainText } from './html.js';
import { markdownToPlainText } from './markdown.js';
import { pdfToPlainText } from './pdf.js';

export type ExtractionResult = { ok: true; text: string } | { ok: false; failure: IngestFailure };

/** The readable text of a document whose type was already checked against its bytes. */
export async function extractText(type: DocumentType, bytes: Uint8Array): Promise<ExtractionResult> {
  switch (type) {
    case 'pdf': {
      const pdf = await pdfToPlainText(bytes);
      if (pdf.ok) return pdf;
      return { ok: false, failure: pdf.reason === 'corrupt' ? { code: 'corrupt', type } : { code: pdf.reason } };
    }
    case 'docx': {
      const docx = await docxToPlainText(bytes);
      return docx.ok ? docx : { ok: false, failure: { code: 'corrupt', type } };
    }
    case 'html':
      return { ok: true, text: htmlToPlainText(decodeText(bytes)) };
    case 'markdown':
      return { ok: true, text: markdownToPlainText(decodeText(bytes)) };
    case 'csv':
      return { ok: true, text: csvToPlainText(decodeText(bytes)) };
    case 'text':
      return { ok: true, text: decodeText(bytes) };
  }
}
