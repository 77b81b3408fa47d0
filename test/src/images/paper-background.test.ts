import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { morphology } from '../../../src/images/grey-morphology.js';
import type { GreyImage } from '../../../src/images/ink-mask.js';
import { isNoisy } from '../../../src/images/pixel-noise.js';
import { dividedByBackground, hasLightText, pageMorphology } from '../../../src/images/paper-background.js';
import { estimateTextLineHeight } from '../../../src/images/text-line-height.js';
import { renderTextImage, thaiReceiptText } from '../../support/text-images.js';

function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

/** The brute-force square max or min, the window cut at the borders. */
function bruteFilter(image: GreyImage, window: number, pick: (...values: number[]) => number): Uint8Array {
  const radius = (window - 1) / 2;
  const out = new Uint8Array(image.pixels.length);
  for (let y = 0; y < image.height; y += 1) {
    for (let x = 0; x < image.width; x += 1) {
      const values: number[] = [];
      for (let dy = -radius; dy <= radius; dy += 1) {
        for (let dx = -radius; dx <= radius; dx += 1) {
          const [row, column] = [y + dy, x + dx];
          if (row >= 0 && row < image.height && column >= 0 && column < image.width) values.push(image.pixels[row * image.width + column] ?? 0);
        }
      }
      out[y * image.width + x] = pick(...values);
    }
  }
  return out;
}

async function grey(bytes: Buffer): Promise<GreyImage> {
  const { data, info } = await sharp(bytes).greyscale().toColourspace('b-w').raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, pixels: new Uint8Array(data) };
}

/** A white sheet with the receipt on it, in the middle of a dark table three times its size. */
async function sheetOnTable(): Promise<GreyImage> {
  const sheet = await renderTextImage({ text: thaiReceiptText, points: 10 });
  const { width = 0, height = 0 } = await sharp(sheet).metadata();
  const onTable = await sharp(sheet).extend({ top: height, bottom: height, left: width, right: width, background: '#505050' }).png().toBuffer();
  return grey(onTable);
}

describe('grey morphology and the paper background', () => {
  it('closes and opens exactly like the brute-force square filter, borders included', () => {
    const random = seeded(3);
    for (const [width, height, window] of [
      [37, 23, 7],
      [5, 40, 9],
      [64, 3, 13],
      [1, 1, 7],
    ] as const) {
      const image = { width, height, pixels: new Uint8Array(width * height).map(() => Math.floor(random() * 256)) };
      const { closing, opening } = morphology(image, window);
      const dilated = { ...image, pixels: bruteFilter(image, window, Math.max) };
      const eroded = { ...image, pixels: bruteFilter(image, window, Math.min) };
      expect(Buffer.from(closing).equals(Buffer.from(bruteFilter(dilated, window, Math.min)))).toBe(true);
      expect(Buffer.from(opening).equals(Buffer.from(bruteFilter(eroded, window, Math.max)))).toBe(true);
    }
  });

  it('takes a white sheet on a dark table for dark text on light, and its negative for light text', async () => {
    const page = await sheetOnTable();
    const negative = { ...page, pixels: page.pixels.map((value) => 255 - value) };
    expect(hasLightText(page, pageMorphology(page))).toBe(false);
    expect(hasLightText(negative, pageMorphology(negative))).toBe(true);
  });

  it('whites out the table and keeps the text once the page is divided by its background', async () => {
    const page = await sheetOnTable();
    const divided = dividedByBackground(page, pageMorphology(page).closing);
    const table = divided.pixels[5 * page.width + 5];
    let dark = 0;
    for (const value of divided.pixels) if (value < 128) dark += 1;
    expect(table).toBe(255);
    // The text is all that is left dark: a few percent of the sheet, a ninth of the picture.
    expect(dark).toBeGreaterThan(0);
    expect(dark / divided.pixels.length).toBeLessThan(0.02);
  });

  it('knows a grainy page from a clean one', async () => {
    const page = await grey(await renderTextImage({ text: thaiReceiptText, points: 12 }));
    const random = seeded(5);
    const grainy = { ...page, pixels: page.pixels.map((value) => Math.max(0, Math.min(255, Math.round(value + (random() + random() + random() - 1.5) * 80)))) };
    expect([isNoisy(page), isNoisy(grainy)]).toEqual([false, true]);
  });
});

describe('a line height that is not text', () => {
  it('is unknown when every row has ink, or one band is taller than a quarter of the page', () => {
    const random = seeded(9);
    const everyRow = Array.from({ length: 400 }, () => 30 + Math.floor(random() * 20));
    const oneTallBand = Array.from({ length: 400 }, (_, row) => (row >= 50 && row < 300 ? 100 : 0));
    expect(estimateTextLineHeight(everyRow)).toBeNull();
    expect(estimateTextLineHeight(oneTallBand)).toBeNull();
  });

  it('is still measured for lines with gaps between them', () => {
    const lines = Array.from({ length: 400 }, (_, row) => (row % 50 < 30 ? 100 : 0));
    expect(estimateTextLineHeight(lines)).toBe(30);
  });
});
