import { afterEach, describe, expect, it } from 'vitest';
import { naiveRagContext, openKnowledgeStore, type KnowledgeStore, type OcrProgress } from '../../../src/knowledge/index.js';
import type { OcrLimits } from '../../../src/knowledge/index.js';
import { silentLogger } from '../../../src/shared/log.js';
import { makePagesPdf } from '../../support/knowledge/documents.js';
import { renderTextImage, thaiReceiptText } from '../../support/text-images.js';
import { countingOcr, type CountingOcr } from '../../support/knowledge/counting-ocr.js';

// Images and scans added through the real store, read by the real tesseract (tha+eng): ~1 s a page.

const now = new Date('2026-03-01T09:00:00Z');
const pageOne = ['คู่มือสมาชิกร้านกาแฟแสงเช้า', 'สมัครสมาชิกได้ที่หน้าร้านทุกสาขา', 'บัตรสมาชิกใช้สะสมแต้มทุกครั้งที่ซื้อ'].join('\n');
const pageTwo = ['สิทธิพิเศษของสมาชิก', 'สมาชิกได้รับส่วนลดสิบห้าเปอร์เซ็นต์ทุกวันพุธ', 'แต้มสะสมแลกเครื่องดื่มฟรีได้'].join('\n');

const stores: KnowledgeStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

async function setup(ocr: CountingOcr | undefined, ocrLimits: Partial<OcrLimits> = {}) {
  const store = openKnowledgeStore({ path: ':memory:', log: silentLogger(), ...(ocr ? { ocr } : {}), ocrLimits });
  stores.push(store);
  const created = await store.createKnowledgeBase({ name: 'ocr', description: '', spaceKey: 'discord:guild-1', createdBy: 'discord:admin', now });
  if (!created.ok) throw new Error(created.reason);
  await store.bind('discord:chan-1', created.knowledgeBase.id, 'discord:admin', now);
  const add = (fileName: string, bytes: Uint8Array, onProgress?: (progress: OcrProgress) => void) =>
    store.addDocument(created.knowledgeBase.id, { fileName, bytes, addedBy: 'discord:admin', now, ...(onProgress ? { onProgress } : {}) });
  return { store, id: created.knowledgeBase.id, add };
}

const scannedPage = (text: string) => renderTextImage({ text });

describe('knowledge bases read scans and images with OCR', () => {
  it('a scanned Thai PDF: every page OCR’d with progress, a phrase of page 2 found, "หน้า 2" in its citation', async () => {
    const ocr = countingOcr();
    const { store, id, add } = await setup(ocr);
    const progress: OcrProgress[] = [];
    const added = await add('scan.pdf', await makePagesPdf([await scannedPage(pageOne), await scannedPage(pageTwo)]), (event) => progress.push(event));
    expect(added).toMatchObject({ ok: true, document: { type: 'pdf', title: 'scan.pdf' } });
    expect(ocr.calls()).toBe(2);
    expect(progress).toEqual([
      { page: 1, pages: 2, done: 0, toRead: 2 },
      { page: 2, pages: 2, done: 1, toRead: 2 },
    ]);

    const hits = await store.search([id], 'ส่วนลดทุกวันพุธ', 3);
    expect(hits[0]).toMatchObject({ documentTitle: 'scan.pdf', page: 2 });
    expect(hits[0]?.text).toContain('ส่วนลด');
    const context = await naiveRagContext(store, 'discord:chan-1', 'สมาชิกได้ส่วนลดวันไหน', { language: 'th' });
    expect(context?.citations[0]).toEqual({ label: 'ocr › scan.pdf, หน้า 2' });
    expect(context?.text).toContain('[1] ocr › scan.pdf, หน้า 2\n');
    const english = await naiveRagContext(store, 'discord:chan-1', 'สมาชิกได้ส่วนลดวันไหน', { language: 'en' });
    expect(english?.citations[0]).toEqual({ label: 'ocr › scan.pdf, p. 2' });
  });

  it('a mixed PDF: the text page from its text layer, only the scanned page through OCR', async () => {
    const ocr = countingOcr();
    const { store, id, add } = await setup(ocr);
    const pdf = await makePagesPdf([['Opening hours: 9 am to 6 pm every day.'], await scannedPage(pageTwo)]);
    expect(await add('mixed.pdf', pdf)).toMatchObject({ ok: true });
    expect(ocr.calls()).toBe(1);
    expect((await store.search([id], 'opening hours', 1))[0]).toMatchObject({ page: 1, text: 'Opening hours: 9 am to 6 pm every day.' });
    expect((await store.search([id], 'แลกเครื่องดื่มฟรี', 1))[0]).toMatchObject({ page: 2 });
  });

  it('a PNG document: OCR of the one image, passages without a page', async () => {
    const { store, id, add } = await setup(countingOcr());
    expect(await add('receipt.png', await renderTextImage({ text: thaiReceiptText }))).toMatchObject({ ok: true, document: { type: 'image' } });
    const [hit] = await store.search([id], 'ใบเสร็จรับเงิน', 1);
    expect(hit?.text).toContain('ใบเสร็จ');
    expect(hit && 'page' in hit).toBe(false);
    expect((await naiveRagContext(store, 'discord:chan-1', 'ใบเสร็จรับเงิน', { language: 'th' }))?.citations).toEqual([{ label: 'ocr › receipt.png' }]);
  });
});

describe('refusals', () => {
  it('no OCR on the server: an image or a scan is refused with the reason, never added empty', async () => {
    const image = await renderTextImage({ text: 'ทดสอบ' });
    const scan = await makePagesPdf([image]);
    for (const ocr of [undefined, countingOcr({ executable: '/nonexistent/tesseract', withoutEmbedded: true })]) {
      const { store, id, add } = await setup(ocr);
      expect(await add('photo.png', image)).toEqual({ ok: false, failure: { code: 'ocr-unavailable', kind: 'image' } });
      expect(await add('scan.pdf', scan)).toEqual({ ok: false, failure: { code: 'ocr-unavailable', kind: 'scan' } });
      expect(await store.documents(id)).toEqual([]);
    }
  });

  it('too many pages to OCR is refused before any page is read; a corrupt PDF keeps its message', async () => {
    const ocr = countingOcr();
    const { add } = await setup(ocr, { maxOcrPages: 1 });
    const blank = await renderTextImage({ text: 'ก' });
    expect(await add('long.pdf', await makePagesPdf([blank, blank]))).toEqual({ ok: false, failure: { code: 'too-many-pages', pages: 2, limit: 1 } });
    expect(await add('broken.pdf', new TextEncoder().encode('%PDF-1.7\nthis is not really a pdf'))).toEqual({
      ok: false,
      failure: { code: 'corrupt', type: 'pdf' },
    });
    expect(ocr.calls()).toBe(0);
  });

  it('a document whose OCR outlasts the time budget is refused', async () => {
    // An OCR that answers only when cancelled, as the real engine does when its signal fires.
    const stuck: CountingOcr = {
      read: (_bytes, signal) =>
        new Promise((resolve) => signal?.addEventListener('abort', () => resolve({ ok: false, failure: { code: 'cancelled' } }), { once: true })),
      calls: () => 0,
    };
    const { add } = await setup(stuck, { timeBudgetMs: 20 });
    expect(await add('photo.png', await renderTextImage({ text: 'ทดสอบ' }))).toEqual({ ok: false, failure: { code: 'ocr-too-slow', limitSeconds: 1 } });
  });
});
