import type { OcrFailure } from '../../shared/image-reading.js';
import type { OcrReading } from './document-ocr.js';
import type { RenderedPage } from './extract/render-pdf-page.js';
import { renderScannedPage } from './extract/render-scanned-page.js';
import type { IngestFailure } from './ingest-failure.js';

// OCR for ingest: one image, or the pages of a PDF that have no text layer, rendered one at a time (a page's
// image is freed before the next is made) under one time budget for the whole document.

export type OcrText = { ok: true; text: string } | { ok: false; failure: IngestFailure };
export type OcrPages = { ok: true; texts: Map<number, string> } | { ok: false; failure: IngestFailure };

/** The document's time budget as a signal; `expired` tells a budget abort from any other failure. */
function budget(timeBudgetMs: number): { signal: AbortSignal; expired(): boolean; done(): void } {
  const controller = new AbortController();
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    controller.abort();
  }, timeBudgetMs);
  timer.unref();
  return { signal: controller.signal, expired: () => expired, done: () => clearTimeout(timer) };
}

function tooSlow(reading: OcrReading): IngestFailure {
  return { code: 'ocr-too-slow', limitSeconds: Math.ceil(reading.limits.timeBudgetMs / 1000) };
}

function ocrFailure(failure: OcrFailure, page: number | undefined, kind: 'image' | 'scan', expired: boolean, reading: OcrReading): IngestFailure {
  if (failure.code === 'unavailable') return { code: 'ocr-unavailable', kind };
  if (expired) return tooSlow(reading);
  if (failure.code === 'refused' && failure.refusal.code === 'corrupt' && kind === 'image') return { code: 'corrupt', type: 'image' };
  // An image refused for its shape or size before decoding: the user hears the reason the chat would give.
  if (failure.code === 'refused' && kind === 'image') return { code: 'image-refused', refusal: failure.refusal };
  return page === undefined ? { code: 'ocr-failed' } : { code: 'ocr-failed', page };
}

function renderFailure(rendered: Exclude<RenderedPage, { ok: true }>, page: number, expired: boolean, reading: OcrReading): IngestFailure {
  if (rendered.reason === 'unavailable') return { code: 'ocr-unavailable', kind: 'scan' };
  if (expired) return tooSlow(reading);
  return { code: 'ocr-failed', page };
}

/** The text of an image document. */
export async function readImage(bytes: Uint8Array, reading: OcrReading): Promise<OcrText> {
  if (!reading.ocr) return { ok: false, failure: { code: 'ocr-unavailable', kind: 'image' } };
  const time = budget(reading.limits.timeBudgetMs);
  try {
    const result = await reading.ocr.read(bytes, time.signal);
    if (result.ok) return { ok: true, text: result.text };
    reading.log?.warn({ failure: result.failure.code }, 'knowledge: OCR of an image document failed');
    return { ok: false, failure: ocrFailure(result.failure, undefined, 'image', time.expired(), reading) };
  } finally {
    time.done();
  }
}

/** OCR of the given 1-based pages of a PDF of `pageCount` pages, in order; the first failure stops it. */
export async function readScannedPages(pdf: Uint8Array, pages: readonly number[], pageCount: number, reading: OcrReading): Promise<OcrPages> {
  const { ocr, limits } = reading;
  if (!ocr) return { ok: false, failure: { code: 'ocr-unavailable', kind: 'scan' } };
  if (pages.length > limits.maxOcrPages) return { ok: false, failure: { code: 'too-many-pages', pages: pages.length, limit: limits.maxOcrPages } };
  const time = budget(limits.timeBudgetMs);
  const texts = new Map<number, string>();
  try {
    for (const [index, page] of pages.entries()) {
      reading.onProgress?.({ page, pages: pageCount, done: index, toRead: pages.length });
      const rendered = await renderScannedPage(pdf, {
        page,
        dpi: limits.dpi,
        timeoutMs: limits.renderTimeoutMs,
        maxBytes: limits.maxPageImageBytes,
        signal: time.signal,
      });
      if (!rendered.ok) {
        reading.log?.warn({ page, reason: rendered.reason, detail: rendered.detail }, 'knowledge: rendering a PDF page failed');
        return { ok: false, failure: renderFailure(rendered, page, time.expired(), reading) };
      }
      const result = await ocr.read(rendered.png, time.signal);
      if (!result.ok) {
        reading.log?.warn({ page, failure: result.failure.code }, 'knowledge: OCR of a PDF page failed');
        return { ok: false, failure: ocrFailure(result.failure, page, 'scan', time.expired(), reading) };
      }
      texts.set(page, result.text.trim());
    }
    return { ok: true, texts };
  } finally {
    time.done();
  }
}
