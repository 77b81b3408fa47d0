import { sniffImageFormat } from '../../images/sniff-image-format.js';
import type { IngestFailure } from './ingest-failure.js';

// The type comes from the extension (or the MIME type when there is none) and must agree with the bytes:
// a ".pdf" that is not a PDF is refused with a clear message instead of failing deep inside a parser.

/** `image`: a photo or scan of text, read by OCR. */
export type DocumentType = 'text' | 'markdown' | 'html' | 'pdf' | 'docx' | 'csv' | 'image';

/** `image` is what OCR reads (PNG, JPEG, WebP); `other-image` (GIF) is recognized only to name it. */
type Content = 'pdf' | 'zip' | 'legacy-office' | 'image' | 'other-image' | 'binary' | 'text';

const byExtension: Record<string, DocumentType> = {
  txt: 'text',
  text: 'text',
  log: 'text',
  md: 'markdown',
  markdown: 'markdown',
  html: 'html',
  htm: 'html',
  pdf: 'pdf',
  docx: 'docx',
  csv: 'csv',
  tsv: 'csv',
  png: 'image',
  jpg: 'image',
  jpeg: 'image',
  webp: 'image',
};

const byMime: Record<string, DocumentType> = {
  'text/plain': 'text',
  'text/markdown': 'markdown',
  'text/x-markdown': 'markdown',
  'text/html': 'html',
  'application/pdf': 'pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'text/csv': 'csv',
  'text/tab-separated-values': 'csv',
  'image/png': 'image',
  'image/jpeg': 'image',
  'image/webp': 'image',
};

const contentNames: Record<Content, string> = {
  pdf: 'PDF',
  zip: 'ZIP/Office',
  'legacy-office': 'Office 97–2003',
  image: 'image',
  'other-image': 'GIF image',
  binary: 'binary data',
  text: 'text',
};

function startsWith(bytes: Uint8Array, signature: readonly number[], offset = 0): boolean {
  return signature.every((byte, index) => bytes[offset + index] === byte);
}

function hasUtf16Bom(bytes: Uint8Array): boolean {
  return startsWith(bytes, [0xff, 0xfe]) || startsWith(bytes, [0xfe, 0xff]);
}

/** Magic bytes; PDF readers accept the header anywhere in the first 1 KB, so do we. */
function sniff(bytes: Uint8Array): Content {
  const head = bytes.subarray(0, 1024);
  const pdfMarker = [0x25, 0x50, 0x44, 0x46, 0x2d]; // %PDF-
  for (let offset = 0; offset + pdfMarker.length <= head.length; offset += 1) {
    if (startsWith(head, pdfMarker, offset)) return 'pdf';
  }
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) return 'zip';
  if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return 'legacy-office';
  // The same sniffing as chat images: one list of what we read.
  const image = sniffImageFormat(bytes);
  if (image?.accepted) return image.format === 'gif' ? 'other-image' : 'image';
  if (hasUtf16Bom(bytes)) return 'text';
  return bytes.subarray(0, 8192).includes(0) ? 'binary' : 'text';
}

/** "Report.Final.PDF" → "pdf"; "" when the name has no extension. */
export function extensionOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  if (dot <= 0 || dot === fileName.length - 1) return '';
  return fileName
    .slice(dot + 1)
    .toLowerCase()
    .slice(0, 16);
}

const requiredContent: Record<DocumentType, Content> = {
  text: 'text',
  markdown: 'text',
  html: 'text',
  csv: 'text',
  pdf: 'pdf',
  docx: 'zip',
  image: 'image',
};

export type DetectionResult = { ok: true; type: DocumentType } | { ok: false; failure: IngestFailure };

export function detectDocumentType(fileName: string, bytes: Uint8Array, mime = ''): DetectionResult {
  if (bytes.length === 0) return { ok: false, failure: { code: 'empty' } };
  const extension = extensionOf(fileName);
  const content = sniff(bytes);
  const declared = extension ? byExtension[extension] : byMime[mime.split(';')[0]?.trim().toLowerCase() ?? ''];
  if (declared) {
    if (requiredContent[declared] === content) return { ok: true, type: declared };
    return { ok: false, failure: { code: 'type-mismatch', extension: extension ? `.${extension}` : mime, actual: contentNames[content] } };
  }
  // No known extension: trust only content we can recognize on its own.
  if (!extension && content === 'pdf') return { ok: true, type: 'pdf' };
  if (!extension && content === 'text') return { ok: true, type: 'text' };
  if (!extension && content === 'image') return { ok: true, type: 'image' };
  return { ok: false, failure: { code: 'unsupported-type', extension: extension ? `.${extension}` : contentNames[content] } };
}
