import { execFileSync } from 'node:child_process';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { imageForOcr } from '../../../src/images/image-for-ocr.js';
import { renderTextImage, thaiReceiptText } from '../../support/text-images.js';
import { systemProgramPresent, tesseractProgram } from '../../support/system-programs.js';

// Pictures the global-threshold analysis misread: a receipt photographed on a grey table (the table was taken
// for ink, the page for one line, and the photo shrunk to a thumbnail) and a grainy page (noise put ink in every
// row, and the page was shrunk the same way).

const options = { maxPixels: 40_000_000 };

function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

/** A 4000 × 3000 JPEG: the receipt printed large, turned 2°, on a grey table under uneven light. */
async function receiptOnTable(): Promise<Buffer> {
  const width = 4000;
  const height = 3000;
  const random = seeded(12);
  const grid = Buffer.alloc(8 * 6);
  for (let cell = 0; cell < grid.length; cell += 1) grid[cell] = Math.round(95 + random() * 60);
  const table = await sharp(grid, { raw: { width: 8, height: 6, channels: 1 } })
    .resize(width, height, { kernel: 'linear', fit: 'fill' })
    .png()
    .toBuffer();
  const receipt = await sharp(await renderTextImage({ text: thaiReceiptText, points: 14, dpi: 330, margin: 120 }))
    .ensureAlpha()
    .rotate(2, { background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .png()
    .toBuffer({ resolveWithObject: true });
  // Light falling off from the top left: the paper goes from white to mid grey.
  const light = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><linearGradient id="l" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#ffffff"/><stop offset="1" stop-color="#a8a8a8"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#l)"/></svg>`,
  );
  return sharp(table)
    .composite([
      { input: receipt.data, left: Math.round((width - receipt.info.width) / 2), top: Math.round((height - receipt.info.height) / 2) },
      { input: light, blend: 'multiply' },
    ])
    .blur(1.1)
    .jpeg({ quality: 80 })
    .toBuffer();
}

/** The receipt with seeded noise of standard deviation about 40 on every pixel. */
async function grainyReceipt(): Promise<Buffer> {
  const { data, info } = await sharp(await renderTextImage({ text: thaiReceiptText, points: 14, font: 'Kanit' }))
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const random = seeded(7);
  const noisy = Buffer.from(data.map((value) => Math.max(0, Math.min(255, Math.round(value + (random() + random() + random() - 1.5) * 80)))));
  return sharp(noisy, { raw: { width: info.width, height: info.height, channels: 1 } })
    .png()
    .toBuffer();
}

async function prepared(bytes: Buffer) {
  const result = await imageForOcr(bytes, options);
  if (!result.ok) throw new Error(`refused: ${result.refusal.code}`);
  return { ...result, metadata: await sharp(result.png).metadata() };
}

function tesseract(png: Uint8Array): string {
  return execFileSync('tesseract', ['-', 'stdout', '-l', 'tha+eng'], { input: png, stdio: ['pipe', 'pipe', 'ignore'] }).toString();
}

describe.skipIf(!systemProgramPresent(tesseractProgram))('imageForOcr on photos and grainy pages', () => {
  it('keeps a receipt photographed on a grey table at a readable size, straightened, and tesseract reads its total', async () => {
    const result = await prepared(await receiptOnTable());
    // 14 pt at 330 dpi is about 64 px a line: scaled towards 36 px, never below a 1,600-px long edge.
    expect(result.scale).toBeGreaterThanOrEqual(0.4);
    expect(result.scale).toBeLessThanOrEqual(0.75);
    expect(Math.abs(result.angle - 2)).toBeLessThanOrEqual(0.5);
    expect(Math.max(result.metadata.width ?? 0, result.metadata.height ?? 0)).toBeGreaterThanOrEqual(1600);
    expect(tesseract(result.png)).toContain('190.00');
  });

  it('does not shrink a grainy page, and tesseract reads its total', async () => {
    const grainy = await grainyReceipt();
    const input = await sharp(grainy).metadata();
    const result = await prepared(grainy);
    expect(result.scale).toBe(1);
    expect([result.metadata.width, result.metadata.height]).toEqual([input.width, input.height]);
    expect(tesseract(result.png)).toContain('190.00');
  });
});
