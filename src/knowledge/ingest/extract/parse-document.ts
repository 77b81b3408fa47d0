import type { IngestFailure } from '../ingest-failure.js';
import { decodeText } from './decode-text.js';

// The third-party parsers, run inside the extraction worker (parse-in-worker.ts): what comes back is plain data
// that crosses the thread boundary, and text over `maxCharacters` is refused in the worker, so a huge string is
// never copied to the bot's heap. Each parser is imported when its type comes: a worker loads only the one it needs.

/** Every document type a parser reads (images go to OCR instead). */
export type ParsedType = 'pdf' | 'docx' | 'html' | 'markdown' | 'csv' | 'text';

export type ParsedDocument = { ok: true; text: string } | { ok: true; pages: string[] } | { ok: false; failure: IngestFailure };

export interface ParseRequest {
  type: ParsedType;
  bytes: Uint8Array;
  maxCharacters: number;
}

export async function parseDocument(request: ParseRequest): Promise<ParsedDocument> {
  const tooLong: ParsedDocument = { ok: false, failure: { code: 'too-long', limitCharacters: request.maxCharacters } };
  const whole = (text: string): ParsedDocument => (text.length > request.maxCharacters ? tooLong : { ok: true, text });
  switch (request.type) {
    case 'pdf': {
      const { pdfPageTexts } = await import('./pdf.js');
      const layer = await pdfPageTexts(request.bytes);
      if (!layer.ok) return { ok: false, failure: layer.reason === 'corrupt' ? { code: 'corrupt', type: 'pdf' } : { code: layer.reason } };
      const characters = layer.pages.reduce((sum, page) => sum + page.length, 0);
      return characters > request.maxCharacters ? tooLong : { ok: true, pages: layer.pages };
    }
    case 'docx': {
      const { docxToPlainText } = await import('./docx.js');
      const docx = await docxToPlainText(request.bytes);
      return docx.ok ? whole(docx.text) : { ok: false, failure: { code: 'corrupt', type: 'docx' } };
    }
    case 'html': {
      const { htmlToPlainText } = await import('./html.js');
      return whole(htmlToPlainText(decodeText(request.bytes)));
    }
    case 'markdown': {
      const { markdownToPlainText } = await import('./markdown.js');
      return whole(markdownToPlainText(decodeText(request.bytes)));
    }
    case 'csv': {
      const { csvToPlainText } = await import('./csv.js');
      return whole(csvToPlainText(decodeText(request.bytes)));
    }
    case 'text':
      return whole(decodeText(request.bytes));
  }
}
