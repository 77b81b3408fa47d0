import { type Edit, maximumEdits } from './normalize-fragments.js';

// A token split at a line end. wrappedLineEdits joins every line where printable ASCII meets printable ASCII, so a
// token whose next line starts with a word (`…AKIA1234` ⏎ `5678… Use it`) is glued to that word and a
// fixed-length pattern no longer matches. These edits join a line that ends in a token-like run with the first
// run of the next line only (also after trailing spaces, a list indent or a `>` quote), and leave a break before
// an ordinary word. A second set joins two upper-case words with a space: a PEM header wrapped as
// `-----BEGIN RSA PRIVATE` ⏎ `KEY-----`.

const maximumRun = 200;
/** A wrapped token's piece at a line end is long; a line of code or prose ends in short runs. */
const minimumPiece = 6;
const maximumIndent = 16;

function isPrintable(code: number): boolean {
  return code > 32 && code < 127; // a password's `#` and `^` too
}

/**
 * A run that could be a piece of a token (6 or more characters, no brackets or quotes of code): a digit, a symbol inside it (a sentence's final `.` or `,` does not
 * count), an upper-case letter after a lower-case one, or two capitals at its start.
 */
function looksLikeTokenPiece(run: string): boolean {
  const inner = run.replace(/[.,;:!?)\]"'`]{1,4}$/, '');
  if (run.length < minimumPiece || /[(){}<>;"'`]/.test(inner)) return false; // code: `digest("hex");`, a fence's ```json
  if (!/[A-Za-z0-9]{3}/.test(inner)) return false; // a Markdown table's `|---|---|`
  return /\d|[^A-Za-z0-9]/.test(inner) || /[a-z][A-Z]/.test(inner) || /^[A-Z]{2}/.test(inner);
}

/** A word that starts a sentence or continues prose, which a token piece almost never is. */
function isOrdinaryWord(run: string): boolean {
  return /^[A-Za-z][a-z]{0,15}[.,:;!?]?$/.test(run);
}

// `-----BEGIN` ⏎ `RSA …`, `PRIVATE` ⏎ `KEY-----`: capitals that end the run before and start the run after.
const upperCaseEnd = /(?:^|[^A-Za-z0-9])[A-Z]{2,20}$/;
const upperCaseStart = /^[A-Z]{2,20}(?![a-z0-9])/;

// What stands before a labelled value on its line: a separator (`:`, `=`, คือ, เป็น, ` is `, ` to `), a quote.
const valueSeparatorBefore = /(?:[:=]|คือ|เป็น|[ \t](?:is|to))[ \t]{0,3}["'`]?$/;

/**
 * The rest of a value split after a separator (`Password: Durian.` ⏎ `7823$`): a run of the next line with a digit
 * or symbol in it. A password is no random token, so neither piece looks like one; the label search judges the join.
 */
function isLabelledValueRest(text: string, runStart: number, after: string): boolean {
  return after.length >= 2 && /[^A-Za-z]/.test(after) && valueSeparatorBefore.test(text.slice(Math.max(0, runStart - 40), runStart));
}

interface LineBreak {
  /** Start of the token-like run before the break. */
  runStart: number;
  /** End of the token-like run before the break (trailing spaces excluded). */
  runEnd: number;
  /** Start of the next line's first run (indent and `>` excluded). */
  nextStart: number;
  before: string;
  after: string;
}

function lineBreakAt(text: string, newline: number): LineBreak | undefined {
  let runEnd = newline;
  if (text.charCodeAt(runEnd - 1) === 13) runEnd--;
  for (let spaces = 0; spaces < maximumIndent && (text[runEnd - 1] === ' ' || text[runEnd - 1] === '\t'); spaces++) runEnd--;
  if (!isPrintable(text.charCodeAt(runEnd - 1))) return undefined; // most prose and code lines: no slicing
  let nextStart = newline + 1;
  for (let indent = 0; indent < maximumIndent && (text[nextStart] === ' ' || text[nextStart] === '\t' || text[nextStart] === '>'); indent++) nextStart++;
  if (!isPrintable(text.charCodeAt(nextStart))) return undefined;
  let runStart = runEnd;
  while (runStart > 0 && runEnd - runStart < maximumRun && isPrintable(text.charCodeAt(runStart - 1))) runStart--;
  let nextEnd = nextStart;
  while (nextEnd < text.length && nextEnd - nextStart < maximumRun && isPrintable(text.charCodeAt(nextEnd))) nextEnd++;
  return { runStart, runEnd, nextStart, before: text.slice(runStart, runEnd), after: text.slice(nextStart, nextEnd) };
}

export interface LineBreakEdits {
  /** A token-like line end joined with the next line's first run (not before an ordinary word). */
  joined: Edit[];
  /** Two upper-case words joined with a space (a wrapped PEM header). */
  spaced: Edit[];
}

/** Both sets of edits, in one pass over the line breaks. */
export function lineBreakEdits(text: string): LineBreakEdits {
  const edits: LineBreakEdits = { joined: [], spaced: [] };
  for (let newline = text.indexOf('\n'); newline >= 0 && edits.joined.length + edits.spaced.length < maximumEdits; newline = text.indexOf('\n', newline + 1)) {
    const lineBreak = lineBreakAt(text, newline);
    if (!lineBreak) continue;
    const { before, after, runStart, runEnd: start, nextStart: end } = lineBreak;
    const joins = looksLikeTokenPiece(before) || looksLikeTokenPiece(after) || isLabelledValueRest(text, runStart, after);
    if (joins && !isOrdinaryWord(after)) edits.joined.push({ start, end, replacement: '' });
    if (upperCaseEnd.test(before) && upperCaseStart.test(after)) edits.spaced.push({ start, end, replacement: ' ' });
  }
  return edits;
}

// A line break with the spaces before it, and the indent and `>` quote marks after it.
const wrappedLineBreak = /(?<![ \t])[ \t]{0,16}\r?\n[ \t>]{0,16}/g;

/**
 * A token wrapped over several lines (`ghp_abc` ⏎ `def…`), also inside a `>` quote, read as one line: each line
 * break (with the spaces and blank lines around it) removed where printable ASCII meets printable ASCII. Anywhere
 * else joining makes no token (a Thai letter is no token's character), so a paragraph of prose is not copied whole.
 */
export function wrappedLineEdits(text: string): Edit[] {
  const edits: Edit[] = [];
  let join: Edit | undefined;
  const keep = (edit: Edit | undefined) => {
    if (edit && isPrintable(text.charCodeAt(edit.start - 1)) && isPrintable(text.charCodeAt(edit.end))) edits.push(edit);
  };
  wrappedLineBreak.lastIndex = 0;
  for (let match = wrappedLineBreak.exec(text); match !== null && edits.length < maximumEdits; match = wrappedLineBreak.exec(text)) {
    const end = match.index + match[0].length;
    if (join?.end === match.index) {
      join.end = end; // the next break of a blank line: one join
      continue;
    }
    keep(join);
    join = { start: match.index, end, replacement: '' };
  }
  keep(join);
  return edits;
}
