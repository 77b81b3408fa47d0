// Plain-text bytes → string. Thai files saved by older Windows tools are often TIS-620 / Windows-874, not UTF-8.

const utf8 = new TextDecoder('utf-8', { fatal: true });
const thaiWindows = new TextDecoder('windows-874');

export function decodeText(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  const body = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  try {
    return utf8.decode(body);
  } catch {
    return thaiWindows.decode(body);
  }
}
