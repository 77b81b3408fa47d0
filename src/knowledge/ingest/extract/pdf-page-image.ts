import { describeError } from '../../../shared/describe-error.js';
import type { RenderedPage } from './render-pdf-page.js';

// One PDF page as a PNG by pdf.js and @napi-rs/canvas (both come with pdf-parse): the renderer when poppler's
// pdftoppm is not installed. Run inside the extraction worker process (parse-in-worker.ts), which bounds its heap
// and time; the canvas is native memory outside that heap, so its size is checked from the page's dimensions
// before a pixel is drawn.

export interface PageImageRequest {
  type: 'pdf-page';
  bytes: Uint8Array;
  /** 1-based. */
  page: number;
  dpi: number;
  /** The bound on the page's raster (4 bytes a pixel) and on the PNG made from it. */
  maxBytes: number;
}

const pointsPerInch = 72;

export async function pdfPageImage(request: PageImageRequest): Promise<RenderedPage> {
  const failed = (detail: string): RenderedPage => ({ ok: false, reason: 'failed', detail: detail.slice(0, 300) });
  const tooLarge: RenderedPage = { ok: false, reason: 'too-large', detail: `page ${request.page} image over ${request.maxBytes} bytes` };
  const { PDFParse, VerbosityLevel } = await import('pdf-parse');
  // pdf.js may take ownership of the buffer it is given: hand it a copy.
  const parser = new PDFParse({ data: new Uint8Array(request.bytes), verbosity: VerbosityLevel.ERRORS });
  try {
    const info = await parser.getInfo({ parsePageInfo: true, partial: [request.page] });
    const size = info.pages.find((page) => page.pageNumber === request.page);
    if (!size || request.page < 1 || request.page > info.total) return failed(`no page ${request.page} in a PDF of ${info.total}`);
    const scale = request.dpi / pointsPerInch;
    if (Math.ceil(size.width * scale) * Math.ceil(size.height * scale) * 4 > request.maxBytes) return tooLarge;
    const shot = await parser.getScreenshot({ partial: [request.page], scale, imageDataUrl: false, imageBuffer: true });
    const png = shot.pages[0]?.data;
    if (!png || png.length === 0) return failed(`page ${request.page} rendered empty`);
    return png.length > request.maxBytes ? tooLarge : { ok: true, png: new Uint8Array(png) };
  } catch (error) {
    return failed(describeError(error));
  } finally {
    await parser.destroy().catch(() => undefined);
  }
}
