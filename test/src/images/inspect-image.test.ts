import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { inspectImage } from '../../../src/images/inspect-image.js';
import { bmpImage, heicHeader, inFormat, pngClaiming, svgImage, animated } from './image-samples.js';

const limits = { maxBytes: 10 * 1024 * 1024, maxPixels: 40_000_000 };

describe('inspectImage', () => {
  it.each([
    ['jpeg', 'image/jpeg'],
    ['png', 'image/png'],
    ['webp', 'image/webp'],
    ['gif', 'image/gif'],
  ] as const)('accepts %s', async (format, mime) => {
    expect(await inspectImage(await inFormat(format), limits)).toEqual({ ok: true, format, mime, width: 32, height: 24, animated: false });
  });

  it.each(['gif', 'webp'] as const)('says an animated %s is animated, with the size of one frame', async (format) => {
    expect(await inspectImage(await animated(format), limits)).toMatchObject({ ok: true, format, width: 40, height: 30, animated: true });
  });

  it('refuses formats it does not read, naming them', async () => {
    const pdf = await PDFDocument.create();
    pdf.addPage([200, 200]);
    const samples: [Uint8Array, string][] = [
      [heicHeader(), 'HEIC'],
      [await inFormat('avif'), 'AVIF'],
      [await inFormat('tiff'), 'TIFF'],
      [bmpImage(), 'BMP'],
      [svgImage, 'SVG'],
      [await pdf.save(), 'PDF'],
    ];
    for (const [bytes, format] of samples) {
      expect(await inspectImage(bytes, limits)).toEqual({ ok: false, refusal: { code: 'unsupported-format', format } });
    }
  });

  it('says text is not an image', async () => {
    expect(await inspectImage(Buffer.from('สวัสดี, this is a text file\n'), limits)).toEqual({ ok: false, refusal: { code: 'not-an-image' } });
    expect(await inspectImage(new Uint8Array(0), limits)).toEqual({ ok: false, refusal: { code: 'not-an-image' } });
  });

  it('refuses a file over the byte limit before looking at it', async () => {
    const bytes = await inFormat('png');
    expect(await inspectImage(bytes, { ...limits, maxBytes: 100 })).toEqual({
      ok: false,
      refusal: { code: 'too-large', bytes: bytes.length, limitBytes: 100 },
    });
  });

  it('refuses a header claiming 50,000 × 50,000 from the header alone', async () => {
    const bomb = pngClaiming(50_000, 50_000);
    expect(bomb.length).toBeLessThan(2000);
    expect(await inspectImage(bomb, limits)).toEqual({
      ok: false,
      refusal: { code: 'too-many-pixels', pixels: 2_500_000_000, limitPixels: 40_000_000 },
    });
  });

  it('calls garbage behind an image signature corrupt', async () => {
    const pngSignature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
    for (const bytes of [Buffer.from([...pngSignature, ...Array<number>(200).fill(7)]), Buffer.from([0xff, 0xd8, 0xff, 0xe0, ...Array<number>(200).fill(7)])]) {
      expect(await inspectImage(bytes, limits)).toEqual({ ok: false, refusal: { code: 'corrupt' } });
    }
  });
});
