import sharp from 'sharp';

// libvips keeps up to 50 MB of recent operations by default; every image here is decoded once and dropped, so the
// cache would only hold native memory beside the model server.
sharp.cache(false);

/**
 * How every decoding sharp() here is opened: libvips refuses more than `maxPixels` before it allocates them (a
 * decompression bomb stops here even if the header check was skipped), only the first frame of an animation is
 * read, and a slightly damaged file (a truncated phone JPEG that every viewer shows) still decodes: only a
 * real decode error fails.
 */
export function decodeOptions(maxPixels: number): sharp.SharpOptions {
  return { limitInputPixels: maxPixels, pages: 1, page: 0, failOn: 'error' };
}

/** White, for flattening transparency and for the corners a rotation uncovers: paper, not black. */
export const white = { r: 255, g: 255, b: 255, alpha: 1 } as const;
