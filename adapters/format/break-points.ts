import { segmentsOf } from '../../src/shared/segments.js';
import { graphemeSegmenter, wordSegmenter } from './graphemes.js';

// How good a place each position of a text is to cut at (position p is between text[p - 1] and text[p]).

export const Break = {
  /** Inside a surrogate pair: never. */
  Never: 0,
  /** Between code points inside a grapheme: only when one grapheme is longer than a whole part. */
  CodePoint: 1,
  Grapheme: 2,
  Word: 3,
  Line: 4,
  Paragraph: 5,
} as const;

/** One `Break` per position 0..text.length. */
export function breakPoints(text: string): Uint8Array {
  const points = new Uint8Array(text.length + 1).fill(Break.CodePoint);
  for (let position = 1; position < text.length; position += 1) {
    const code = text.charCodeAt(position);
    const before = text.charCodeAt(position - 1);
    if (code >= 0xdc00 && code <= 0xdfff && before >= 0xd800 && before <= 0xdbff) points[position] = Break.Never;
  }
  for (const { index } of segmentsOf(graphemeSegmenter, text)) points[index] = Break.Grapheme;
  points[text.length] = Break.Grapheme;
  // Word boundaries count only where they are grapheme boundaries too.
  for (const { index } of segmentsOf(wordSegmenter, text)) if (points[index] === Break.Grapheme) points[index] = Break.Word;
  for (let position = 1; position <= text.length; position += 1) {
    if (text[position - 1] !== '\n' || (points[position] ?? Break.Never) < Break.Grapheme) continue;
    points[position] = position >= 2 && text[position - 2] === '\n' ? Break.Paragraph : Break.Line;
  }
  return points;
}
