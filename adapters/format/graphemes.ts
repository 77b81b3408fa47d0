import { segmentsOf } from '../../src/shared/segments.js';
// Grapheme and word boundaries from Intl.Segmenter, once per process. Thai writes no spaces between words,
// so word boundaries come from the Thai dictionary segmenter; a grapheme is a consonant with its vowels and
// tone marks, never cut apart.

export const graphemeSegmenter = new Intl.Segmenter('th', { granularity: 'grapheme' });
export const wordSegmenter = new Intl.Segmenter('th', { granularity: 'word' });

/** How many columns a text takes in a monospace table: one per grapheme (Thai marks above and below take none). */
export function displayWidth(text: string): number {
  let width = 0;
  for (const segment of segmentsOf(graphemeSegmenter, text)) if (segment.segment !== '') width += 1;
  return width;
}
