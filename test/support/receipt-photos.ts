import { writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { renderTextImage, thaiReceiptText } from './text-images.js';

// Photos for the image-reading tests, written into a test's data directory: the receipt as a phone would send it
// (large, JPEG, with an EXIF GPS position) and small variants for the bad-input cases.

/** A GPS position in Bangkok, written as EXIF (the vision copy must not carry it). */
export const gpsExif = {
  IFD0: { Make: 'SaengTestPhone', Model: 'Receipt Cam' },
  IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '13/1 45/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '100/1 30/1 0/1' },
};

/** The receipt, rendered large (about 2,200 px tall) and saved as a JPEG with a GPS position. */
export async function writeReceiptPhoto(directory: string, name = 'receipt.jpg'): Promise<string> {
  const png = await renderTextImage({ text: thaiReceiptText, points: 14, dpi: 700, margin: 200 });
  const jpeg = await sharp(png).withExif(gpsExif).jpeg({ quality: 90 }).toBuffer();
  const file = path.join(directory, name);
  writeFileSync(file, jpeg);
  return file;
}

export async function writeTextImage(directory: string, name: string, text: string, font: 'NotoSansThai' | 'PlexMono' = 'NotoSansThai'): Promise<string> {
  const file = path.join(directory, name);
  writeFileSync(file, await renderTextImage({ text, font }));
  return file;
}
