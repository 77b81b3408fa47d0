import { segmentsOf } from '../../shared/segments.js';
import { normalizeCharacters } from './normalize-text.js';

// Index and query tokens. Thai has no spaces between words, so words come from ICU's dictionary segmenter.
// Every token is one run of letters, marks or digits: exactly one term for the FTS5 `unicode61` tokenizer
// configured with `categories 'L* N* Co M*'` (without M*, unicode61 splits Thai words at their vowel marks).

const wordSegmenter = new Intl.Segmenter('th', { granularity: 'word' });

/** Longest token kept: longer runs are hashes, base64 or URLs squashed together, useless for search. */
export const maxTokenLength = 40;

/** Input beyond this is not tokenized (a chunk is ~1,200 characters; a query is far shorter). */
export const maxTokenizedCharacters = 20_000;

const letterOrMark = /[\p{L}\p{M}]/u;
const latinWithMarks = /^[\p{Script=Latin}\p{M}0-9]{1,40}$/u;
const combiningMark = /\p{M}/gu;

type CharacterClass = 'letter' | 'digit' | 'other';

/** Fast paths for ASCII and the Thai block (this runs for every character indexed); Unicode classes otherwise. */
function classify(character: string): CharacterClass {
  const code = character.charCodeAt(0);
  if (code >= 0x30 && code <= 0x39) return 'digit';
  if ((code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a)) return 'letter';
  // Thai letters, vowels and tone marks; ฿ (U+0E3F) and ๏ ๚ ๛ are symbols or punctuation.
  if (code >= 0x0e01 && code <= 0x0e4e) return code === 0x0e3f ? 'other' : 'letter';
  if (code < 0x80) return 'other';
  return letterOrMark.test(character) ? 'letter' : 'other';
}

/** Splits a segment into runs of letters or digits (ICU glues them: `ขึ้น25` is one segment). */
function runs(segment: string, into: string[]): void {
  let current = '';
  let currentClass: CharacterClass = 'other';
  for (const character of segment) {
    const characterClass = classify(character);
    if (characterClass !== currentClass || characterClass === 'other') {
      if (current && currentClass !== 'other') into.push(current);
      current = '';
    }
    currentClass = characterClass;
    if (characterClass !== 'other') current += character;
  }
  if (current && currentClass !== 'other') into.push(current);
}

/** Latin accents are folded (café → cafe); Thai marks are part of the word and stay. */
function fold(token: string): string {
  if (!latinWithMarks.test(token)) return token;
  return token.normalize('NFD').replace(combiningMark, '').normalize('NFC');
}

/** Puts a space between Thai/Latin letters and digits so ICU segments `ราคา1234บาท` as three words. */
function separateDigits(text: string): string {
  let output = '';
  let previous: CharacterClass = 'other';
  for (const character of text) {
    const current = classify(character);
    if ((previous === 'digit' && current === 'letter') || (previous === 'letter' && current === 'digit')) output += ' ';
    output += character;
    previous = current;
  }
  return output;
}

/** Lower-cased, NFC, Thai digits as ASCII, Thai segmented into dictionary words. */
export function tokenize(text: string): string[] {
  const prepared = separateDigits(normalizeCharacters(text.slice(0, maxTokenizedCharacters)).toLowerCase());
  const pieces: string[] = [];
  for (const { segment, isWordLike } of segmentsOf(wordSegmenter, prepared)) {
    if (isWordLike) runs(segment, pieces);
  }
  const tokens: string[] = [];
  for (const piece of pieces) {
    if (piece.length <= maxTokenLength) tokens.push(fold(piece));
  }
  return tokens;
}

/** The baseline without Thai segmentation: whitespace and punctuation only (for the benchmark's comparison). */
export function tokenizeWithoutSegmentation(text: string): string[] {
  const pieces: string[] = [];
  for (const word of normalizeCharacters(text.slice(0, maxTokenizedCharacters)).toLowerCase().split(/\s/)) {
    runs(word, pieces);
  }
  return pieces.filter((piece) => piece.length <= maxTokenLength).map(fold);
}
