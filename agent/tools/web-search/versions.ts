import { toAsciiDigits } from './thai-text.js';

// Software versions named in a text: "Python 3.12", "python3.9", "version 20", "เวอร์ชัน 3.12", "v18".

export interface VersionMention {
  /** Lower-cased product word; '' when only a generic word ("version", "v") introduced the number. */
  product: string;
  /** Dotted or whole number as written, e.g. "3.12.3". */
  version: string;
}

const genericWords = new Set(['version', 'ver', 'v', 'release', 'เวอร์ชัน', 'เวอร์ชั่น', 'รุ่น']);
// A product word directly before a dotted number; a generic word before any number.
const productVersion = /(\p{L}[\p{L}\p{M}+#-]{0,23}) ?(\d{1,3}(?:\.\d{1,4}){1,3})(?!\d|\.\d)/gu;
const genericVersion = /(?:version|ver\.?|เวอร์ชัน|เวอร์ชั่น|รุ่น|\bv) ?(\d{1,3}(?:\.\d{1,4}){0,3})(?!\d|\.\d)/giu;

const maxTextLength = 4000;

export function extractVersions(text: string): VersionMention[] {
  const ascii = toAsciiDigits(text.slice(0, maxTextLength)).toLowerCase();
  const found = new Map<string, VersionMention>();
  for (const match of ascii.matchAll(productVersion)) {
    const word = match[1] ?? '';
    const version = match[2] ?? '';
    const product = genericWords.has(word) ? '' : word;
    found.set(`${product}@${version}`, { product, version });
  }
  for (const match of ascii.matchAll(genericVersion)) {
    const version = match[1] ?? '';
    if (version !== '') found.set(`@${version}`, { product: '', version });
  }
  return [...found.values()];
}

/** "3.12" and "3.12.3" name the same release line; "3.1" and "3.12" do not. */
export function sameVersionLine(left: string, right: string): boolean {
  const leftParts = left.split('.');
  const rightParts = right.split('.');
  const shared = Math.min(leftParts.length, rightParts.length);
  for (let index = 0; index < shared; index += 1) {
    if (Number(leftParts[index]) !== Number(rightParts[index])) return false;
  }
  return true;
}
