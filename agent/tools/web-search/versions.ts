import { thaiDigitsToAscii } from '../../../src/shared/thai-digits.js';

// Software versions named in a text: "Python 3.12", "python3.9", "version 20", "เวอร์ชัน 3.12", "v18".

export interface VersionMention {
  /** Lower-cased product word; '' when only a generic word ("version", "v") introduced the number. */
  product: string;
  /** Dotted or whole number as written, e.g. "3.12.3". */
  version: string;
}

const genericWords = new Set(['version', 'ver', 'v', 'release', 'เวอร์ชัน', 'เวอร์ชั่น', 'รุ่น']);
const dottedNumber = /\d{1,3}(?:\.\d{1,4}){1,3}/g;
// A generic word before any number, dotted or not ("version 20", "v18").
const genericVersion = /(?:version|ver\.?|เวอร์ชัน|เวอร์ชั่น|รุ่น|\bv) ?(\d{1,3}(?:\.\d{1,4}){0,3})(?!\d|\.\d)/giu;
const productCharacter = /[\p{L}\p{M}+#-]/u;
const letter = /\p{L}/u;

const maxTextLength = 4000;
const maxProductLength = 24;

function isDigit(character: string | undefined): boolean {
  return character !== undefined && character >= '0' && character <= '9';
}

/** The word right before `index` (one optional space between), scanned backwards; '' when there is none. */
function productBefore(text: string, index: number): string {
  let end = index;
  if (text[end - 1] === ' ') end -= 1;
  let start = end;
  while (start > 0 && end - start < maxProductLength && productCharacter.test(text[start - 1] ?? '')) start -= 1;
  // The word must start with a letter (not a mark, "+" or "-").
  while (start < end && !letter.test(text[start] ?? '')) start += 1;
  return text.slice(start, end);
}

export function extractVersions(text: string): VersionMention[] {
  const ascii = thaiDigitsToAscii(text.slice(0, maxTextLength)).toLowerCase();
  const found = new Map<string, VersionMention>();
  for (const match of ascii.matchAll(dottedNumber)) {
    const start = match.index;
    const end = start + match[0].length;
    // Whole numbers only: not the tail of a longer number, not cut before more digits.
    if (isDigit(ascii[start - 1]) || ascii[start - 1] === '.' || isDigit(ascii[end]) || (ascii[end] === '.' && isDigit(ascii[end + 1]))) continue;
    const word = productBefore(ascii, start);
    if (word === '') continue;
    const product = genericWords.has(word) ? '' : word;
    found.set(`${product}@${match[0]}`, { product, version: match[0] });
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
