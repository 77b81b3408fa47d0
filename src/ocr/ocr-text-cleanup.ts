import { composeSaraAm } from './sara-am.js';

// What tesseract prints is not yet text to show a model or to index: sara am comes out decomposed, a page ends in a
// form feed, and small marks (tone marks on a line of their own, specks) come out as lines of noise. Every regex
// here is one character class or a fixed run over one line, so each step is linear in the (bounded) input.

/** More than tesseract's bounded stdout ever gives; the cleanup never works on more. */
export const cleanupInputLimit = 1_048_576;

const formFeeds = /\f/g;
const lineBreaks = /\r\n?|\n/;
const letterOrDigit = /[\p{L}\p{Nd}]/u;
const digit = /\p{Nd}/u;
const blankRun = /\s{2,}/u;
const spaces = /\s+/u;
const thaiLetter = /[\u0E01-\u0E2E]/u;
const wideGap = /[ \t]{3,}/g;

/**
 * A line that carries nothing: no letter and no digit ("°", "—", "%", a stray tone mark), or the scatter tesseract
 * makes of a line of tone marks and upper vowels read on their own ("oe      °    ew  Ca"): only fragments of one
 * or two characters with wide gaps between them and no digit — at least three of them when one is a Thai
 * consonant, so two short Thai words in columns ("ชา    นม") stay. A digit always keeps the line: a figure lost
 * is worse than a noise line kept.
 */
export function isNoiseLine(line: string): boolean {
  if (!letterOrDigit.test(line)) return true;
  if (digit.test(line) || !blankRun.test(line)) return false;
  const fragments = line.split(spaces).filter((fragment) => fragment !== '');
  if (fragments.length < 2 || (fragments.length < 3 && thaiLetter.test(line))) return false;
  return fragments.every((fragment) => Array.from(fragment).length <= 2);
}

/**
 * Tesseract's output made usable: NFC, sara am composed, noise lines out, lines trimmed, one blank line at most.
 * The gap tesseract keeps between columns (an item and its price, `--psm 4`) shrinks to two spaces: still a gap.
 */
export function cleanOcrText(raw: string): string {
  const normalized = composeSaraAm(raw.slice(0, cleanupInputLimit).replace(formFeeds, '\n').normalize('NFC')).normalize('NFC');
  const kept: string[] = [];
  for (const untrimmed of normalized.split(lineBreaks)) {
    const line = untrimmed.trim();
    if (line === '') {
      if (kept.length > 0 && kept[kept.length - 1] !== '') kept.push('');
    } else if (!isNoiseLine(line)) {
      kept.push(line.replace(wideGap, '  '));
    }
  }
  while (kept[kept.length - 1] === '') kept.pop();
  return kept.join('\n');
}
