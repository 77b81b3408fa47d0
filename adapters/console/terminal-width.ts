import { graphemeSegmenter } from '../format/graphemes.js';
import { segmentsOf } from '../../src/shared/segments.js';

// How many terminal columns a text takes, the way terminals (wcwidth) count them: marks above and below a letter
// take none, a spacing vowel such as Thai SARA AM (ำ, joined to its consonant in one grapheme) takes one, wide
// East Asian characters and emoji take two. Counting graphemes instead would put every น้ำ or กำ a column short.

const zeroWidth = /[\p{Mn}\p{Me}\p{Cf}]/u;
const emoji = /\p{Emoji_Presentation}|\ufe0f/u;

/** East Asian Wide and Fullwidth blocks (the CJK, Hangul, kana and fullwidth forms a chat answer may hold). */
const wideRanges: readonly (readonly [number, number])[] = [
  [0x1100, 0x115f],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xa960, 0xa97f],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe10, 0xfe19],
  [0xfe30, 0xfe6f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x20000, 0x2fffd],
  [0x30000, 0x3fffd],
];

function codePointWidth(character: string): number {
  if (zeroWidth.test(character)) return 0;
  const code = character.codePointAt(0) ?? 0;
  return wideRanges.some(([from, to]) => code >= from && code <= to) ? 2 : 1;
}

/** Columns of one grapheme cluster. */
export function graphemeWidth(grapheme: string): number {
  if (emoji.test(grapheme)) return 2;
  let width = 0;
  for (const character of grapheme) width += codePointWidth(character);
  return width;
}

/** Columns of a one-line text (no newlines, no control characters: terminal-safe.ts removes those first). */
export function terminalWidth(text: string): number {
  let width = 0;
  for (const { segment } of segmentsOf(graphemeSegmenter, text)) width += graphemeWidth(segment);
  return width;
}
