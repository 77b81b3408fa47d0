import { deflateSync } from 'node:zlib';
import sharp from 'sharp';

// Image bytes for the image tests: written by sharp where it can write the format, else a minimal real header.

export function solid(width: number, height: number, colour: string, channels: 3 | 4 = 3): sharp.Sharp {
  return sharp({ create: { width, height, channels, background: colour } });
}

export async function inFormat(format: 'jpeg' | 'png' | 'webp' | 'gif' | 'tiff' | 'avif'): Promise<Buffer> {
  return solid(32, 24, '#3366cc').toFormat(format).toBuffer();
}

/** An iPhone photo's first box: `ftyp` with major brand heic (sharp's prebuilt libvips cannot write HEVC). */
export function heicHeader(): Buffer {
  const brands = ['heic', '\0\0\0\0', 'mif1', 'heic', 'miaf'];
  const box = Buffer.concat([Buffer.alloc(4), Buffer.from('ftyp'), ...brands.map((brand) => Buffer.from(brand, 'latin1'))]);
  box.writeUInt32BE(box.length, 0);
  return Buffer.concat([box, Buffer.alloc(64)]);
}

/** A 2 × 2, 24-bit BMP: file header, BITMAPINFOHEADER and the rows padded to 4 bytes. */
export function bmpImage(): Buffer {
  const pixels = Buffer.alloc(16, 0x80);
  const header = Buffer.alloc(54);
  header.write('BM', 0, 'latin1');
  header.writeUInt32LE(54 + pixels.length, 2);
  header.writeUInt32LE(54, 10);
  header.writeUInt32LE(40, 14);
  header.writeInt32LE(2, 18);
  header.writeInt32LE(2, 22);
  header.writeUInt16LE(1, 26);
  header.writeUInt16LE(24, 28);
  header.writeUInt32LE(pixels.length, 34);
  return Buffer.concat([header, pixels]);
}

export const svgImage = Buffer.from(
  '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>',
);

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeBytes = Buffer.from(type, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([typeBytes, data])));
  return Buffer.concat([length, typeBytes, data, crc]);
}

/** A decompression bomb's shape: a valid PNG header for width × height RGB, and a few hundred bytes of data. */
export function pngClaiming(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, pngChunk('IHDR', header), pngChunk('IDAT', deflateSync(Buffer.alloc(1000))), pngChunk('IEND', Buffer.alloc(0))]);
}

/** Two frames, red then blue. */
export async function animated(format: 'gif' | 'webp'): Promise<Buffer> {
  const frames = await Promise.all(['#ff0000', '#0000ff'].map((colour) => solid(40, 30, colour).png().toBuffer()));
  return sharp(frames, { join: { animated: true } })
    .toFormat(format)
    .toBuffer();
}

/** The first pixel's channels. */
export async function firstPixel(bytes: Uint8Array): Promise<number[]> {
  const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
  return [...data.subarray(0, info.channels)];
}
