import { crc32, deflateRawSync, constants } from 'node:zlib';
import sharp from 'sharp';

// Small files that decode to a lot: the shapes an attacker (or an unlucky camera) can send. Each is a few KB to a
// few hundred KB on disk, built here in milliseconds without ever holding the pixels: the zlib stream of all-zero
// bytes is one compressed segment repeated (each ends on a full flush, so segments concatenate).

/** A zlib stream of `length` zero bytes, at deflate's best ratio (about 1:1030). */
export function zerosZlib(length: number): Buffer {
  const segmentBytes = 4 * 1024 * 1024;
  const fullSegment = deflateRawSync(Buffer.alloc(segmentBytes), { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  const parts: Buffer[] = [Buffer.from([0x78, 0xda])];
  for (let left = length; left > 0; left -= segmentBytes) {
    parts.push(left >= segmentBytes ? fullSegment : deflateRawSync(Buffer.alloc(left), { level: 9, finishFlush: constants.Z_FULL_FLUSH }));
  }
  parts.push(deflateRawSync(Buffer.alloc(0)));
  // Adler-32 of zeros: a stays 1, b grows by 1 per byte.
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE((((length % 65521) << 16) | 1) >>> 0);
  parts.push(adler);
  return Buffer.concat(parts);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0);
  return Buffer.concat([head, data, crc]);
}

const pngSignature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const channelsOf = { grey: { type: 0, channels: 1 }, rgb: { type: 2, channels: 3 }, rgba: { type: 6, channels: 4 } } as const;

export interface PngShape {
  width: number;
  height: number;
  bitDepth: 8 | 16;
  colour: keyof typeof channelsOf;
  /** Chunks placed between IHDR and IDAT (iCCP, zTXt, iTXt…). */
  extra?: Buffer[];
}

/** A black PNG of this shape: every scan line filter 0 and zero samples, so its IDAT is tiny. */
export function blackPng(shape: PngShape): Buffer {
  const { type, channels } = channelsOf[shape.colour];
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(shape.width, 0);
  ihdr.writeUInt32BE(shape.height, 4);
  ihdr[8] = shape.bitDepth;
  ihdr[9] = type;
  const rowBytes = 1 + shape.width * channels * (shape.bitDepth / 8);
  return Buffer.concat([
    pngSignature,
    pngChunk('IHDR', ihdr),
    ...(shape.extra ?? []),
    pngChunk('IDAT', zerosZlib(rowBytes * shape.height)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** An iCCP chunk whose compressed profile inflates to `bytes` zero bytes. */
export function iccpBomb(bytes: number): Buffer {
  return pngChunk('iCCP', Buffer.concat([Buffer.from('bomb\0\0', 'latin1'), zerosZlib(bytes)]));
}

/** A zTXt comment that inflates to `bytes` zero bytes. */
export function ztxtBomb(bytes: number): Buffer {
  return pngChunk('zTXt', Buffer.concat([Buffer.from('Comment\0\0', 'latin1'), zerosZlib(bytes)]));
}

/** A compressed iTXt (XMP's keyword) that inflates to `bytes` zero bytes. */
export function itxtBomb(bytes: number): Buffer {
  return pngChunk('iTXt', Buffer.concat([Buffer.from('XML:com.adobe.xmp\0\x01\0\0\0', 'latin1'), zerosZlib(bytes)]));
}

/**
 * `frames` frames of `width` × `height`, each its own colour and stripes (encoders merge frames that look alike),
 * from one raw strip with a page height: keep width × height × frames × 3 bytes small.
 */
function framesStrip(width: number, height: number, frames: number): sharp.Sharp {
  const raw = Buffer.alloc(width * height * frames * 3);
  for (let frame = 0; frame < frames; frame += 1) {
    for (let pixel = 0; pixel < width * height; pixel += 1) {
      const offset = (frame * width * height + pixel) * 3;
      raw[offset] = (frame * 37) % 256;
      raw[offset + 1] = (frame * 91) % 256;
      raw[offset + 2] = ((pixel >> 4) + frame * 53) % 256;
    }
  }
  return sharp(raw, { raw: { width, height: height * frames, channels: 3, pageHeight: height } });
}

/** An animated WebP of `frames` frames of `width` × `height`. */
export function manyFrameWebp(width: number, height: number, frames: number): Promise<Buffer> {
  return framesStrip(width, height, frames).webp({ quality: 10, effort: 0 }).toBuffer();
}

/** An animated GIF the same way. */
export function manyFrameGif(width: number, height: number, frames: number): Promise<Buffer> {
  return framesStrip(width, height, frames).gif({ effort: 1 }).toBuffer();
}

/** A JPEG whose EXIF (APP1) segments are as large as JPEG allows, `count` of them. */
export async function bigExifJpeg(count: number): Promise<Buffer> {
  const jpeg = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#ffffff' } })
    .jpeg()
    .toBuffer();
  const segment = Buffer.alloc(65535 + 2);
  segment.writeUInt16BE(0xffe1, 0);
  segment.writeUInt16BE(65535, 2);
  segment.write('Exif\0\0MM\0*', 4, 'latin1');
  return Buffer.concat([jpeg.subarray(0, 2), ...Array.from({ length: count }, () => segment), jpeg.subarray(2)]);
}

/** A phone-like photo (12 MP by default): a light page with lines of dark "text" blocks and sensor noise, JPEG quality 85. */
export async function normalPhoto(width = 4000, height = 3000): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height);
  let seed = 12345;
  const random = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  for (let y = 0; y < height; y += 1) {
    const inLine = y % 90 > 30 && y % 90 < 70 && y > 200 && y < height - 200;
    for (let x = 0; x < width; x += 1) {
      const inWord = inLine && x > 200 && x < width - 200 && (x >> 5) % 7 !== 0 && ((x * 7 + y) >> 3) % 3 !== 0;
      pixels[y * width + x] = Math.max(0, Math.min(255, (inWord ? 40 : 225) + Math.round((random() - 0.5) * 30)));
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 1 } })
    .toColourspace('srgb')
    .jpeg({ quality: 85 })
    .toBuffer();
}
