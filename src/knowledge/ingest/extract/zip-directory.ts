import type { IngestFailure } from '../ingest-failure.js';

// A DOCX is a ZIP. Before any parser inflates it, its central directory says how many entries it has and how large
// each claims to be: a few hundred KB that claim hundreds of MB, or compress better than XML ever does, are a bomb.
// The claims can lie; the worker's memory and time limits (parse-in-worker.ts) catch a liar.

export interface ZipLimits {
  maxEntries: number;
  /** Declared uncompressed bytes of all entries together. */
  maxUncompressedBytes: number;
  /** Uncompressed ÷ compressed of an entry over 1 MB: Word's XML deflates about 5–20:1; a bomb 300:1 and more. */
  maxCompressionRatio: number;
}

export const defaultZipLimits: ZipLimits = { maxEntries: 5000, maxUncompressedBytes: 100 * 1024 * 1024, maxCompressionRatio: 100 };

const endSignature = 0x06054b50;
const entrySignature = 0x02014b50;
/** The end record is 22 bytes plus a comment of at most 65,535. */
const maxEndSearch = 22 + 0xffff;
const ratioCheckedFrom = 1024 * 1024;

/** null when the directory's claims are within the limits; a failure (corrupt or too complex) otherwise. */
export function zipDirectoryFailure(bytes: Uint8Array, limits: ZipLimits = defaultZipLimits): IngestFailure | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const corrupt: IngestFailure = { code: 'corrupt', type: 'docx' };
  const tooComplex: IngestFailure = { code: 'too-complex', type: 'docx' };
  let end = -1;
  for (let offset = bytes.length - 22; offset >= Math.max(0, bytes.length - maxEndSearch); offset -= 1) {
    if (view.getUint32(offset, true) === endSignature) {
      end = offset;
      break;
    }
  }
  if (end < 0) return corrupt;
  const entries = view.getUint16(end + 10, true);
  const directoryStart = view.getUint32(end + 16, true);
  // 0xffff entries or 0xffffffff offsets mean ZIP64: no Word document needs it.
  if (entries > limits.maxEntries || entries === 0xffff) return tooComplex;
  let total = 0;
  let offset = directoryStart;
  for (let index = 0; index < entries; index += 1) {
    if (offset + 46 > bytes.length || view.getUint32(offset, true) !== entrySignature) return corrupt;
    const compressed = view.getUint32(offset + 20, true);
    const uncompressed = view.getUint32(offset + 24, true);
    if (compressed === 0xffffffff || uncompressed === 0xffffffff) return tooComplex;
    total += uncompressed;
    if (total > limits.maxUncompressedBytes) return tooComplex;
    if (uncompressed > ratioCheckedFrom && uncompressed > Math.max(1, compressed) * limits.maxCompressionRatio) return tooComplex;
    offset += 46 + view.getUint16(offset + 28, true) + view.getUint16(offset + 30, true) + view.getUint16(offset + 32, true);
  }
  return null;
}
