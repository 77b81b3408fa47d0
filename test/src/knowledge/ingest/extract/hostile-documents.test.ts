import { describe, expect, it } from 'vitest';
import { parseInWorker } from '../../../../../src/knowledge/ingest/extract/parse-in-worker.js';
import { zipDirectoryFailure } from '../../../../../src/knowledge/ingest/extract/zip-directory.js';
import { defaultDocumentLimits, prepareDocument } from '../../../../../src/knowledge/ingest/prepare-document.js';
import { docxWithBody, hostileDocx, hostileVariedDocx, plainDocx, zipFile } from '../../../../support/hostile-documents.js';

// Documents that are small on the wire and huge to parse: refused as values, in this process, which lives on.

describe('the ZIP directory check (before anything is inflated)', () => {
  it('passes an ordinary DOCX', () => {
    expect(zipDirectoryFailure(plainDocx(['สวัสดี', 'hello']))).toBeNull();
  });

  it('refuses an entry that compresses like a bomb, and a directory that claims too much in all', () => {
    expect(zipDirectoryFailure(hostileDocx(3_000_000))).toEqual({ code: 'too-complex', type: 'docx' });
    const many = zipFile([{ name: 'a.xml', data: Buffer.from('x'), declaredSize: 200 * 1024 * 1024 }]);
    expect(zipDirectoryFailure(many)).toEqual({ code: 'too-complex', type: 'docx' });
  });

  it('says a ZIP without a directory is damaged', () => {
    expect(zipDirectoryFailure(plainDocx(['x']).subarray(0, 60))).toEqual({ code: 'corrupt', type: 'docx' });
  });
});

describe('parsing in a worker with a heap cap and a deadline', () => {
  it('reads an ordinary DOCX', async () => {
    const prepared = await prepareDocument({ fileName: 'a.docx', bytes: plainDocx(['นโยบายคืนเงิน 30 วัน']) });
    expect(prepared).toMatchObject({ ok: true, type: 'docx', text: 'นโยบายคืนเงิน 30 วัน' });
  });

  it('refuses a DOCX whose directory lies about its size as too complex when mammoth runs out of the worker heap', async () => {
    // Declared 1 KB, so the directory check passes; jszip stops at the size mismatch — or the heap does.
    const liar = hostileDocx(3_000_000, 1000);
    const prepared = await prepareDocument({ fileName: 'liar.docx', bytes: liar });
    expect(prepared.ok).toBe(false);
    expect(process.memoryUsage().heapUsed).toBeLessThan(256 * 1024 * 1024);
  });

  it('a DOCX that deflates like ordinary XML (passes the directory check) ends only its worker', async () => {
    const prepared = await prepareDocument(
      { fileName: 'runs.docx', bytes: hostileVariedDocx(1_500_000) },
      { ...defaultDocumentLimits, parse: { memoryMb: 64, timeoutMs: 120_000 } },
    );
    expect(prepared).toEqual({ ok: false, failure: { code: 'too-complex', type: 'docx' } });
    // This process is alive and parses the next one.
    expect(await prepareDocument({ fileName: 'b.docx', bytes: plainDocx(['ต่อไป']) })).toMatchObject({ ok: true, text: 'ต่อไป' });
  }, 180_000);

  it('stops a parser past its deadline', async () => {
    const body = '<w:p><w:r><w:t>x</w:t></w:r></w:p>'.repeat(20_000);
    expect(await parseInWorker({ type: 'docx', bytes: docxWithBody(body), maxCharacters: 1_000_000 }, { memoryMb: 128, timeoutMs: 1 })).toEqual({
      ok: false,
      failure: { code: 'extract-too-slow', limitSeconds: 1 },
    });
  });

  it('refuses text over the limit inside the worker', async () => {
    expect(await parseInWorker({ type: 'text', bytes: Buffer.from('ก'.repeat(5000)), maxCharacters: 100 })).toEqual({
      ok: false,
      failure: { code: 'too-long', limitCharacters: 100 },
    });
  });
});
