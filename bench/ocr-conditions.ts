import sharp from 'sharp';
import { renderTextImage } from '../test/support/text-images.js';
import type { OcrDocument } from './ocr-corpus.js';
import { seeded } from './seeded.js';

// The ways a picture of a document goes wrong before it reaches OCR, each made with sharp from the rendered
// text. Every condition is deterministic (seeded noise), so two runs OCR the same bytes.

export interface OcrCondition {
  name: string;
  /** True for the clean rendering: the one the "prepared better than raw" goal does not apply to. */
  degraded: boolean;
  make(document: OcrDocument): Promise<Buffer>;
}

const white = { r: 255, g: 255, b: 255 };

/** Dark text on a white page. */
function render(document: OcrDocument, dpi = 150, margin = 40): Promise<Buffer> {
  return renderTextImage({ text: document.text, font: document.font, dpi, margin });
}

function seedOf(text: string): number {
  let hash = 2_166_136_261;
  for (let index = 0; index < text.length; index++) hash = Math.imul(hash ^ text.charCodeAt(index), 16_777_619);
  return hash >>> 0;
}

/** Roughly normal, mean 0 and standard deviation 1: the sum of three uniforms, rescaled. */
function gaussianish(random: () => number): number {
  return (random() + random() + random() - 1.5) * 2;
}

async function rotated(document: OcrDocument, degrees: number): Promise<Buffer> {
  return sharp(await render(document))
    .rotate(degrees, { background: white })
    .png()
    .toBuffer();
}

async function noisy(document: OcrDocument): Promise<Buffer> {
  const { data, info } = await sharp(await render(document))
    .raw()
    .toBuffer({ resolveWithObject: true });
  const random = seeded(seedOf(document.name));
  const out = Buffer.alloc(data.length);
  // One noise value per pixel on all three channels (sensor noise on a grey page), standard deviation 40.
  for (let pixel = 0; pixel < data.length; pixel += info.channels) {
    const noise = gaussianish(random) * 40;
    for (let channel = 0; channel < info.channels; channel++) {
      out[pixel + channel] = Math.max(0, Math.min(255, Math.round((data[pixel + channel] ?? 0) + noise)));
    }
  }
  return sharp(out, { raw: { width: info.width, height: info.height, channels: info.channels } })
    .png()
    .toBuffer();
}

/** A smooth, uneven grey field, raw RGB: a small random grid stretched to full size (a table top, uneven light). */
async function unevenField(width: number, height: number, low: number, high: number, random: () => number): Promise<Buffer> {
  const gridWidth = 8;
  const gridHeight = 6;
  const grid = Buffer.alloc(gridWidth * gridHeight * 3);
  for (let cell = 0; cell < gridWidth * gridHeight; cell++) {
    const value = Math.round(low + random() * (high - low));
    grid[cell * 3] = value;
    grid[cell * 3 + 1] = Math.max(0, value - 4);
    grid[cell * 3 + 2] = Math.max(0, value - 10);
  }
  return sharp(grid, { raw: { width: gridWidth, height: gridHeight, channels: 3 } })
    .resize(width, height, { kernel: 'linear', fit: 'fill' })
    .raw()
    .toBuffer();
}

/** The document printed large, photographed on a grey table with a 12-megapixel phone: 4032×3024, tilted, uneven light. */
async function phonePhoto(document: OcrDocument): Promise<Buffer> {
  const width = 4032;
  const height = 3024;
  const random = seeded(seedOf(`${document.name}-photo`));
  const page = await sharp(await render(document, 400, 200))
    .ensureAlpha()
    .rotate(random() < 0.5 ? -2 : 2.5, { background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .png()
    .toBuffer({ resolveWithObject: true });
  const scale = Math.min(1, (width * 0.8) / page.info.width, (height * 0.8) / page.info.height);
  const placed = await sharp(page.data)
    .resize(Math.round(page.info.width * scale))
    .png()
    .toBuffer({ resolveWithObject: true });
  const raw = { width, height, channels: 3 } as const;
  const background = await unevenField(width, height, 100, 150, random);
  const light = await unevenField(width, height, 170, 255, random);
  // Raw between the steps: PNG-encoding 12 megapixels twice took longer than everything else here.
  const composed = await sharp(background, { raw })
    .composite([
      { input: placed.data, left: Math.round((width - placed.info.width) / 2), top: Math.round((height - placed.info.height) / 2) },
      { input: light, raw, blend: 'multiply' },
    ])
    .removeAlpha()
    .raw()
    .toBuffer();
  return sharp(composed, { raw }).blur(1.1).jpeg({ quality: 80 }).toBuffer();
}

export const ocrConditions: readonly OcrCondition[] = [
  { name: 'clean', degraded: false, make: (document) => render(document) },
  { name: 'small-text', degraded: true, make: (document) => render(document, 75, 20) },
  { name: 'rotated+3', degraded: true, make: (document) => rotated(document, 3) },
  { name: 'rotated-4', degraded: true, make: (document) => rotated(document, -4) },
  {
    name: 'heavy-jpeg',
    degraded: true,
    make: async (document) =>
      sharp(await render(document))
        .jpeg({ quality: 9 })
        .toBuffer(),
  },
  { name: 'noise', degraded: true, make: noisy },
  {
    name: 'low-contrast',
    degraded: true,
    make: async (document) =>
      sharp(await render(document))
        .linear(0.3, 170)
        .png()
        .toBuffer(),
  },
  { name: 'phone-photo', degraded: true, make: phonePhoto },
];

export const phonePhotoCondition = 'phone-photo';
