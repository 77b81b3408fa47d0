import type sharp from 'sharp';
import type { ImageRefusal } from '../shared/image-reading.js';

// What decoding an image will cost, judged from its header before a pixel is decoded. The pixel count alone let
// a 381 KB PNG of 49,000,000 × 1 px in 16-bit RGBA through, and it took the bot to 4.8 GB for 35 s: libvips works
// on whole rows, so one row of that width is 392 MB before the pipeline's float copies. So the shape is bounded
// too (the long edge, and how much longer it is than the short one), and so is width × height × channels ×
// bytes per sample × frames.

/**
 * The longest edge read. A phone panorama is about 16,000 px; at 25,000 px a 16-bit RGBA row is 200 KB, and the
 * worst accepted image (a 25,000 × 2,000 panorama) peaked the process at 240 MB through both pipelines.
 */
export const maxImageEdge = 25_000;
/** A long chat screenshot is about 1:25; a strip longer than 1:100 holds nothing a model or OCR can read. */
export const maxImageAspect = 100;
/** Decoded bytes per allowed pixel: `MAX_IMAGE_PIXELS` of 8-bit RGBA. */
const decodedBytesPerPixel = 4;

const bytesPerSample: Partial<Record<string, number>> = {
  uchar: 1,
  char: 1,
  ushort: 2,
  short: 2,
  uint: 4,
  int: 4,
  float: 4,
  complex: 8,
  double: 8,
  dpcomplex: 16,
};

export interface ImageShape {
  width: number;
  height: number;
  channels: number;
  /** libvips' band format (`uchar`, `ushort`…); an unknown one counts as 4 bytes. */
  depth: string;
  /** Frames of an animation (1 for a still image). */
  frames: number;
}

export function shapeOf(metadata: sharp.Metadata): ImageShape {
  return { width: metadata.width, height: metadata.height, channels: metadata.channels, depth: metadata.depth, frames: Math.max(1, metadata.pages ?? 1) };
}

/**
 * Why this shape is refused, or null. Every frame counts although only the first is decoded today: a change to
 * decode animations cannot then slip past the budget.
 */
export function shapeRefusal(shape: ImageShape, maxPixels: number): ImageRefusal | null {
  const long = Math.max(shape.width, shape.height);
  const short = Math.min(shape.width, shape.height);
  if (long > maxImageEdge || long > short * maxImageAspect) {
    return { code: 'bad-shape', width: shape.width, height: shape.height, maxEdge: maxImageEdge, maxAspect: maxImageAspect };
  }
  const bytes = shape.width * shape.height * shape.channels * (bytesPerSample[shape.depth] ?? 4) * shape.frames;
  const limitBytes = maxPixels * decodedBytesPerPixel;
  return bytes > limitBytes ? { code: 'too-much-data', bytes, limitBytes } : null;
}
