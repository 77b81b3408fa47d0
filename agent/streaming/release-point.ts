import { segmentsOf } from '../../src/shared/segments.js';
import { startsWithSourceHeading } from '../../src/shared/source-markers.js';
import { longestFigurePrefix } from '../guards/number-context.js';

// How much of an answer still being written may be shown (docs/architecture.md, "Streaming answers"): the text up to
// a point after which nothing already written can change what a guard does to the part before it. Held back:
//   - the word being written (Thai: the last word by Intl.Segmenter, as Thai puts no spaces between words), and a
//     line until it is long enough to tell whether it opens a source list (a list item: until its line is complete);
//   - a figure, with the currency symbol its marker would replace, until `figureContextChars` characters follow it
//     (its unit, scale word, the rest of a date may still come). The numbers guard also reads words before it
//     ("ร้อยละ", "พ.ศ.") but never changes them, and they are all written before the figure is shown; a digit within
//     the held window holds its own figure too, so a range or date is held from its first number;
//   - a lead-in such as "ดูเพิ่มเติมที่" / "see" until 24 characters follow it (the sources guard removes it with a URL
//     that follows);
//   - from a credential-looking piece on, for the rest of the step: a long run of the credential alphabet mixing
//     letters with digits or symbols, a run of spaced single characters, a PEM header — it may be the first part of
//     a token written in parts, and the DLP judges the whole;
//   - from markup that may turn into a tool call (`<`, `{`, `[TOOL`) on, and from a line that opens a source list of
//     the model's own (the sources guard removes it), for the rest of the step.
// Linear in the text: every search is one pass or bounded by a constant window.

/** Characters that must follow a figure before it is shown: the longest unit after one, "เปอร์เซ็นต์" (11), with
 * its spaces; a date's next number is a figure of its own. */
const figureContextChars = 14;
/** Characters that must follow a lead-in ("ดูเพิ่มเติมที่", 14 itself) before it is shown: a URL after it takes it away. */
const leadInContextChars = 24;
/** A line is shown once this long: a source-list heading or a list marker is told by then. */
const lineSettledChars = 24;
/** A piece of the credential alphabet this long, mixing classes, is held as a possible credential. */
const credentialPieceChars = 12;
/** This many pieces of one or two credential characters in a row are held as a spaced-out token. */
const spacedPieces = 4;
/** The longest word the Thai segmenter is asked about (the rest of a longer piece is held). */
const thaiSegmentWindow = 256;

const holdFromHere = /[<{]|\[TOOL|-----BEGIN/;
const credentialAlphabet = /^[A-Za-z0-9+/=_\-.~:]+$/;
const digit = /[0-9\u0e50-\u0e59]/;
const figureCharacter = /[-0-9\u0e50-\u0e59.,:/]/;
const leadIn = /(?:ดู|อ่าน|ศึกษา|ที่มา|ลิงก์|ลิงค์|ลิ้งก์|ลิ้งค์|\b(?:see|visit|at|source|sources|link|links))\S{0,16}\s{0,24}$/i; // bounded as its input (leadInContextChars)
const thaiLetters = /^[\u0e00-\u0e7f]+$/;
/** guards/sources.ts's list item: the start of a line of the model's own source list. */
const listItem = /^[ \t]{0,8}(?:[-*+•]|\d{1,3}[.)])(?:[ \t]|$)/;
const thaiSegmenter = new Intl.Segmenter('th', { granularity: 'word' });

interface Piece {
  start: number;
  end: number;
}

function piecesOf(text: string, end: number): Piece[] {
  const pieces: Piece[] = [];
  const pattern = /\S+/g;
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match !== null && match.index < end; match = pattern.exec(text)) {
    pieces.push({ start: match.index, end: Math.min(match.index + match[0].length, end) });
  }
  return pieces;
}

function looksLikeCredentialPiece(piece: string): boolean {
  if (piece.length < credentialPieceChars || !credentialAlphabet.test(piece)) return false;
  return /[0-9_+/=]/.test(piece) || (/[a-z]/.test(piece) && /[A-Z]/.test(piece.slice(1)));
}

/** Where the text stops being safe to show for the rest of the step: markup, or a credential-looking piece. */
function stepHoldStart(text: string, pieces: readonly Piece[]): number {
  let hold = text.search(holdFromHere);
  if (hold < 0) hold = text.length;
  hold = Math.min(hold, sourceHeadingStart(text, hold));
  let shortRun = 0;
  for (const [index, piece] of pieces.entries()) {
    if (piece.start >= hold) break;
    const word = text.slice(piece.start, piece.end);
    if (looksLikeCredentialPiece(word)) return piece.start;
    shortRun = word.length <= 2 && credentialAlphabet.test(word) ? shortRun + 1 : 0;
    if (shortRun >= spacedPieces) return pieces[index - spacedPieces + 1]?.start ?? piece.start;
  }
  return hold;
}

/** The first line that starts a source list of the model's own (the sources guard replaces it with code's list). */
function sourceHeadingStart(text: string, before: number): number {
  for (let start = 0; start < before;) {
    const end = text.indexOf('\n', start);
    const lineEnd = end < 0 ? text.length : end;
    if (startsWithSourceHeading(text.slice(start, Math.min(lineEnd, start + 200)))) return start;
    start = lineEnd + 1;
  }
  return before;
}

/**
 * A boundary at or before `position` where a preview may end: the position itself in whitespace, else the start of the
 * word it falls in (a Thai run: the start of its last whole word before it, by the segmenter).
 */
function boundaryAtOrBefore(text: string, pieces: readonly Piece[], position: number): number {
  if (position <= 0) return 0;
  const piece = pieces.findLast((candidate) => candidate.start < position);
  if (!piece || piece.end <= position) return position;
  return thaiWordStart(text, { start: piece.start, end: position });
}

/** Where the figure whose digit is at `at` starts (its digits and the separators between them). */
function figureStart(text: string, at: number): number {
  let start = at;
  while (start > 0 && figureCharacter.test(text.charAt(start - 1))) start--;
  return start;
}

/** The last position in [from, to) whose character is a digit (ASCII or Thai), or -1. */
function lastDigitIn(text: string, from: number, to: number): number {
  for (let index = to - 1; index >= from; index--) if (digit.test(text.charAt(index))) return index;
  return -1;
}

/** Moves `limit` back before any figure or lead-in that has too few characters after it to be judged. */
function holdUnsettled(text: string, pieces: readonly Piece[], limit: number): number {
  for (;;) {
    const figureAt = lastDigitIn(text, Math.max(0, limit - figureContextChars), limit);
    const leadInFrom = Math.max(0, limit - leadInContextChars);
    const leadInMatch = leadIn.exec(text.slice(leadInFrom, limit));
    const unsettled = figureAt >= 0 ? figureStart(text, figureAt) - longestFigurePrefix : leadInMatch ? leadInFrom + leadInMatch.index : undefined;
    if (unsettled === undefined) return limit;
    const moved = boundaryAtOrBefore(text, pieces, unsettled);
    if (moved >= limit) return limit;
    limit = moved;
  }
}

/** Inside a Thai word run being written: the start of its last (possibly unfinished) word. */
function thaiWordStart(text: string, piece: Piece): number {
  const from = Math.max(piece.start, piece.end - thaiSegmentWindow);
  const run = text.slice(from, piece.end);
  if (!thaiLetters.test(run)) return piece.start;
  let last = 0;
  for (const segment of segmentsOf(thaiSegmenter, run)) last = segment.index;
  return from === piece.start ? piece.start + last : Math.max(from + last, piece.start);
}

/** How many characters of `text` (an answer still being written) may be shown now. */
export function releasePoint(text: string): number {
  const pieces = piecesOf(text, text.length);
  let limit = stepHoldStart(text, pieces);
  // The word being written is never shown: only pieces that whitespace closed, or Thai words before the last.
  const open = pieces.at(-1);
  if (open && open.end === text.length && open.start < limit) limit = thaiWordStart(text, open);
  // A line is shown once it is long enough to tell whether it opens a source list (or is a list marker alone).
  // A list item is shown once its line is complete: a trailing list item with a URL is a source list to the guard —
  // also where another hold (a URL, a figure) ends the release inside an earlier item's line.
  const lineStart = text.lastIndexOf('\n') + 1;
  if (text.length - lineStart < lineSettledChars) limit = Math.min(limit, lineStart);
  // Each hold moves the limit back only, so this settles.
  for (let before = limit + 1; limit < before;) {
    before = limit;
    limit = holdListItem(text, holdUnsettled(text, pieces, limit));
  }
  return text.slice(0, limit).trimEnd().length;
}

/** A limit inside a list item moves to its line's start: the item may still turn into a source of the model's own. */
function holdListItem(text: string, limit: number): number {
  const lineStart = text.lastIndexOf('\n', limit - 1) + 1;
  const lineEnd = text.indexOf('\n', lineStart);
  const complete = lineEnd >= 0 && lineEnd < limit;
  return !complete && limit > lineStart && listItem.test(text.slice(lineStart, lineStart + 16)) ? lineStart : limit;
}
