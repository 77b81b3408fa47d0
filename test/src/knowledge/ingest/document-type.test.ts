import { describe, expect, it } from 'vitest';
import { detectDocumentType } from '../../../../src/knowledge/ingest/document-type.js';
import { utf8 } from '../../../support/knowledge/documents.js';

const pdfBytes = utf8('%PDF-1.7\n1 0 obj\n');
const zipBytes = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00]);
const pngBytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const jpegBytes = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]);
const webpBytes = new Uint8Array([0x52, 0x49, 0x46, 0x46, 0x24, 0x00, 0x00, 0x00, 0x57, 0x45, 0x42, 0x50, 0x56, 0x50, 0x38, 0x20]);
const gifBytes = utf8('GIF89a\x01\x00');
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
    ['photo.png', pngBytes, '', 'image'],
    ['scan.JPG', jpegBytes, '', 'image'],
    ['scan.jpeg', jpegBytes, '', 'image'],
    ['shot.webp', webpBytes, '', 'image'],
    // Any of the three is an image: a photo saved as .png by a phone app is often a JPEG.
    ['misnamed.png', jpegBytes, '', 'image'],
    ['no-extension', pngBytes, '', 'image'],
    ['no-extension', webpBytes, 'image/webp', 'image'],
    // "BM" is a BMP signature, but a text file may start with it too.
    ['cars.txt', utf8('BMW 320d ราคา'), '', 'text'],
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
    ['animation.png', gifBytes, { code: 'type-mismatch', extension: '.png', actual: 'GIF image' }],
    ['photo.jpg', text, { code: 'type-mismatch', extension: '.jpg', actual: 'text' }],
    ['animation.gif', gifBytes, { code: 'unsupported-type', extension: '.gif' }],
    ['no-extension', zipBytes, { code: 'unsupported-type', extension: 'ZIP/Office' }],
    ['empty.txt', new Uint8Array(), { code: 'empty' }],
  ])('%s is refused', (name, bytes, failure) => {
    expect(detectDocumentType(name, bytes)).toEqual({ ok: false, failure });
  });
});
