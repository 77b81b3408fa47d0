import { graphemeSegmenter, wordSegmenter } from '../format/graphemes.js';
import { segmentsOf } from '../../src/shared/segments.js';
import { trimLineEnd, type StyledLine } from './terminal-style.js';
import { graphemeWidth } from './terminal-width.js';

// A styled line wrapped to a column count: cut after a space, or between two Thai words (the Thai dictionary
// segmenter finds those, since Thai writes no spaces), never inside a grapheme. A word longer than the line (a
// URL, a path) is left whole for the terminal to fold, so it stays one string to copy or click.

function isSpace(character: string | undefined): boolean {
  return character === ' ' || character === '\u00a0';
}

function isThai(character: string | undefined): boolean {
  const code = character?.charCodeAt(0) ?? 0;
  return code >= 0x0e01 && code <= 0x0e5b;
}

/** `position` starts a grapheme (the caller walks graphemes) and `wordStarts[position]` says it starts a word. */
function canBreak(text: string, position: number, wordStarts: Uint8Array): boolean {
  if (wordStarts[position] !== 1) return false;
  const before = text[position - 1];
  const after = text[position];
  // A line starting with ">" would look like the console's prompt; ๆ and ฯ belong to the word before them.
  if (after === '>' || after === 'ๆ' || after === 'ฯ') return false;
  return (isSpace(before) && !isSpace(after)) || (isThai(before) && isThai(after));
}

/** Where each new line starts, in one pass over the graphemes. */
function cutPositions(text: string, width: number): number[] {
  const wordStarts = new Uint8Array(text.length + 1);
  for (const { index } of segmentsOf(wordSegmenter, text)) wordStarts[index] = 1;
  const cuts: number[] = [];
  let lineStart = 0;
  let used = 0;
  let opportunity = -1;
  let usedBeforeOpportunity = 0;
  for (const { index, segment } of segmentsOf(graphemeSegmenter, text)) {
    if (index > lineStart && canBreak(text, index, wordStarts)) {
      opportunity = index;
      usedBeforeOpportunity = used;
    }
    const columns = graphemeWidth(segment);
    // A space at the end of a line is trimmed, so it never forces a cut.
    if (used + columns > width && !isSpace(segment) && opportunity > lineStart) {
      cuts.push(opportunity);
      lineStart = opportunity;
      used -= usedBeforeOpportunity;
      opportunity = -1;
    }
    used += columns;
  }
  return cuts;
}

/** The line's spans cut at `cuts` (ascending text positions), in one pass. */
function splitAt(line: StyledLine, cuts: readonly number[]): StyledLine[] {
  const pieces: StyledLine[] = [[]];
  let offset = 0;
  let next = 0;
  for (const piece of line) {
    const end = offset + piece.text.length;
    let from = offset;
    for (let cut = cuts[next]; cut !== undefined && cut < end; cut = cuts[next]) {
      if (cut > from) pieces[pieces.length - 1]?.push({ text: piece.text.slice(from - offset, cut - offset), style: piece.style });
      pieces.push([]);
      from = cut;
      next += 1;
    }
    if (end > from) pieces[pieces.length - 1]?.push({ text: piece.text.slice(from - offset), style: piece.style });
    offset = end;
  }
  return pieces.map(trimLineEnd);
}

/** `line` (no newlines) as lines of at most `width` columns wherever it can be cut. */
export function wrapLine(line: StyledLine, width: number): StyledLine[] {
  const text = line.map((piece) => piece.text).join('');
  const cuts = cutPositions(text, width);
  return cuts.length === 0 ? [line] : splitAt(line, cuts);
}
