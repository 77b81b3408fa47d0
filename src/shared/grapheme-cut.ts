import { segmentsOf } from './segments.js';
const graphemes = new Intl.Segmenter('th', { granularity: 'grapheme' });

/**
 * `text` cut to at most `maxLength` UTF-16 units, ending with "…" when it was cut. Cuts only between graphemes, so
 * a Thai vowel or tone mark never loses its consonant and an emoji or surrogate pair is never split.
 */
export function cutAtGrapheme(text: string, maxLength: number): string {
  if (text.length <= maxLength) return text;
  const ellipsis = '…';
  const budget = maxLength - ellipsis.length;
  if (budget <= 0) return '';
  let end = 0;
  for (const { segment, index } of segmentsOf(graphemes, text)) {
    if (index + segment.length > budget) break;
    end = index + segment.length;
  }
  return `${text.slice(0, end).trimEnd()}${ellipsis}`;
}
