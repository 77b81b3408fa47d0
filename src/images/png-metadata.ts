import { inflateSync } from 'node:zlib';
import type { ImageRefusal } from '../shared/image-reading.js';

// A PNG's compressed metadata (an ICC profile in iCCP, text in zTXt, compressed iTXt such as XMP) can inflate a
// few hundred KB into gigabytes. Each is inflated here with a cap on the output before libvips sees the file;
// libpng's own chunk limit then never has to be relied on.

/** All compressed metadata of one PNG together: an ICC profile is at most a few hundred KB, XMP tens of KB. */
export const maxPngMetadataBytes = 4 * 1024 * 1024;
const compressedChunks = new Set(['iCCP', 'zTXt', 'iTXt']);
/** Keywords are 1–79 bytes; with the terminator and the flag bytes the compressed data starts within this. */
const maxHeaderBytes = 96;

/** The refusal for a PNG whose compressed metadata inflates past the limit, or null (also for non-PNG input). */
export function pngMetadataRefusal(bytes: Uint8Array): ImageRefusal | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let left = maxPngMetadataBytes;
  // Chunks from after the signature up to the first IDAT; each step moves on by at least 12 bytes.
  for (let offset = 8; offset + 12 <= bytes.length;) {
    const length = view.getUint32(offset);
    const type = String.fromCharCode(...bytes.subarray(offset + 4, offset + 8));
    if (type === 'IDAT' || type === 'IEND') return null;
    const data = bytes.subarray(offset + 8, Math.min(bytes.length, offset + 8 + length));
    if (compressedChunks.has(type)) {
      const compressed = compressedPart(type, data);
      if (compressed) {
        try {
          left -= inflateSync(compressed, { maxOutputLength: Math.max(1, left) }).length;
        } catch (error) {
          // Over the cap is refused; a damaged stream is libvips' to judge (it skips bad ancillary chunks).
          if (error instanceof RangeError) return { code: 'metadata-too-large', limitBytes: maxPngMetadataBytes };
        }
      }
    }
    offset += 12 + length;
  }
  return null;
}

/** The zlib stream inside an iCCP, zTXt or compressed iTXt chunk; null for an uncompressed iTXt or a bad header. */
function compressedPart(type: string, data: Uint8Array): Uint8Array | null {
  const keywordEnd = data.subarray(0, maxHeaderBytes).indexOf(0);
  if (keywordEnd < 0) return null;
  // iCCP, zTXt: keyword, 0, method, data. iTXt: keyword, 0, flag, method, language, 0, translated keyword, 0, data.
  if (type !== 'iTXt') return data.subarray(keywordEnd + 2);
  if (data[keywordEnd + 1] !== 1) return null;
  const languageEnd = data.indexOf(0, keywordEnd + 3);
  const translatedEnd = languageEnd < 0 ? -1 : data.indexOf(0, languageEnd + 1);
  return translatedEnd < 0 ? null : data.subarray(translatedEnd + 1);
}
