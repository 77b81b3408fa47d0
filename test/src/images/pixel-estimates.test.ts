import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { estimateSkewAngle } from '../../../src/images/deskew-angle.js';
import { inkMask, isDarkPage, type GreyImage } from '../../../src/images/ink-mask.js';
import { estimateTextLineHeight } from '../../../src/images/text-line-height.js';
import { renderTextImage, thaiReceiptText } from '../../support/text-images.js';

async function grey(bytes: Buffer): Promise<GreyImage> {
  const { data, info } = await sharp(bytes).greyscale().toColourspace('b-w').raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, pixels: new Uint8Array(data) };
}

describe('skew and line height from pixels', () => {
  it.each([4, -3, 0])('finds a page turned by %s° to within 0.5°', async (degrees) => {
    const page = await renderTextImage({ text: thaiReceiptText, points: 12 });
    const turned = degrees === 0 ? page : await sharp(page).rotate(degrees, { background: '#ffffff' }).png().toBuffer();
    const { angle } = estimateSkewAngle(inkMask(await grey(turned)));
    expect(Math.abs(angle - degrees)).toBeLessThanOrEqual(0.5);
  });

  it('measures 14 pt lines about twice as high as 7 pt lines', async () => {
    const heights: number[] = [];
    for (const points of [14, 7]) {
      const { rowInk } = estimateSkewAngle(inkMask(await grey(await renderTextImage({ text: thaiReceiptText, points }))));
      heights.push(estimateTextLineHeight(rowInk) ?? 0);
    }
    const [large = 0, small = 0] = heights;
    // 14 pt at 150 dpi is 29 px to the em; a Thai line with its marks is about one em.
    expect(large).toBeGreaterThanOrEqual(25);
    expect(large).toBeLessThanOrEqual(40);
    expect(large / small).toBeGreaterThan(1.7);
    expect(large / small).toBeLessThan(2.3);
  });

  it('finds no text, and no skew, on a blank page', async () => {
    const blank = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#f4f4f4' } })
      .png()
      .toBuffer();
    const skew = estimateSkewAngle(inkMask(await grey(blank)));
    expect(skew.angle).toBe(0);
    expect(estimateTextLineHeight(skew.rowInk)).toBeNull();
  });

  it('takes the light text of a dark page as the ink', async () => {
    const page = await grey(await renderTextImage({ text: thaiReceiptText, points: 12 }));
    const dark = { ...page, pixels: page.pixels.map((value) => 255 - value) };
    expect([isDarkPage(page.pixels), isDarkPage(dark.pixels)]).toEqual([false, true]);
    expect(Buffer.from(inkMask(dark).ink).equals(Buffer.from(inkMask(page).ink))).toBe(true);
  });
});
