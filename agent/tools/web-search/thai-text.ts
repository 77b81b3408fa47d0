import { thaiDigitsToAscii } from '../../../src/shared/thai-digits.js';

// Text helpers shared by the search filters: Thai detection, match normalization.

/** Thai when more than 10% of the non-space characters are in the Thai block (Typhoon's rule). */
export function isThaiText(text: string): boolean {
  let thai = 0;
  let total = 0;
  for (const character of text) {
    if (character.trim() === '') continue;
    total += 1;
    const code = character.charCodeAt(0);
    if (code >= 0x0e00 && code <= 0x0e7f) thai += 1;
  }
  return total > 0 && thai / total > 0.1;
}

/**
 * Lower-case, NFC, ASCII digits, punctuation → spaces (dots kept for versions such as 3.12),
 * whitespace collapsed. Input is capped so every later regex runs on bounded text.
 */
export function normalizeForMatch(text: string, maxLength = 4000): string {
  return thaiDigitsToAscii(text.slice(0, maxLength).normalize('NFC').toLowerCase())
    .replace(/[^\p{L}\p{M}\p{N}.]/gu, ' ')
    .replace(/ {2,}/g, ' ')
    .trim();
}

/** One-line, length-capped text for showing titles and snippets. */
export function oneLine(text: string, maxLength: number): string {
  const flat = text
    .slice(0, maxLength * 2)
    .replace(/\s+/g, ' ')
    .trim();
  return flat.length > maxLength ? `${flat.slice(0, maxLength - 1).trimEnd()}…` : flat;
}
