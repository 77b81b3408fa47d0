import sharp from 'sharp';
import type { ImageRefusal } from '../shared/image-reading.js';

// libvips keeps up to 50 MB of recent operations by default; every image here is decoded once and dropped, so the
// cache would only hold native memory beside the model server.
sharp.cache(false);
// Each libvips worker thread holds its own strips of rows. sharp already uses one on glibc Linux (less
// fragmentation); elsewhere it is one per core: two at most keeps the worst accepted image's peak (image-budget.ts)
// the same on a big machine.
sharp.concurrency(Math.min(sharp.concurrency(), 2));

/** A decode (with the pipeline after it) that runs longer is stopped: libvips checks between strips. */
export const decodeTimeoutSeconds = 30;

/**
 * How every decoding sharp() here is opened: libvips refuses more than `maxPixels` before it allocates them (a
 * decompression bomb stops here even if the header check was skipped), only the first frame of an animation is
 * read, and a slightly damaged file (a truncated phone JPEG that every viewer shows) still decodes: only a
 * real decode error fails.
 */
export function decodeOptions(maxPixels: number): sharp.SharpOptions {
  return { limitInputPixels: maxPixels, pages: 1, page: 0, failOn: 'error', sequentialRead: true };
}

/** A failed decode as a refusal: stopped by `decodeTimeoutSeconds` (sharp says "timeout"), or damaged. */
export function decodeFailure(error: unknown): ImageRefusal {
  return error instanceof Error && error.message.includes('timeout') ? { code: 'too-slow', seconds: decodeTimeoutSeconds } : { code: 'corrupt' };
}

/** White, for flattening transparency and for the corners a rotation uncovers: paper, not black. */
export const white = { r: 255, g: 255, b: 255, alpha: 1 } as const;
