import { say, type Localized } from '../../shared/i18n.js';
import type { Language } from '../../shared/types.js';
import type { DocumentType } from './document-type.js';

/** Why a document was not added: an expected outcome, returned as a value. */
export type IngestFailure =
  | { code: 'too-large'; limitBytes: number }
  | { code: 'empty' }
  | { code: 'encrypted' }
  | { code: 'scanned' }
  | { code: 'corrupt'; type: DocumentType }
  | { code: 'type-mismatch'; extension: string; actual: string }
  | { code: 'unsupported-type'; extension: string }
  | { code: 'too-long'; limitCharacters: number }
  | { code: 'duplicate'; existingTitle: string }
  | { code: 'unknown-knowledge-base' };

const typeNames: Record<DocumentType, string> = {
  text: 'text',
  markdown: 'Markdown',
  html: 'HTML',
  pdf: 'PDF',
  docx: 'DOCX',
  csv: 'CSV',
};

export const supportedTypesText = '.txt, .md, .html, .pdf, .docx, .csv';

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
    th: 'PDF นี้ไม่มีชั้นข้อความ (น่าจะเป็นภาพสแกน) กรุณาแปลงด้วย OCR ก่อน',
    en: 'This PDF has no text layer (probably a scan). Run OCR on it first.',
  },
  corrupt: { th: 'ไฟล์ {type} นี้เสียหรืออ่านไม่ได้', en: 'This {type} file is damaged or unreadable.' },
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
};

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
      return say(message, language, { type: typeNames[failure.type] });
    case 'type-mismatch':
      return say(message, language, { extension: failure.extension, actual: failure.actual });
    case 'unsupported-type':
      return say(message, language, { extension: failure.extension || '?', supported: supportedTypesText });
    case 'too-long':
      return say(message, language, { limit: failure.limitCharacters.toLocaleString('en-US') });
    case 'duplicate':
      return say(message, language, { title: failure.existingTitle });
    case 'empty':
    case 'encrypted':
    case 'scanned':
    case 'unknown-knowledge-base':
      return say(message, language);
  }
}
