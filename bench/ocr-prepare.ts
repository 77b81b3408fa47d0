import { imageForOcr } from '../src/images/image-for-ocr.js';

// PREPARED: the engine's pre-processing (src/images/image-for-ocr.ts) with the default MAX_IMAGE_PIXELS.
export const preparationSource = 'imageForOcr (src/images/image-for-ocr.ts), maxPixels 50,000,000';

const maxPixels = 50_000_000;

export interface PreparedForOcr {
  png: Buffer;
  /** What the pre-processing measured: the skew it turned back (degrees) and the scale it applied. */
  angle: number;
  scale: number;
}

export async function prepareForOcr(image: Buffer): Promise<PreparedForOcr> {
  const prepared = await imageForOcr(image, { maxPixels });
  if (!prepared.ok) throw new Error(`imageForOcr refused a bench image: ${prepared.refusal.code}`);
  return { png: Buffer.from(prepared.png.buffer, prepared.png.byteOffset, prepared.png.byteLength), angle: prepared.angle, scale: prepared.scale };
}
