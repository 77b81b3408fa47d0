import { type Edit, maximumEdits } from './normalize-fragments.js';

// A credential written in base64 or hex: each block (a maximal run of the alphabet) that decodes to mostly
// printable ASCII is replaced by what it decodes to. A token, a hash, a UUID, an image or a DER key decodes to
// random bytes and is left alone; one level only (base64 of base64 is not followed). Bounded per message: at most
// `maximumBlocks` decoded and `maximumDecodedBytes` in all.

const minimumBase64 = 16;
const minimumHex = 20;
const maximumBlocks = 200;

const maximumDecodedBytes = 65_536;
/** The decoded text must be at least this share printable ASCII (tabs and line breaks count). */
const minimumPrintable = 0.9;

const base64Table = new Uint8Array(128);
for (const character of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_') base64Table[character.charCodeAt(0)] = 1;

function isBase64(code: number): boolean {
  return code < 128 && base64Table[code] === 1;
}

function isHex(code: number): boolean {
  const lower = code | 32;
  return (code >= 48 && code <= 57) || (lower >= 97 && lower <= 102);
}

function printableShare(bytes: Buffer): number {
  let printable = 0;
  for (const byte of bytes) if ((byte >= 32 && byte < 127) || byte === 9 || byte === 10 || byte === 13) printable++;
  return bytes.length === 0 ? 0 : printable / bytes.length;
}

/** The bytes of a block, or undefined when its length or alphabet cannot be base64 or hex. */
function decodeBlock(block: string, padding: number): Buffer | undefined {
  let hex = padding === 0 && block.length >= minimumHex && block.length % 2 === 0;
  for (let index = 0; hex && index < block.length; index++) hex = isHex(block.charCodeAt(index));
  if (hex) return Buffer.from(block, 'hex');
  if (block.length < minimumBase64) return undefined;
  const url = /[-_]/.test(block);
  if (url && /[+/]/.test(block)) return undefined; // two alphabets mixed: a path or a token, not base64
  const length = block.length + padding;
  if ((padding > 0 && length % 4 !== 0) || length % 4 === 1) return undefined;
  return Buffer.from(block, url ? 'base64url' : 'base64');
}

/** A JWT's segments (`eyJ…`, joined by dots) are matched as a JWT; decoding them shows only its JSON. */
function isJwtSegment(text: string, start: number, end: number): boolean {
  return (text[start - 1] === '.' && isBase64(text.charCodeAt(start - 2))) || (text[end] === '.' && isBase64(text.charCodeAt(end + 1)));
}

// Blocks of the base64 and base64url alphabets (hex is in both) of `minimumBase64` or more, found natively.
const blocks = /[A-Za-z0-9+/_-]{16,}/g;

export function decodedEdits(text: string): Edit[] {
  const edits: Edit[] = [];
  let decodedBytes = 0;
  let decoded = 0;
  blocks.lastIndex = 0;
  for (let match = blocks.exec(text); match !== null && edits.length < maximumEdits; match = blocks.exec(text)) {
    const start = match.index;
    let end = start + match[0].length;
    let padding = 0;
    while (padding < 2 && text[end + padding] === '=') padding++;
    if (isJwtSegment(text, start, end + padding)) continue;
    // A block too large for what is left of the budget is skipped before it is decoded (960 KB of base64).
    if (decodedBytes + Math.ceil((end - start) * 0.75) > maximumDecodedBytes) continue;
    const bytes = decodeBlock(match[0], padding);
    if (!bytes) continue;
    if (++decoded > maximumBlocks) break;
    decodedBytes += bytes.length;
    end += padding;
    if (printableShare(bytes) >= minimumPrintable) edits.push({ start, end, replacement: bytes.toString('latin1') });
  }
  return edits;
}
