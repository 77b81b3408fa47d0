import { defaultParseLimits, renderPageInWorker } from './parse-in-worker.js';
import { renderPdfPage, type RenderedPage, type RenderOptions } from './render-pdf-page.js';

// A scanned PDF page as a PNG for OCR: by poppler's pdftoppm when it is installed (a process of its own, fast),
// else by pdf.js and @napi-rs/canvas from npm in an extraction worker process (the same heap cap, the same time
// limit, the page's raster bounded before it is drawn), so a machine with only Node reads scanned PDFs too.

export function renderScannedPage(pdf: Uint8Array, options: Omit<RenderOptions, 'command'> & { pdftoppm?: string }): Promise<RenderedPage> {
  const { pdftoppm, ...rest } = options;
  return renderPdfPage(pdf, { ...rest, ...(pdftoppm ? { command: pdftoppm } : {}) }).then((rendered) => {
    if (rendered.ok || rendered.reason !== 'unavailable') return rendered;
    const request = { type: 'pdf-page' as const, bytes: pdf, page: options.page, dpi: options.dpi, maxBytes: options.maxBytes };
    return renderPageInWorker(request, { memoryMb: defaultParseLimits.memoryMb, timeoutMs: options.timeoutMs }, options.signal);
  });
}
