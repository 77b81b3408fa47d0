import { type Edit, editsOfMatches, maximumEdits } from './normalize-fragments.js';

// A token written in parts: string concatenation (`"ghp_abc" + "def…"`, also with single quotes, backticks and a
// line break around the `+`), and Markdown code spans around parts (`ghp_`\``abc…`, `` `ghp_abc` `def` ``).

// Quoted parts of printable ASCII without quotes (so each part is read one way only), joined by `+`.
const concatenation = /["'`][!#-&(-_a-~]{1,2000}["'`](?:[ \t]{0,4}(?:\r?\n[ \t]{0,16})?\+[ \t]{0,4}(?:\r?\n[ \t]{0,16})?["'`][!#-&(-_a-~]{1,2000}["'`]){1,20}/g;
/** The shortest credential any rule or label accepts. */
const minimumJoined = 8;
const quotedPart = /["'`]([!#-&(-_a-~]{1,2000})["'`]/g;

/** `"abc" + "def"` → `abcdef` (a JSON value's own quotes, `"key": ""abc" + …"`, then surround it). */
function joinedConcatenation(chain: string): string | undefined {
  let joined = '';
  for (const part of chain.matchAll(quotedPart)) joined += part[1] ?? '';
  return joined.length >= minimumJoined ? joined : undefined; // `"one" + "two"` is no credential
}

/** A `+` with a closing quote before it (spaces and one line break between): the cheap trigger of the pattern. */
function hasQuotedPlus(text: string): boolean {
  for (let plus = text.indexOf('+'); plus >= 0; plus = text.indexOf('+', plus + 1)) {
    let before = plus - 1;
    while (before > 0 && plus - before < 24 && /\s/.test(text[before] ?? '')) before--;
    if (/["'`]/.test(text[before] ?? '')) return true;
  }
  return false;
}

export function concatenationEdits(text: string): Edit[] {
  return hasQuotedPlus(text) ? editsOfMatches(text, concatenation, joinedConcatenation) : [];
}

/** The end of the backticks (one to three, or a closing and an opening run with one space between) at `start`. */
function isPrintable(code: number): boolean {
  return code > 32 && code < 127 && code !== 96; // not a space, not a backtick
}

/** A character that goes on a token after backticks: printable, and not a sentence's punctuation before a space. */
function continuesToken(text: string, index: number): boolean {
  if (!isPrintable(text.charCodeAt(index))) return false;
  return !/[.,;:!?)\]}'"]/.test(text[index] ?? '') || isPrintable(text.charCodeAt(index + 1));
}

function backticksEnd(text: string, start: number): number {
  let end = start;
  while (end < text.length && end - start < 3 && text[end] === '`') end++;
  if (text[end] === ' ' && text[end + 1] === '`') {
    end++;
    const open = end;
    while (end < text.length && end - open < 3 && text[end] === '`') end++;
  }
  return end;
}

/**
 * Backticks between two printable characters (`ghp_`\`abc…`, `abc` \`def`, `abc``def`) removed. A code span in
 * prose (`` `npm run build` then ``, `` `main.js`. ``) has a space, or punctuation and a space, on one side and is
 * left as it is.
 */
export function backtickEdits(text: string): Edit[] {
  const edits: Edit[] = [];
  for (let tick = text.indexOf('`'); tick >= 0 && edits.length < maximumEdits; tick = text.indexOf('`', tick + 1)) {
    if (!isPrintable(text.charCodeAt(tick - 1))) continue;
    const end = backticksEnd(text, tick);
    if (continuesToken(text, end)) edits.push({ start: tick, end, replacement: '' });
    tick = end - 1;
  }
  return edits;
}
