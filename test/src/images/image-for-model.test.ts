import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { imageForModel } from '../../../src/images/image-for-model.js';
import type { ModelImage } from '../../../src/shared/image-reading.js';
import { animated, firstPixel, heicHeader, pngClaiming, solid } from './image-samples.js';

const options = { maxEdge: 1024, maxPixels: 40_000_000 };

async function modelImage(bytes: Uint8Array, given = options): Promise<ModelImage> {
  const result = await imageForModel(bytes, given);
  if ('refusal' in result) throw new Error(`refused: ${result.refusal.code}`);
  expect(result.mime).toBe('image/jpeg');
  return result;
}

describe('imageForModel', () => {
  it('strips EXIF with its GPS position, XMP and the ICC profile', async () => {
    const photo = await solid(400, 300, '#808080')
      .withExif({ IFD0: { Make: 'Phone' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '13/1 45/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '100/1 30/1 0/1' } })
      .withIccProfile('p3')
      .withXmp('<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/></x:xmpmeta>')
      .jpeg()
      .toBuffer();
    const before = await sharp(photo).metadata();
    // The GPS IFD pointer (tag 0x8825, little-endian) is in the input's EXIF.
    expect(before.exif?.includes(Buffer.from([0x25, 0x88]))).toBe(true);
    expect(before.icc).toBeDefined();
    expect(before.xmp).toBeDefined();

    const output = await modelImage(photo);
    const after = await sharp(output.bytes).metadata();
    expect([after.exif, after.icc, after.xmp, after.iptc]).toEqual([undefined, undefined, undefined, undefined]);
    expect(Buffer.from(output.bytes).includes(Buffer.from('Exif\0\0', 'latin1'))).toBe(false);
    expect(after).toMatchObject({ format: 'jpeg', space: 'srgb', channels: 3, chromaSubsampling: '4:4:4' });
  });

  it('turns a photo upright by its EXIF orientation', async () => {
    const sideways = await solid(400, 200, '#808080').withMetadata({ orientation: 6 }).jpeg().toBuffer();
    const after = await sharp((await modelImage(sideways)).bytes).metadata();
    expect([after.width, after.height, after.orientation]).toEqual([200, 400, undefined]);
  });

  it('puts transparency on white', async () => {
    const transparent = await sharp({ create: { width: 50, height: 50, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
      .png()
      .toBuffer();
    const pixel = await firstPixel((await modelImage(transparent)).bytes);
    for (const channel of pixel) expect(channel).toBeGreaterThan(250);
  });

  it.each(['gif', 'webp'] as const)('shows the first frame of an animated %s', async (format) => {
    const output = await modelImage(await animated(format));
    const after = await sharp(output.bytes).metadata();
    expect([after.width, after.height]).toEqual([40, 30]);
    const [red = 0, green = 0, blue = 0] = await firstPixel(output.bytes);
    expect(red).toBeGreaterThan(200);
    expect(Math.max(green, blue)).toBeLessThan(60);
  });

  it('caps the long edge and never enlarges', async () => {
    const wide = await sharp((await modelImage(await solid(3000, 1000, '#808080').png().toBuffer())).bytes).metadata();
    expect([wide.width, wide.height]).toEqual([1024, 341]);
    const tall = await sharp((await modelImage(await solid(1000, 3000, '#808080').png().toBuffer())).bytes).metadata();
    expect([tall.width, tall.height]).toEqual([341, 1024]);
    const small = await sharp((await modelImage(await solid(300, 200, '#808080').png().toBuffer())).bytes).metadata();
    expect([small.width, small.height]).toEqual([300, 200]);
  });

  it('refuses what it cannot show', async () => {
    expect(await imageForModel(heicHeader(), options)).toEqual({ refusal: { code: 'unsupported-format', format: 'HEIC' } });
    expect(await imageForModel(pngClaiming(50_000, 50_000), options)).toMatchObject({ refusal: { code: 'too-many-pixels' } });
    // A header that passes inspection over pixel data that does not decode.
    expect(await imageForModel(pngClaiming(100, 100), options)).toEqual({ refusal: { code: 'corrupt' } });
  });
});
