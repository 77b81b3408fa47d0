import { describe, expect, it } from 'vitest';
import { renderPdfPage } from '../../../../../src/knowledge/ingest/extract/render-pdf-page.js';
import { renderScannedPage } from '../../../../../src/knowledge/ingest/extract/render-scanned-page.js';
import { makePdf, utf8 } from '../../../../support/knowledge/documents.js';
import { pdftoppmProgram, systemProgramPresent } from '../../../../support/system-programs.js';

const options = { dpi: 200, timeoutMs: 30_000, maxBytes: 16 * 1024 * 1024 };
const pngSignature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

describe.skipIf(!systemProgramPresent(pdftoppmProgram))('renderPdfPage (pdftoppm)', () => {
  it('renders the asked page as a PNG at the asked resolution', async () => {
    const pdf = await makePdf([['one'], ['two']]);
    const rendered = await renderPdfPage(pdf, { ...options, page: 2 });
    if (!rendered.ok) throw new Error(rendered.detail);
    expect([...rendered.png.subarray(0, 8)]).toEqual(pngSignature);
    // pdf-lib's default page is A4 (595.28 × 841.89 pt): 1654 × 2339 pixels at 200 dpi (width and height in IHDR).
    const header = Buffer.from(rendered.png);
    expect([header.readUInt32BE(16), header.readUInt32BE(20)]).toEqual([1654, 2339]);
  });

  it('fails plainly on a page that does not exist, a broken PDF, a missing pdftoppm, an output cap and an abort', async () => {
    const pdf = await makePdf([['one']]);
    expect(await renderPdfPage(pdf, { ...options, page: 5 })).toMatchObject({ ok: false, reason: 'failed' });
    expect(await renderPdfPage(utf8('%PDF-1.7\nnot a pdf'), { ...options, page: 1 })).toMatchObject({ ok: false, reason: 'failed' });
    expect(await renderPdfPage(pdf, { ...options, page: 1, command: '/nonexistent/pdftoppm' })).toMatchObject({ ok: false, reason: 'unavailable' });
    expect(await renderPdfPage(pdf, { ...options, page: 1, maxBytes: 100 })).toMatchObject({ ok: false, reason: 'too-large' });
    const controller = new AbortController();
    const rendering = renderPdfPage(pdf, { ...options, page: 1, signal: controller.signal });
    controller.abort();
    expect(await rendering).toMatchObject({ ok: false, reason: 'cancelled' });
    expect(await renderPdfPage(pdf, { ...options, page: 1, signal: controller.signal })).toMatchObject({ ok: false, reason: 'cancelled' });
  });
});

describe('renderScannedPage without pdftoppm (pdf.js in a worker process)', () => {
  const noPoppler = { ...options, pdftoppm: '/nonexistent/pdftoppm' };

  it('renders the asked page as a PNG at the asked resolution', async () => {
    const pdf = await makePdf([['one'], ['two']]);
    const rendered = await renderScannedPage(pdf, { ...noPoppler, page: 2 });
    if (!rendered.ok) throw new Error(rendered.detail);
    expect([...rendered.png.subarray(0, 8)]).toEqual(pngSignature);
    const header = Buffer.from(rendered.png);
    // A4 at 200 dpi is 1653.6 × 2338.6 pixels: pdftoppm rounds up, the canvas down.
    expect(Math.abs(header.readUInt32BE(16) - 1654)).toBeLessThanOrEqual(1);
    expect(Math.abs(header.readUInt32BE(20) - 2339)).toBeLessThanOrEqual(1);
  });

  it('fails plainly on a page that does not exist, a broken PDF, a raster over the cap and an abort', async () => {
    const pdf = await makePdf([['one']]);
    expect(await renderScannedPage(pdf, { ...noPoppler, page: 5 })).toMatchObject({ ok: false, reason: 'failed' });
    expect(await renderScannedPage(utf8('%PDF-1.7\nnot a pdf'), { ...noPoppler, page: 1 })).toMatchObject({ ok: false, reason: 'failed' });
    expect(await renderScannedPage(pdf, { ...noPoppler, page: 1, maxBytes: 100 })).toMatchObject({ ok: false, reason: 'too-large' });
    const controller = new AbortController();
    const rendering = renderScannedPage(pdf, { ...noPoppler, page: 1, signal: controller.signal });
    controller.abort();
    expect(await rendering).toMatchObject({ ok: false, reason: 'cancelled' });
    expect(await renderScannedPage(pdf, { ...noPoppler, page: 1, signal: controller.signal })).toMatchObject({ ok: false, reason: 'cancelled' });
  });
});
