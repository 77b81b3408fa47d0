import { describe, expect, it } from 'vitest';
import { detectDocumentType } from '../../../../src/knowledge/ingest/document-type.js';
import { utf8 } from '../../../support/knowledge/documents.js';

const pdfBytes = utf8('%PDF-1.7\n1 0 obj\n');
const zipBytes = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00]);
const pngBytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const legacyWord = new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]);
const binary = new Uint8Array([1, 2, 0, 3, 4]);
const text = utf8('สวัสดี');

describe('detectDocumentType', () => {
  it.each([
    ['notes.txt', text, '', 'text'],
    ['README.md', text, '', 'markdown'],
    ['page.HTM', text, '', 'html'],
    ['table.csv', text, '', 'csv'],
    ['table.tsv', text, '', 'csv'],
    ['report.pdf', pdfBytes, '', 'pdf'],
    ['report.pdf', utf8(`junk before the header\n%PDF-1.4\n`), '', 'pdf'],
    ['contract.docx', zipBytes, '', 'docx'],
    ['no-extension', pdfBytes, '', 'pdf'],
    ['no-extension', text, '', 'text'],
    ['no-extension', text, 'text/markdown; charset=utf-8', 'markdown'],
    ['utf16.txt', new Uint8Array([0xff, 0xfe, 0x41, 0x00]), '', 'text'],
  ])('%s (%s) → %s', (name, bytes, mime, expected) => {
    expect(detectDocumentType(name, bytes, mime)).toEqual({ ok: true, type: expected });
  });

  it.each([
    ['fake.pdf', text, { code: 'type-mismatch', extension: '.pdf', actual: 'text' }],
    ['fake.docx', text, { code: 'type-mismatch', extension: '.docx', actual: 'text' }],
    ['actually-a-pdf.txt', pdfBytes, { code: 'type-mismatch', extension: '.txt', actual: 'PDF' }],
    ['photo.md', pngBytes, { code: 'type-mismatch', extension: '.md', actual: 'image' }],
    ['binary.csv', binary, { code: 'type-mismatch', extension: '.csv', actual: 'binary data' }],
    ['old.doc', legacyWord, { code: 'unsupported-type', extension: '.doc' }],
    ['sheet.xlsx', zipBytes, { code: 'unsupported-type', extension: '.xlsx' }],
    ['photo.png', pngBytes, { code: 'unsupported-type', extension: '.png' }],
    ['no-extension', zipBytes, { code: 'unsupported-type', extension: 'ZIP/Office' }],
    ['empty.txt', new Uint8Array(), { code: 'empty' }],
  ])('%s is refused', (name, bytes, failure) => {
    expect(detectDocumentType(name, bytes)).toEqual({ ok: false, failure });
  });
});
