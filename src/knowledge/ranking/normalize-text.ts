import { thaiDigitsToAscii } from '../../shared/thai-digits.js';

// Text normalization shared by indexing, querying and chunking: every path must see the same characters.

/**
 * Character-level normalization: NFC, Thai digits → ASCII, SARA AM written as NIKHAHIT + SARA AA (common in
 * text extracted from Thai PDFs; NFC does not join them) → SARA AM, zero-width characters removed (ZWSP is a
 * Thai word-break hint, so it becomes a space).
 */
export function normalizeCharacters(text: string): string {
  return thaiDigitsToAscii(text.normalize('NFC'))
    .replace(/\u0e4d([\u0e48-\u0e4b]?)\u0e32/g, '$1\u0e33')
    .replace(/\u200b/g, ' ')
    .replace(/[\u200c\u2060\ufeff\u00ad\u200d]/g, ''); // ZWJ last: between two characters it reads as joining them
}

/** normalizeCharacters, then CRLF → LF, runs of blanks collapsed, at most one empty line between paragraphs. */
export function normalizeText(text: string): string {
  return normalizeCharacters(text)
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t\f\v\u00a0\u3000]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
