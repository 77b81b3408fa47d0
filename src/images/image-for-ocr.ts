import sharp from 'sharp';
import type { ImageRefusal } from '../shared/image-reading.js';
import { decodeFailure, decodeOptions, decodeTimeoutSeconds, white } from './decode-options.js';
import type { GreyImage } from './ink-mask.js';
import { inspectImage } from './inspect-image.js';
import { analysePage, invert, type PageAnalysis } from './page-analysis.js';
import { dividedByBackground } from './paper-background.js';

// The picture tesseract is given: upright, first frame, on white, grey, dark text on light, divided by the
// paper's own brightness (uneven light evened out, a table around a photographed sheet whited out), smoothed when grainy, straightened (its layout analysis does not undo small rotations: a 4° page
// loses most of its characters) and scaled so a line of text is 16–60 px high, where tesseract reads well —
// which also keeps a 12 MP phone photo of ordinary text from reaching tesseract at full size. Everything is
// measured on a copy at most `analysisEdge` px on its long edge (page-analysis.ts); the output is then decoded
// once more at its own size (a JPEG shrinks on load, so a big photo is never decoded in full when scaled down).
// A clean, straight page of ordinary text comes out as its grey self.

export interface OcrImageOptions {
  /** Input width × height above this is refused (and libvips refuses to decode it). */
  maxPixels: number;
  /** The output is never larger than this, whatever the text size says. */
  maxOutputPixels?: number;
}

export type OcrImage = { ok: true; png: Uint8Array; angle: number; scale: number } | { ok: false; refusal: ImageRefusal };

const analysisEdge = 1000;
const defaultMaxOutputPixels = 8_000_000;
/**
 * Line heights (ink band, tone marks to lower vowels) tesseract reads well are left alone — CER on rendered Thai
 * was flat from about 16 to 68 px — and others are scaled to `targetLineHeight`: small text up, and the huge
 * text of a close phone photo down (time grows with pixels).
 */
const readableLineHeight = { min: 16, max: 60 };
const targetLineHeight = 36;
const maxUpscale = 4;
/**
 * Never scaled down below this long edge, whatever the line height says: a wrong estimate then costs tesseract
 * time, not the text (a 12 MP photo goes down to at most 0.4).
 */
const minOutputLongEdge = 1600;
/**
 * A light denoise (3 × 3 median) only where it helped: a heavily compressed JPEG or WebP (rendered text at JPEG
 * quality 10 is about 0.2 bits per pixel, quality 30 about 0.65, quality 90 about 1.4) that is not scaled down
 * (a downscale averages the noise away already). On clean images the median thinned strokes: CER 0.006 → 0.05.
 */
const lossyFormats: ReadonlySet<string> = new Set(['jpeg', 'webp']);
const heavyCompressionBitsPerPixel = 0.5;
/**
 * Grainy pages are smoothed by a Gaussian blur of this sigma: on rendered pages with noise of standard
 * deviation 40, mean CER 0.033 → 0.014 (Thai) with no page worse, where a 3 × 3 median erased thin fonts.
 */
const grainBlurSigma = 1;
/** Turning by less than this blurs more than it straightens. */
const minCorrectionDegrees = 0.2;

interface Size {
  width: number;
  height: number;
}

export async function imageForOcr(bytes: Uint8Array, options: OcrImageOptions): Promise<OcrImage> {
  const inspected = await inspectImage(bytes, { maxBytes: Number.POSITIVE_INFINITY, maxPixels: options.maxPixels });
  if (!inspected.ok) return inspected;
  try {
    const upright = await uprightSize(bytes);
    const factor = Math.min(1, analysisEdge / Math.max(upright.width, upright.height));
    const analysed = await analysePage(await pageGrey(bytes, options.maxPixels, scaled(upright, factor)));
    const lineHeight = analysed.lineHeight === null ? null : analysed.lineHeight / factor;
    const scale = outputScale(upright, lineHeight, options.maxOutputPixels ?? defaultMaxOutputPixels);
    const bitsPerPixel = (bytes.length * 8) / (inspected.width * inspected.height);
    const heavyJpeg = scale >= 1 && lossyFormats.has(inspected.format) && bitsPerPixel < heavyCompressionBitsPerPixel;
    const page = await pageGrey(bytes, options.maxPixels, scaled(upright, scale), { median: heavyJpeg, blur: analysed.noisy });
    const even = await evened(page, analysed);
    return { ok: true, png: await straightenedPng(even, analysed.angle), angle: analysed.angle, scale };
  } catch (error) {
    return { ok: false, refusal: decodeFailure(error) };
  }
}

async function uprightSize(bytes: Uint8Array): Promise<Size> {
  // Header only (inspectImage has checked the pixel count).
  const metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
  return metadata.autoOrient;
}

function scaled(size: Size, factor: number): Size {
  return { width: Math.max(1, Math.round(size.width * factor)), height: Math.max(1, Math.round(size.height * factor)) };
}

/**
 * Upright, first frame, transparency on white, grey, at `size`; after the resize a 3 × 3 median (JPEG blocks and
 * speckle) or a blur (grain) when asked.
 */
async function pageGrey(bytes: Uint8Array, maxPixels: number, size: Size, smooth: { median?: boolean; blur?: boolean } = {}): Promise<GreyImage> {
  let image = sharp(bytes, decodeOptions(maxPixels)).autoOrient().flatten({ background: white }).greyscale().resize(size.width, size.height, { fit: 'fill' });
  if (smooth.median) image = image.median(3);
  if (smooth.blur) image = image.blur(grainBlurSigma);
  const { data, info } = await image.toColourspace('b-w').raw().timeout({ seconds: decodeTimeoutSeconds }).toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, pixels: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
}

function outputScale(upright: Size, lineHeight: number | null, maxOutputPixels: number): number {
  let scale = 1;
  if (lineHeight !== null && (lineHeight < readableLineHeight.min || lineHeight > readableLineHeight.max)) {
    scale = Math.min(maxUpscale, targetLineHeight / lineHeight);
  }
  const floor = Math.min(1, minOutputLongEdge / Math.max(upright.width, upright.height));
  const cap = Math.sqrt(maxOutputPixels / (upright.width * upright.height));
  return Math.round(Math.min(Math.max(scale, floor), cap) * 1000) / 1000;
}

/** Dark text on light (tesseract reads that best: a dark-mode screenshot is turned), divided by the paper. */
async function evened(page: GreyImage, analysed: PageAnalysis): Promise<GreyImage> {
  if (analysed.darkPage) invert(page.pixels);
  const { background } = analysed;
  const data = await sharp(background.pixels, {
    raw: { width: background.width, height: background.height, channels: 1 },
    limitInputPixels: background.width * background.height,
  })
    .resize(page.width, page.height, { fit: 'fill', kernel: 'linear' })
    .toColourspace('b-w')
    .raw()
    .toBuffer();
  return dividedByBackground(page, new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
}

/** Turned back by the skew, the uncovered corners white like the paper; an 8-bit grey PNG. */
async function straightenedPng(page: GreyImage, angle: number): Promise<Uint8Array> {
  let image = sharp(page.pixels, { raw: { width: page.width, height: page.height, channels: 1 }, limitInputPixels: page.width * page.height });
  if (Math.abs(angle) >= minCorrectionDegrees) image = image.rotate(-angle, { background: white });
  // sharp writes sRGB unless told otherwise.
  const png = await image.toColourspace('b-w').png().toBuffer();
  return new Uint8Array(png.buffer, png.byteOffset, png.byteLength);
}
