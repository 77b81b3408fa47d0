// What the first bytes of a file say it is, before any decoder sees it: the four formats we read, or the human
// name of a format we refuse (for a message that says what to send instead), or nothing recognisable at all.

export type AcceptedImageFormat = 'jpeg' | 'png' | 'webp' | 'gif';

export type SniffedFormat = { accepted: true; format: AcceptedImageFormat } | { accepted: false; name: string };

export const imageMimeTypes: Record<AcceptedImageFormat, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
};

/** ISO base media brands (the `ftyp` box) of the HEIF family; `mif1`/`msf1` are generic and read on. */
const heicBrands = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'hevm', 'hevs']);
const avifBrands = new Set(['avif', 'avis']);

export function sniffImageFormat(bytes: Uint8Array): SniffedFormat | null {
  const startsWith = (signature: readonly number[], offset = 0) => signature.every((byte, index) => bytes[offset + index] === byte);
  const ascii = (start: number, end: number) => String.fromCharCode(...bytes.subarray(start, end));

  if (startsWith([0xff, 0xd8, 0xff])) return { accepted: true, format: 'jpeg' };
  if (startsWith([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { accepted: true, format: 'png' };
  if (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a') return { accepted: true, format: 'gif' };
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return { accepted: true, format: 'webp' };

  if (ascii(4, 8) === 'ftyp') return { accepted: false, name: isoMediaName(bytes) };
  if (startsWith([0x49, 0x49, 0x2a, 0x00]) || startsWith([0x4d, 0x4d, 0x00, 0x2a])) return { accepted: false, name: 'TIFF' };
  if (ascii(0, 2) === 'BM') return { accepted: false, name: 'BMP' };
  if (ascii(0, 5) === '%PDF-') return { accepted: false, name: 'PDF' };
  if (ascii(0, 4) === '8BPS') return { accepted: false, name: 'PSD' };
  if (startsWith([0x00, 0x00, 0x01, 0x00])) return { accepted: false, name: 'ICO' };
  if (startsWith([0xff, 0x0a]) || startsWith([0x00, 0x00, 0x00, 0x0c, 0x4a, 0x58, 0x4c, 0x20])) return { accepted: false, name: 'JPEG XL' };
  if (startsWith([0x00, 0x00, 0x00, 0x0c, 0x6a, 0x50, 0x20, 0x20]) || startsWith([0xff, 0x4f, 0xff, 0x51])) return { accepted: false, name: 'JPEG 2000' };
  if (looksLikeSvg(bytes)) return { accepted: false, name: 'SVG' };
  return null;
}

/** HEIC, AVIF or HEIF from the major and compatible brands of the `ftyp` box; other ISO media (MP4, MOV…) is a video. */
function isoMediaName(bytes: Uint8Array): string {
  const boxSize = Math.min(bytes.length, ((bytes[0] ?? 0) << 24) | ((bytes[1] ?? 0) << 16) | ((bytes[2] ?? 0) << 8) | (bytes[3] ?? 0), 256);
  const brands: string[] = [];
  // Major brand at 8, minor version at 12, compatible brands from 16 to the end of the box.
  for (let offset = 8; offset + 4 <= boxSize; offset += offset === 8 ? 8 : 4) brands.push(String.fromCharCode(...bytes.subarray(offset, offset + 4)));
  if (brands.some((brand) => avifBrands.has(brand))) return 'AVIF';
  if (brands.some((brand) => heicBrands.has(brand))) return 'HEIC';
  if (brands.includes('mif1') || brands.includes('msf1')) return 'HEIF';
  return 'video';
}

/** An SVG is text: an `<svg` element near the start, perhaps after an XML declaration, a doctype or a comment. */
function looksLikeSvg(bytes: Uint8Array): boolean {
  const head = new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(0, 1024)).trimStart().toLowerCase();
  if (!head.startsWith('<')) return false;
  return head.startsWith('<svg') || ((head.startsWith('<?xml') || head.startsWith('<!')) && head.includes('<svg'));
}
