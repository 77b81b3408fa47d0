import sharp from 'sharp';
import { estimateSkewAngle } from './deskew-angle.js';
import { inkMask, type GreyImage } from './ink-mask.js';
import { dividedByBackground, hasLightText, pageMorphology } from './paper-background.js';
import { isNoisy } from './pixel-noise.js';
import { estimateTextLineHeight } from './text-line-height.js';

// What the OCR pre-processing measures on a small grey copy of the page: the skew, the line height, whether the
// text is light on dark, whether the page is grainy, and the paper's own brightness (to even the light out).
// Everything is measured on the page divided by its background, so a table around a photographed sheet or a
// shadow is not ink.

export interface PageAnalysis {
  /** Degrees, clockwise as sharp's rotate(). */
  angle: number;
  /** Pixels of the copy; null when no line height could be trusted (none found, or noise and tables). */
  lineHeight: number | null;
  darkPage: boolean;
  noisy: boolean;
  /** The paper under the text, dark text on light (a dark page's background inverted), at the copy's size. */
  background: GreyImage;
}

/**
 * `copy` is turned into dark text on light in place. When noise puts ink in every row no line height comes out:
 * the page is then measured once more after a 3 × 3 median (not first: it erases the 1-px strokes of small text).
 */
export async function analysePage(copy: GreyImage): Promise<PageAnalysis> {
  const shapes = pageMorphology(copy);
  const darkPage = hasLightText(copy, shapes);
  // A dark page's background is its opening; inverted, it is the inverted page's closing.
  if (darkPage) {
    invert(copy.pixels);
    invert(shapes.opening);
  }
  const background = { width: copy.width, height: copy.height, pixels: darkPage ? shapes.opening : shapes.closing };
  const page = dividedByBackground(copy, background.pixels);
  const found = { darkPage, noisy: isNoisy(copy), background };
  const first = measure(page);
  if (first.lineHeight !== null) return { ...first, ...found };
  const denoised = measure(await median3(page));
  return { ...(denoised.lineHeight === null ? first : denoised), ...found };
}

export function invert(pixels: Uint8Array): void {
  for (let index = 0; index < pixels.length; index += 1) pixels[index] = 255 - (pixels[index] ?? 0);
}

function measure(page: GreyImage): { angle: number; lineHeight: number | null } {
  const skew = estimateSkewAngle(inkMask(page));
  return { angle: skew.angle, lineHeight: estimateTextLineHeight(skew.rowInk) };
}

async function median3(page: GreyImage): Promise<GreyImage> {
  const { width, height } = page;
  const data = await sharp(page.pixels, { raw: { width, height, channels: 1 }, limitInputPixels: width * height })
    .median(3)
    .toColourspace('b-w')
    .raw()
    .toBuffer();
  return { width, height, pixels: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
}
