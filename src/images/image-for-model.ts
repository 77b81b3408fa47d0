import sharp from 'sharp';
import type { ImageRefusal, ModelImage } from '../shared/image-reading.js';
import { decodeFailure, decodeOptions, decodeTimeoutSeconds, white } from './decode-options.js';
import { inspectImage } from './inspect-image.js';

// The picture a model with vision is shown: upright, one frame, on white, no larger than it needs, sRGB JPEG,
// and nothing but pixels — EXIF (with any GPS position), XMP, IPTC and the ICC profile never leave the box.

export interface ModelImageOptions {
  /** The long edge of the output, in pixels (never enlarged). */
  maxEdge: number;
  maxPixels: number;
}

/** 4:4:4 keeps the colour of thin text strokes (red prices, blue links) that 4:2:0 would smear. */
const jpegQuality = 85;

export async function imageForModel(bytes: Uint8Array, options: ModelImageOptions): Promise<ModelImage | { refusal: ImageRefusal }> {
  const inspected = await inspectImage(bytes, { maxBytes: Number.POSITIVE_INFINITY, maxPixels: options.maxPixels });
  if (!inspected.ok) return { refusal: inspected.refusal };
  try {
    const output = await sharp(bytes, decodeOptions(options.maxPixels))
      .autoOrient()
      .flatten({ background: white })
      .resize({ width: options.maxEdge, height: options.maxEdge, fit: 'inside', withoutEnlargement: true })
      .toColourspace('srgb')
      // sharp keeps no metadata unless asked (withMetadata, keepExif, keepIccProfile…): none is asked for.
      .jpeg({ quality: jpegQuality, chromaSubsampling: '4:4:4' })
      .timeout({ seconds: decodeTimeoutSeconds })
      .toBuffer();
    return { mime: 'image/jpeg', bytes: new Uint8Array(output.buffer, output.byteOffset, output.byteLength) };
  } catch (error) {
    return { refusal: decodeFailure(error) };
  }
}
