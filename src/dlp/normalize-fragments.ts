// An obfuscation undone only where it occurs: the rules and the context detection run on short fragments of the
// text around each undone spot (with a little context for labels), not on another copy of a 100 KB message.

/** Replace `text.slice(start, end)` with `replacement`. */
export interface Edit {
  start: number;
  end: number;
  replacement: string;
}

/** Context kept before an edit: a label and its separator (`aws_secret_access_key = "`), or a key id nearby. */
const contextBefore = 120;
const contextAfter = 60;
/** Edits this close share a fragment: the line breaks of one wrapped token (lines of up to 200 characters). */
const groupDistance = 200;
/** The longest token an edit may fall in the middle of (a JWT, a LINE access token): kept whole in its fragment. */
const maximumRun = 12_000;
/** Bounds the work one message can cause, however many spots it has. */
export const maximumEdits = 2_000;

function isSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13;
}

function isPrintable(code: number): boolean {
  return code > 32 && code < 127;
}

/** Where the run of printable ASCII holding `index` starts: the whole token an edit falls in (Thai ends it too). */
function runStart(text: string, index: number): number {
  let start = index;
  while (start > 0 && index - start < maximumRun && isPrintable(text.charCodeAt(start - 1))) start--;
  return start;
}

function runEnd(text: string, index: number): number {
  let end = index;
  while (end < text.length && end - index < maximumRun && isPrintable(text.charCodeAt(end))) end++;
  return end;
}

/** `from` moved forward past the first whitespace, so a fragment never starts inside a token (and makes a shorter one). */
function startAtWord(text: string, from: number, limit: number): number {
  if (from === 0) return 0;
  for (let index = from; index < limit; index++) if (isSpace(text.charCodeAt(index))) return index + 1;
  return limit;
}

/** `to` moved back before the last whitespace, so a fragment never ends inside a token. */
function endAtWord(text: string, to: number, limit: number): number {
  if (to >= text.length) return text.length;
  for (let index = to; index > limit; index--) if (isSpace(text.charCodeAt(index - 1))) return index - 1;
  return limit;
}

/**
 * One text holding a fragment per group of nearby edits (each edit applied, with context around it), fragments
 * separated by blank lines; '' when there are no edits. Edits must be sorted by start and must not overlap.
 */
export function fragmentsOf(text: string, edits: readonly Edit[]): string {
  const fragments: string[] = [];
  let index = 0;
  while (index < edits.length) {
    const first = edits[index];
    if (!first) break;
    let body = '';
    let cursor = first.start;
    let last = first;
    for (let edit: Edit | undefined = first; edit && edit.start - cursor <= groupDistance; edit = edits[++index]) {
      body += text.slice(cursor, edit.start) + edit.replacement;
      cursor = edit.end;
      last = edit;
    }
    const tokenStart = runStart(text, first.start);
    const tokenEnd = runEnd(text, last.end);
    const from = startAtWord(text, Math.max(0, tokenStart - contextBefore), tokenStart);
    const to = endAtWord(text, Math.min(text.length, tokenEnd + contextAfter), tokenEnd);
    fragments.push(text.slice(from, first.start) + body + text.slice(last.end, to));
  }
  return fragments.join('\n\n');
}

/** The edits of a global pattern's matches, each replaced by `replace(match)` (undefined: left as it is). */
export function editsOfMatches(text: string, pattern: RegExp, replace: (match: string) => string | undefined): Edit[] {
  const edits: Edit[] = [];
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match !== null && edits.length < maximumEdits; match = pattern.exec(text)) {
    const replacement = replace(match[0]);
    if (replacement !== undefined && replacement !== match[0]) {
      edits.push({ start: match.index, end: match.index + match[0].length, replacement });
    }
  }
  return edits;
}
