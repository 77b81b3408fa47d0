import { morphology, type Morphology } from './grey-morphology.js';
import { otsuThreshold, type GreyImage } from './ink-mask.js';

// The paper's own brightness under the text, and the page divided by it. A phone photo has a grey table around the
// sheet and light that falls off across it: one global threshold then splits table from paper, not text from paper.
// The background is the page's grey closing (grey-morphology.ts): text erased, the sheet, the table and a shadow
// kept with their edges. Divided by it the paper is white and the text dark whatever the light; on a clean page
// (background white everywhere) nothing changes. A dark page's background is its opening.

/** The window's side as a share of the long edge (30 px on a 1,000-px copy). */
const windowShare = 0.03;
const minWindow = 7;
/** Local contrast (brightest − darkest in the window) where there is text to tell the page's polarity by. */
const minTextContrast = 64;
/** Mean levels of paper and table at least this far apart before the table is taken out. */
const minPaperContrast = 48;

/** The closing and the opening at a window wider than a stroke or a character at any readable size. */
export function pageMorphology(image: GreyImage): Morphology {
  return morphology(image, Math.max(minWindow, Math.round(Math.max(image.width, image.height) * windowShare)) | 1);
}

/**
 * Light text on a dark page (a dark-mode screenshot): where the page has contrast within a window (text, not the
 * table or the blank paper), most pixels are nearer the dark level than the light one. Decided locally, a photo
 * of a white sheet on a dark table is not a dark page however much table it shows.
 */
export function hasLightText(image: GreyImage, { closing, opening }: Morphology): boolean {
  let light = 0;
  let dark = 0;
  for (let index = 0; index < image.pixels.length; index += 1) {
    const high = closing[index] ?? 0;
    const low = opening[index] ?? 0;
    if (high - low < minTextContrast) continue;
    if ((image.pixels[index] ?? 0) * 2 > high + low) light += 1;
    else dark += 1;
  }
  return dark > light;
}

/**
 * Every pixel divided by the background: text dark, the paper white (faint text is left faint: stretching it
 * to black made rendered low-contrast Thai read worse, CER 0.020 → 0.032). Where the background is much darker
 * than the paper — the table around a photographed sheet, whose grain and folds would otherwise pass for ink —
 * all white.
 */
export function dividedByBackground(image: GreyImage, background: Uint8Array): GreyImage {
  const paperLevel = paperThreshold(background);
  const pixels = new Uint8Array(image.pixels.length);
  for (let index = 0; index < pixels.length; index += 1) {
    const paper = background[index] ?? 255;
    if (paper < paperLevel || paper === 0) pixels[index] = 255;
    else pixels[index] = Math.min(255, Math.round(((image.pixels[index] ?? 255) * 255) / paper));
  }
  return { width: image.width, height: image.height, pixels };
}

/**
 * The background level below which there is no paper: Otsu's split of the background when it has two clearly
 * different levels (a sheet on a table), else 0 (a scan or a screenshot: paper everywhere, shadows included).
 */
function paperThreshold(background: Uint8Array): number {
  const threshold = otsuThreshold(background);
  let darkSum = 0;
  let darkCount = 0;
  let lightSum = 0;
  for (const value of background) {
    if (value <= threshold) {
      darkSum += value;
      darkCount += 1;
    } else lightSum += value;
  }
  const lightCount = background.length - darkCount;
  if (darkCount === 0 || lightCount === 0) return 0;
  return lightSum / lightCount - darkSum / darkCount >= minPaperContrast ? threshold + 1 : 0;
}
