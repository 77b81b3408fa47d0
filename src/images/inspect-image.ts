import sharp from 'sharp';
import type { ImageRefusal } from '../shared/image-reading.js';
import { shapeOf, shapeRefusal } from './image-budget.js';
import { pngMetadataRefusal } from './png-metadata.js';
import { imageMimeTypes, sniffImageFormat, type AcceptedImageFormat } from './sniff-image-format.js';

// The cheap gate every image passes before anything decodes it: size, what the bytes are, compressed PNG metadata
// (inflated with a cap), and the header's shape — pixel count, edge, aspect, decoded bytes of every frame (a
// 50,000 × 50,000 PNG or a 49,000,000 × 1 strip of a few hundred KB is refused here, without a pixel decoded).

export interface ImageLimits {
  maxBytes: number;
  maxPixels: number;
}

export type InspectedImage =
  { ok: true; format: AcceptedImageFormat; mime: string; width: number; height: number; animated: boolean } | { ok: false; refusal: ImageRefusal };

export async function inspectImage(bytes: Uint8Array, limits: ImageLimits): Promise<InspectedImage> {
  if (bytes.length > limits.maxBytes) return { ok: false, refusal: { code: 'too-large', bytes: bytes.length, limitBytes: limits.maxBytes } };
  const sniffed = sniffImageFormat(bytes);
  if (!sniffed) return { ok: false, refusal: { code: 'not-an-image' } };
  if (!sniffed.accepted) return { ok: false, refusal: { code: 'unsupported-format', format: sniffed.name } };
  const metadataBomb = sniffed.format === 'png' ? pngMetadataRefusal(bytes) : null;
  if (metadataBomb) return { ok: false, refusal: metadataBomb };

  let metadata: sharp.Metadata;
  try {
    // Header only: nothing is decoded, so no pixel limit here (it would hide the size the refusal reports);
    // the dimensions are checked just below, and every decoding sharp() carries limitInputPixels.
    metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    return { ok: false, refusal: { code: 'corrupt' } };
  }
  const { width, height } = metadata;
  if (metadata.format !== sniffed.format || !(width > 0) || !(height > 0)) return { ok: false, refusal: { code: 'corrupt' } };
  const pixels = width * height;
  if (pixels > limits.maxPixels) return { ok: false, refusal: { code: 'too-many-pixels', pixels, limitPixels: limits.maxPixels } };
  const badShape = shapeRefusal(shapeOf(metadata), limits.maxPixels);
  if (badShape) return { ok: false, refusal: badShape };
  return { ok: true, format: sniffed.format, mime: imageMimeTypes[sniffed.format], width, height, animated: (metadata.pages ?? 1) > 1 };
}
