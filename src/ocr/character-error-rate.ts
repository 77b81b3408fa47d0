import { composeSaraAm } from './sara-am.js';

/** Longer inputs are cut here: the distance costs reference × hypothesis steps. */
export const characterErrorRateLimit = 20_000;

const whitespace = /\s/gu;

function comparable(text: string): string[] {
  const normalized = composeSaraAm(text.slice(0, characterErrorRateLimit * 2).normalize('NFC')).replace(whitespace, '');
  return Array.from(normalized).slice(0, characterErrorRateLimit);
}

/**
 * Levenshtein distance between the two texts over code points, divided by the reference length: NFC, sara am
 * composed and whitespace removed on both sides (tesseract's line breaks and spacing are not what is measured).
 * 0 is a perfect read; it can exceed 1 when the hypothesis is much longer. An empty reference gives 0 for an
 * empty hypothesis and 1 otherwise.
 */
export function characterErrorRate(reference: string, hypothesis: string): number {
  const expected = comparable(reference);
  const actual = comparable(hypothesis);
  if (expected.length === 0) return actual.length === 0 ? 0 : 1;
  // Two rows of the dynamic-programming table: previous[j] is the distance between expected[0, i) and actual[0, j).
  let previous = Array.from({ length: actual.length + 1 }, (_, index) => index);
  let current = new Array<number>(actual.length + 1).fill(0);
  for (let i = 1; i <= expected.length; i += 1) {
    current[0] = i;
    for (let j = 1; j <= actual.length; j += 1) {
      const substitution = (previous[j - 1] ?? 0) + (expected[i - 1] === actual[j - 1] ? 0 : 1);
      current[j] = Math.min(substitution, (previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1);
    }
    [previous, current] = [current, previous];
  }
  return (previous[actual.length] ?? 0) / expected.length;
}
