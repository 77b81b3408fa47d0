import type { Edit } from './normalize-fragments.js';

// A token cut into parts on consecutive lines, each behind a short label or list marker (`ส่วนที่ 1: ghp_abc…`,
// `part 2/2: …xyz`, `- first half: …`, `1. …`, a one-cell table row), or into the cells of one table row
// (`| ghp_abc… | …xyz |`). The parts are joined in order: all of a block's parts (replacing everything from the
// line before it, so a label there reads the joined value: `รหัสผ่านคือ` ⏎ `ส่วนที่ 1: …`), and each pair in
// place (the first part's own label kept). Lines are visited once; blocks are short.

const minimumPart = 4;
// A part may be half of a long token (a JWT of a thousand characters), and its line a label more.
const maximumPart = 2_048;
const maximumLine = maximumPart + 100;
const maximumLabel = 40;
const maximumBlock = 6;
/** Per set: bounds the fragments of a long list of labelled lines (every line of a config file). */
const maximumPartEdits = 200;
/** Lines read per message that hold a part or token cells (a config file of 60,000 `key: value` lines). */
const maximumPartLines = 4_096;

interface Part {
  start: number;
  end: number;
}

interface Line {
  start: number;
  end: number;
}

function isTokenCharacter(code: number): boolean {
  return code > 32 && code < 127 && code !== 96 && code !== 34 && code !== 39 && code !== 124;
}

/** The token at the end of `text.slice(start, end)` (quotes and backticks around it and trailing spaces skipped). */
function lastToken(text: string, start: number, end: number): Part | undefined {
  let tokenEnd = end;
  while (tokenEnd > start && /[\s`"'|]/.test(text[tokenEnd - 1] ?? '')) tokenEnd--;
  let tokenStart = tokenEnd;
  while (tokenStart > start && isTokenCharacter(text.charCodeAt(tokenStart - 1))) tokenStart--;
  const length = tokenEnd - tokenStart;
  if (length < minimumPart || length > maximumPart || !/[A-Za-z0-9]{2}/.test(text.slice(tokenStart, tokenEnd))) return undefined;
  return { start: tokenStart, end: tokenEnd };
}

/** A label or list marker before a part: ends with `:` or `=`, or is `-`, `*`, `•`, `1.`, `2)`, or a table's `|`. */
function isLabel(label: string): boolean {
  let end = label.length;
  while (end > 0 && /[\s`"']/.test(label[end - 1] ?? '')) end--;
  const trimmed = label.slice(0, end).trimStart();
  if (trimmed.length > maximumLabel) return false;
  return /[:=|]$/.test(trimmed) || /^(?:[-*•+]|\d{1,2}[.)])$/.test(trimmed) || /^[-*•+]\s.{0,30}:$/.test(trimmed);
}

/** The part a line ends with, when a label or marker stands before it (or the line is a one-cell table row). */
function partOf(text: string, line: Line): Part | undefined {
  if (line.end - line.start > maximumLine) return undefined;
  const part = lastToken(text, line.start, line.end);
  if (!part || part.start === line.start) return undefined;
  return isLabel(text.slice(line.start, part.start)) ? part : undefined;
}

/** The token cells of a table row (`| a | b |`): cells holding one token each, in order. */
function cellsOf(text: string, line: Line): Part[] {
  const row = text.slice(line.start, line.end).trim();
  if (!row.startsWith('|') || !row.endsWith('|') || line.end - line.start > maximumLine) return [];
  const cells: Part[] = [];
  for (let bar = text.indexOf('|', line.start); bar >= 0 && bar < line.end;) {
    const next = text.indexOf('|', bar + 1);
    if (next < 0 || next >= line.end) break;
    const token = lastToken(text, bar + 1, next);
    if (token && text.slice(bar + 1, token.start).trim() === '') cells.push(token);
    bar = next;
  }
  return cells;
}

/** Where the text before a block ends (blank lines and spaces before it skipped): the joined value goes there. */
function contentEndBefore(text: string, start: number): number {
  let end = start;
  while (end > 0 && start - end < maximumLine && /\s/.test(text[end - 1] ?? '')) end--;
  return end;
}

/**
 * The joined value put where the text before the block ends: after a space, or glued to an opening quote or a
 * `:`/`=` (a JSON or env label); the line breaks before a closing quote after the block are taken out too.
 */
function joinedEdit(text: string, blockStart: number, lastEnd: number, joined: string): Edit {
  const start = contentEndBefore(text, blockStart);
  let end = lastEnd;
  while (end < text.length && end - lastEnd < maximumLine && /\s/.test(text[end] ?? '')) end++;
  if (!/["'`]/.test(text[end] ?? '')) end = lastEnd;
  return { start, end, replacement: /["'`:=]/.test(text[start - 1] ?? '') ? joined : ` ${joined}` };
}

function pushInOrder(set: Edit[] | undefined, edit: Edit): void {
  if (set && (set.at(-1)?.end ?? -1) <= edit.start) set.push(edit);
}

function join(text: string, parts: readonly Part[]): string {
  return parts.map((part) => text.slice(part.start, part.end)).join('');
}

/** A block of parts (2 to 6): all joined from the line break before the block, and each pair in place. */
function blockEdits(text: string, parts: readonly Part[], blockStart: number, sets: Edit[][]): void {
  if (parts.length < 2) return;
  const block = parts.slice(0, maximumBlock);
  const last = block.at(-1);
  if (last) pushInOrder(sets[0], joinedEdit(text, blockStart, last.end, join(text, block)));
  for (let index = 0; index + 1 < block.length; index++) {
    const first = block[index];
    const second = block[index + 1];
    if (first && second) pushInOrder(sets[1 + (index % 2)], { start: first.start, end: second.end, replacement: join(text, [first, second]) });
  }
}

export function partEdits(text: string): Edit[][] {
  const sets: Edit[][] = [[], [], [], []];
  let parts: Part[] = [];
  let blockStart = 0;
  let tableStart = -1;
  let partLines = 0;
  for (let start = 0; start <= text.length && partLines < maximumPartLines && sets.every((set) => set.length < maximumPartEdits);) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const line = { start, end };
    const cells = cellsOf(text, line);
    const isRow = text.startsWith('|', start);
    if (!isRow) tableStart = -1;
    else if (tableStart === -1) tableStart = start;
    // A row of two or more token cells is joined on its own (and its first such row, from before the table, for
    // a label above it); a one-cell row is a part like a labelled line.
    const first = cells[0];
    const last = cells.at(-1);
    if (cells.length >= 2 && first && last) {
      pushInOrder(sets[3], { start: first.start, end: last.end, replacement: join(text, cells) });
      if (tableStart >= 0) pushInOrder(sets[0], joinedEdit(text, tableStart, last.end, join(text, cells)));
      tableStart = -2; // later rows: in place only
    }
    const part = cells.length === 1 ? cells[0] : cells.length === 0 ? partOf(text, line) : undefined;
    const blank = text.slice(start, end).trim() === '';
    if (part || cells.length > 0) partLines++;
    if (part) {
      if (parts.length === 0) blockStart = start;
      parts.push(part);
    } else if (!blank || parts.length > 0) {
      blockEdits(text, parts, blockStart, sets);
      parts = [];
    }
    start = end + 1;
  }
  blockEdits(text, parts, blockStart, sets);
  return sets;
}
