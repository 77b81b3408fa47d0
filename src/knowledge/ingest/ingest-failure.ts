import { escapeMarkdown } from '../../shared/markdown.js';
import { pick, say, type Localized } from '../../shared/i18n.js';
import type { ImageRefusal } from '../../shared/image-reading.js';
import { describeImageRefusal } from '../../shared/image-reading-text.js';
import type { Language } from '../../shared/types.js';
import type { DocumentType } from './document-type.js';

/** Why a document was not added: an expected outcome, returned as a value. */
export type IngestFailure =
  | { code: 'too-large'; limitBytes: number }
  | { code: 'empty' }
  | { code: 'encrypted' }
  /** No text layer and OCR found no text either (a photo, a drawing, a blank or illegible scan). */
  | { code: 'scanned' }
  /** An image, or a PDF page without a text layer, and no OCR on this server (tesseract or pdftoppm missing). */
  | { code: 'ocr-unavailable'; kind: 'image' | 'scan' }
  | { code: 'ocr-failed'; page?: number }
  | { code: 'ocr-too-slow'; limitSeconds: number }
  | { code: 'too-many-pages'; pages: number; limit: number }
  | { code: 'corrupt'; type: DocumentType }
  /** Reading it needs more memory than extraction may use (a ZIP bomb, millions of tiny XML nodes). */
  | { code: 'too-complex'; type: DocumentType }
  /** An image document refused before decoding (its shape, size or metadata): said as the chat says it. */
  | { code: 'image-refused'; refusal: ImageRefusal }
  /** The parser ran past its time limit and was stopped. */
  | { code: 'extract-too-slow'; limitSeconds: number }
  | { code: 'type-mismatch'; extension: string; actual: string }
  | { code: 'unsupported-type'; extension: string }
  | { code: 'too-long'; limitCharacters: number }
  | { code: 'duplicate'; existingTitle: string }
  /** The DLP scanner finds a credential it cannot locate to mask (hidden by look-alike or invisible characters). */
  | { code: 'hidden-credential'; kinds: string[] }
  | { code: 'unknown-knowledge-base' };

const typeNames: Record<DocumentType, string> = {
  text: 'text',
  markdown: 'Markdown',
  html: 'HTML',
  pdf: 'PDF',
  docx: 'DOCX',
  csv: 'CSV',
  image: 'image',
};

export const supportedTypesText = '.txt, .md, .html, .pdf, .docx, .csv, .png, .jpg, .webp';

const messages: Record<IngestFailure['code'], Localized> = {
  'too-large': {
    th: 'ไฟล์ใหญ่เกินไป (สูงสุด {limit})',
    en: 'The file is too large (limit {limit}).',
  },
  empty: { th: 'ไฟล์ว่างเปล่า ไม่มีข้อความให้เพิ่ม', en: 'The file is empty: there is no text to add.' },
  encrypted: {
    th: 'PDF นี้ถูกตั้งรหัสผ่านไว้ กรุณาปลดรหัสผ่านแล้วส่งใหม่',
    en: 'This PDF is password-protected. Remove the password and send it again.',
  },
  scanned: {
    th: 'ไม่พบข้อความในไฟล์นี้ แม้อ่านภาพด้วย OCR แล้ว (อาจเป็นภาพที่ไม่มีตัวอักษร หรือภาพไม่ชัด)',
    en: 'No text was found in this file, even by reading its images with OCR (a picture without text, or an unclear scan?).',
  },
  'ocr-unavailable': {
    th: '{what} แต่เซิร์ฟเวอร์นี้ยังไม่มี OCR (tesseract) กรุณาแปลงเป็นข้อความก่อนแล้วส่งใหม่',
    en: '{what}, but this server has no OCR (tesseract). Convert it to text first and send it again.',
  },
  'ocr-failed': {
    th: 'อ่านข้อความจากภาพไม่สำเร็จ{where} กรุณาลองใหม่ หรือส่งภาพที่ชัดกว่านี้',
    en: 'Reading the text of the image failed{where}. Try again, or send a clearer image.',
  },
  'ocr-too-slow': {
    th: 'อ่านภาพในเอกสารนี้นานเกิน {limit} วินาที กรุณาแบ่งเป็นไฟล์ที่เล็กลงแล้วส่งใหม่',
    en: 'Reading the images of this document took over {limit} seconds. Split it into smaller files and send them again.',
  },
  'too-many-pages': {
    th: 'เอกสารนี้มี {pages} หน้าที่ต้องอ่านด้วย OCR (สูงสุด {limit} หน้า) กรุณาแบ่งไฟล์แล้วส่งใหม่',
    en: 'This document has {pages} pages that need OCR (limit {limit}). Split it and send the parts.',
  },
  corrupt: { th: 'ไฟล์ {type} นี้เสียหรืออ่านไม่ได้', en: 'This {type} file is damaged or unreadable.' },
  'too-complex': {
    th: 'ไฟล์ {type} นี้มีโครงสร้างซับซ้อนหรือขยายตัวมากเกินกว่าจะอ่านได้อย่างปลอดภัย กรุณาบันทึกเป็น PDF หรือข้อความ หรือแบ่งเป็นไฟล์ที่เล็กลงแล้วส่งใหม่',
    en: 'This {type} file is too complex (or expands too much) to read safely. Save it as PDF or plain text, or split it, and send it again.',
  },
  'image-refused': { th: 'ใช้รูปนี้ไม่ได้: {reason}', en: 'This image cannot be used: {reason}.' },
  'extract-too-slow': {
    th: 'อ่านไฟล์นี้นานเกิน {limit} วินาทีจึงหยุดไว้ กรุณาแบ่งเป็นไฟล์ที่เล็กลงแล้วส่งใหม่',
    en: 'Reading this file took over {limit} seconds and was stopped. Split it into smaller files and send them again.',
  },
  'type-mismatch': {
    th: 'ไฟล์นี้ใช้นามสกุล {extension} แต่เนื้อในเป็น {actual}',
    en: 'This file is named {extension} but its content is {actual}.',
  },
  'unsupported-type': {
    th: 'ยังไม่รองรับไฟล์ประเภท {extension} (รองรับ: {supported})',
    en: 'Files of type {extension} are not supported (supported: {supported}).',
  },
  'too-long': {
    th: 'เอกสารยาวเกินไป (สูงสุด {limit} ตัวอักษร)',
    en: 'The document is too long (limit {limit} characters).',
  },
  duplicate: {
    th: 'มีเอกสารเนื้อหาเดียวกันอยู่แล้ว: “{title}”',
    en: 'A document with the same content is already there: “{title}”.',
  },
  'unknown-knowledge-base': { th: 'ไม่พบคลังความรู้นี้', en: 'This knowledge base does not exist.' },
  'hidden-credential': {
    th: 'ไม่ได้เพิ่ม เพราะเอกสารมีข้อมูลที่ดูเหมือนรหัสลับ ({kinds}) ซ่อนอยู่ในรูปที่ระบบปิดบังให้ไม่ได้ (ตัวอักษรหน้าตาคล้าย อักขระล่องหน หรือขึ้นบรรทัดกลางค่า) กรุณาลบค่านั้นออกแล้วส่งใหม่',
    en: 'Not added: the document holds what looks like a secret ({kinds}) in a form that cannot be masked (look-alike letters, invisible characters or a line break inside it). Remove the value and send it again.',
  },
};

const imageWhat: Localized = { th: 'ไฟล์ภาพต้องอ่านด้วย OCR', en: 'An image needs OCR' };
const scanWhat: Localized = {
  th: 'PDF นี้มีหน้าที่ไม่มีชั้นข้อความ (ภาพสแกน) ต้องอ่านด้วย OCR',
  en: 'This PDF has pages without a text layer (scans) that need OCR',
};
const pageWhere: Localized = { th: ' (หน้า {page})', en: ' (page {page})' };

/** 20971520 → "20 MB". */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
  if (bytes >= 1024) return `${Math.round((bytes / 1024) * 10) / 10} KB`;
  return `${bytes} B`;
}

export function describeIngestFailure(failure: IngestFailure, language: Language): string {
  const message = messages[failure.code];
  switch (failure.code) {
    case 'too-large':
      return say(message, language, { limit: formatBytes(failure.limitBytes) });
    case 'corrupt':
    case 'too-complex':
      return say(message, language, { type: typeNames[failure.type] });
    case 'extract-too-slow':
      return say(message, language, { limit: failure.limitSeconds });
    case 'image-refused':
      return say(message, language, { reason: describeImageRefusal(failure.refusal, language) });
    case 'type-mismatch':
      return say(message, language, { extension: failure.extension, actual: failure.actual });
    case 'unsupported-type':
      return say(message, language, { extension: failure.extension || '?', supported: supportedTypesText });
    case 'too-long':
      return say(message, language, { limit: failure.limitCharacters.toLocaleString('en-US') });
    case 'duplicate':
      // A title users chose, shown in a chat notice: escaped so it renders as typed.
      return say(message, language, { title: escapeMarkdown(failure.existingTitle) });
    case 'hidden-credential':
      return say(message, language, { kinds: failure.kinds.join(', ') });
    case 'ocr-unavailable':
      return say(message, language, { what: pick(failure.kind === 'image' ? imageWhat : scanWhat, language) });
    case 'ocr-failed':
      return say(message, language, { where: failure.page === undefined ? '' : say(pageWhere, language, { page: failure.page }) });
    case 'ocr-too-slow':
      return say(message, language, { limit: failure.limitSeconds });
    case 'too-many-pages':
      return say(message, language, { pages: failure.pages, limit: failure.limit });
    case 'empty':
    case 'encrypted':
    case 'scanned':
    case 'unknown-knowledge-base':
      return say(message, language);
  }
}
