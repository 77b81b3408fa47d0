import { describe, expect, it } from 'vitest';
import { describeIngestFailure } from '../../../../src/knowledge/ingest/ingest-failure.js';
import { defaultDocumentLimits, prepareDocument } from '../../../../src/knowledge/ingest/prepare-document.js';
import { makeDocx, makeEncryptedPdf, makePdf, makeScannedPdf, utf8 } from '../../../support/knowledge/documents.js';

async function prepared(fileName: string, bytes: Uint8Array, mime?: string) {
  return prepareDocument({ fileName, bytes, ...(mime ? { mime } : {}) });
}

async function textOf(fileName: string, bytes: Uint8Array): Promise<string> {
  const result = await prepared(fileName, bytes);
  if (!result.ok) throw new Error(`refused: ${result.failure.code}`);
  return result.text;
}

describe('prepareDocument: each format', () => {
  it('plain text in UTF-8, with BOM, UTF-16 and Windows-874 (TIS-620)', async () => {
    expect(await textOf('a.txt', utf8('นโยบาย ๒๕๖๗'))).toBe('นโยบาย 2567');
    expect(await textOf('b.txt', new Uint8Array([0xef, 0xbb, 0xbf, ...utf8('สวัสดี')]))).toBe('สวัสดี');
    expect(await textOf('c.txt', new Uint8Array([0xff, 0xfe, ...Buffer.from('สวัสดี', 'utf16le')]))).toBe('สวัสดี');
    expect(await textOf('d.txt', new Uint8Array([0xca, 0xc7, 0xd1, 0xca, 0xb4, 0xd5]))).toBe('สวัสดี');
  });

  it('Markdown loses its syntax but keeps its words', async () => {
    const text = await textOf('faq.md', utf8('# การคืนเงิน\n\n**ภายใน 30 วัน** ดู [ลิงก์](https://example.com)\n\n| ช่อง | ค่า |\n|---|---|\n| ก | ข |'));
    expect(text).toContain('การคืนเงิน');
    expect(text).toContain('ภายใน 30 วัน');
    expect(text).toContain('ลิงก์');
    expect(text).not.toMatch(/[#*[\]|]|https:/);
  });

  it('HTML without tags, scripts, styles or link targets', async () => {
    const text = await textOf(
      'page.html',
      utf8(
        '<html><head><style>p{color:red}</style><script>alert(1)</script></head><body><h1>ราคา</h1><p>แพ็กเกจ <a href="https://x.test">รายเดือน</a> 299 บาท</p><img src="a.png"></body></html>',
      ),
    );
    expect(text).toContain('ราคา');
    expect(text).toContain('แพ็กเกจ รายเดือน 299 บาท');
    expect(text).not.toMatch(/alert|color|https|<|a\.png/);
  });

  it('CSV becomes one "header: value" line per row', async () => {
    const text = await textOf('products.csv', utf8('\ufeffสินค้า,ราคา,หมายเหตุ\nกาแฟ,45,"ร้อน, เย็น"\nชา,,\n\n'));
    expect(text.split('\n')).toEqual(['สินค้า: กาแฟ; ราคา: 45; หมายเหตุ: ร้อน, เย็น', 'สินค้า: ชา']);
  });

  it('DOCX paragraphs', async () => {
    const text = await textOf('policy.docx', await makeDocx(['ระเบียบการลา', 'ลาพักร้อนได้ 10 วันต่อปี']));
    expect(text).toContain('ระเบียบการลา');
    expect(text).toContain('ลาพักร้อนได้ 10 วันต่อปี');
  });

  it('PDF text of every page', async () => {
    const text = await textOf('manual.pdf', await makePdf([['Refund policy: 30 days.'], ['Page two: shipping in 3 days.']]));
    expect(text).toContain('Refund policy: 30 days.');
    expect(text).toContain('Page two: shipping in 3 days.');
  });

  it('a PDF is chunked page by page: each chunk has its page, positions count on across pages', async () => {
    const long = Array.from({ length: 30 }, (_, index) => `Line ${index} of the first page.`);
    const result = await prepared('manual.pdf', await makePdf([long, [], ['Page three: shipping in 3 days.']]));
    if (!result.ok) throw new Error(result.failure.code);
    const small = await prepareDocument(
      { fileName: 'manual.pdf', bytes: await makePdf([long, ['Page two.']]) },
      { ...defaultDocumentLimits, chunk: { maxCharacters: 400, targetCharacters: 300, overlapCharacters: 60 } },
    );
    if (!small.ok) throw new Error(small.failure.code);
    expect(small.chunks.length).toBeGreaterThan(2);
    expect(small.chunks.map((chunk) => chunk.position)).toEqual(small.chunks.map((_, index) => index));
    // The overlap never carries page 1 into page 2's chunk.
    expect(small.chunks.at(-1)).toEqual({ position: small.chunks.length - 1, text: 'Page two.', page: 2 });
    expect(small.chunks.slice(0, -1).every((chunk) => chunk.page === 1)).toBe(true);
    // A blank page (no text, and no OCR handed in) in a PDF with text: the text pages are kept and the page is named.
    expect(result.unreadPages).toEqual([2]);
    expect(result.chunks.map((chunk) => chunk.page)).toEqual([1, 3]);
  });

  it('chunks, type and a stable content hash come with the text', async () => {
    const first = await prepared('x.txt', utf8('เนื้อหาเดียวกัน'));
    const second = await prepared('y.md', utf8('เนื้อหาเดียวกัน\n'));
    if (!first.ok || !second.ok) throw new Error('refused');
    expect(first.type).toBe('text');
    expect(second.type).toBe('markdown');
    expect(first.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(second.hash).toBe(first.hash);
    expect(first.chunks).toEqual([{ position: 0, text: 'เนื้อหาเดียวกัน' }]);
  });
});

describe('prepareDocument: refusals', () => {
  it.each([
    ['encrypted PDF', 'locked.pdf', makeEncryptedPdf, { code: 'encrypted' }],
    // No OCR handed in: a scan is refused with a reason, never added empty.
    ['scanned PDF without OCR', 'scan.pdf', makeScannedPdf, { code: 'ocr-unavailable', kind: 'scan' }],
    ['corrupt PDF', 'broken.pdf', async () => utf8('%PDF-1.7\nthis is not really a pdf'), { code: 'corrupt', type: 'pdf' }],
    ['truncated PDF', 'cut.pdf', async () => (await makePdf([['text']])).slice(0, 300), { code: 'corrupt', type: 'pdf' }],
    ['corrupt DOCX', 'broken.docx', async () => new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3, 4, 5]), { code: 'corrupt', type: 'docx' }],
    ['empty DOCX', 'empty.docx', () => makeDocx([]), { code: 'empty' }],
    ['empty file', 'empty.txt', async () => new Uint8Array(), { code: 'empty' }],
    ['blank text', 'blank.txt', async () => utf8(' \n\n\t\u200b '), { code: 'empty' }],
    ['CSV with a header only', 'header.csv', async () => utf8('name,price\n'), { code: 'empty' }],
    ['.pdf that is text', 'fake.pdf', async () => utf8('hello'), { code: 'type-mismatch', extension: '.pdf', actual: 'text' }],
  ])('%s', async (_name, fileName, make, failure) => {
    expect(await prepared(fileName, await make())).toEqual({ ok: false, failure });
  });

  it('refuses files over the size cap before parsing them', async () => {
    const result = await prepareDocument({ fileName: 'big.txt', bytes: utf8('ก'.repeat(100)) }, { ...defaultDocumentLimits, maxDocumentBytes: 50 });
    expect(result).toEqual({ ok: false, failure: { code: 'too-large', limitBytes: 50 } });
  });

  it('refuses text beyond the character cap', async () => {
    const result = await prepareDocument({ fileName: 'long.txt', bytes: utf8('ข้อความ '.repeat(100)) }, { ...defaultDocumentLimits, maxTextCharacters: 100 });
    expect(result).toEqual({ ok: false, failure: { code: 'too-long', limitCharacters: 100 } });
  });

  it('every refusal has a Thai and an English message', () => {
    const failures = [
      { code: 'too-large', limitBytes: 20 * 1024 * 1024 },
      { code: 'empty' },
      { code: 'encrypted' },
      { code: 'scanned' },
      { code: 'ocr-unavailable', kind: 'image' },
      { code: 'ocr-unavailable', kind: 'scan' },
      { code: 'ocr-failed' },
      { code: 'ocr-failed', page: 3 },
      { code: 'ocr-too-slow', limitSeconds: 600 },
      { code: 'too-many-pages', pages: 140, limit: 100 },
      { code: 'corrupt', type: 'pdf' },
      { code: 'corrupt', type: 'image' },
      { code: 'too-complex', type: 'docx' },
      { code: 'extract-too-slow', limitSeconds: 60 },
      { code: 'image-refused', refusal: { code: 'bad-shape', width: 49_000_000, height: 1, maxEdge: 25_000, maxAspect: 100 } },
      { code: 'type-mismatch', extension: '.pdf', actual: 'text' },
      { code: 'unsupported-type', extension: '.xlsx' },
      { code: 'too-long', limitCharacters: 3_000_000 },
      { code: 'duplicate', existingTitle: 'faq.md' },
      { code: 'unknown-knowledge-base' },
    ] as const;
    for (const failure of failures) {
      const thai = describeIngestFailure(failure, 'th');
      const english = describeIngestFailure(failure, 'en');
      expect(thai).toMatch(/[\u0e00-\u0e7f]/);
      expect(english).toMatch(/^[\x20-\x7e“”–]{10,}$/);
      expect(thai).not.toContain('{');
      expect(english).not.toContain('{');
    }
    expect(describeIngestFailure({ code: 'too-large', limitBytes: 20 * 1024 * 1024 }, 'en')).toContain('20 MB');
    expect(describeIngestFailure({ code: 'ocr-failed', page: 3 }, 'th')).toContain('(หน้า 3)');
    expect(describeIngestFailure({ code: 'too-many-pages', pages: 140, limit: 100 }, 'en')).toBe(
      'This document has 140 pages that need OCR (limit 100). Split it and send the parts.',
    );
    // Only the refusal for a missing OCR still tells the user to convert the file themselves.
    expect(describeIngestFailure({ code: 'scanned' }, 'en')).not.toMatch(/run OCR|convert/i);
    expect(describeIngestFailure({ code: 'ocr-unavailable', kind: 'scan' }, 'en')).toMatch(/Convert it to text first/);
  });
});
