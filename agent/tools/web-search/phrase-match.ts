import { segmentsOf } from '../../../src/shared/segments.js';
// Whole-word phrase matching for Thai and English. Thai has no spaces, so a phrase counts only where it
// starts and ends on a word boundary of Intl.Segmenter: "หาให้" must not match inside "ปัญหาให้".

const segmenter = new Intl.Segmenter('th', { granularity: 'word' });

export type PhrasePosition = 'anywhere' | 'start' | 'end';

/** Character offsets where a word starts or ends. */
export function wordBoundaries(text: string): Set<number> {
  const boundaries = new Set<number>([0, text.length]);
  for (const segment of segmentsOf(segmenter, text)) {
    boundaries.add(segment.index);
    boundaries.add(segment.index + segment.segment.length);
  }
  return boundaries;
}

/** Thai words of a text (word-like segments only), lower-cased. */
export function words(text: string): string[] {
  const found: string[] = [];
  for (const segment of segmentsOf(segmenter, text.toLowerCase())) {
    if (segment.isWordLike) found.push(segment.segment);
  }
  return found;
}

interface Range {
  start: number;
  end: number;
}

function trimmedBounds(text: string): Range {
  const start = text.search(/[^\s\p{P}]/u);
  if (start < 0) return { start: 0, end: 0 };
  let end = text.length;
  while (end > start && /[\s\p{P}]/u.test(text[end - 1] ?? '')) end -= 1;
  return { start, end };
}

function occurrences(lower: string, phrase: string, boundaries: Set<number>, position: PhrasePosition): Range[] {
  const found: Range[] = [];
  const bounds = trimmedBounds(lower);
  let from = 0;
  for (;;) {
    const start = lower.indexOf(phrase, from);
    if (start < 0) return found;
    const end = start + phrase.length;
    from = start + 1;
    if (!boundaries.has(start) || !boundaries.has(end)) continue;
    if (position === 'start' && start !== bounds.start) continue;
    if (position === 'end' && end !== bounds.end) continue;
    found.push({ start, end });
  }
}

/** True when any phrase occurs as whole words. Phrases must be lower-case. */
export function containsPhrase(text: string, phrases: readonly string[]): boolean {
  const lower = text.toLowerCase();
  const boundaries = wordBoundaries(lower);
  return phrases.some((phrase) => occurrences(lower, phrase, boundaries, 'anywhere').length > 0);
}

/** The phrases (lower-case) that occur as whole words, in list order. */
export function phrasesIn(text: string, phrases: readonly string[]): string[] {
  const lower = text.toLowerCase();
  const boundaries = wordBoundaries(lower);
  return phrases.filter((phrase) => occurrences(lower, phrase, boundaries, 'anywhere').length > 0);
}

/**
 * Removes whole-word occurrences of the phrases; 'end' phrases are stripped repeatedly (stacked particles
 * such as "หน่อยครับ"). Returns the text with spaces collapsed.
 */
export function stripPhrases(text: string, phrases: readonly string[], position: PhrasePosition): string {
  let current = text;
  for (let pass = 0; pass < 4; pass += 1) {
    const lower = current.toLowerCase();
    // Lower-casing can change lengths for a few scripts; then offsets would not line up.
    const base = lower.length === current.length ? current : lower;
    const boundaries = wordBoundaries(lower);
    const ranges = phrases.flatMap((phrase) => occurrences(lower, phrase, boundaries, position));
    if (ranges.length === 0) break;
    const removed = new Array<boolean>(base.length).fill(false);
    for (const range of ranges) removed.fill(true, range.start, range.end);
    let kept = '';
    for (let index = 0; index < base.length; index += 1) kept += removed[index] ? ' ' : base[index];
    current = kept.replace(/\s+/g, ' ').trim();
    if (position === 'anywhere') break;
  }
  return current;
}
