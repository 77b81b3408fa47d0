import { type Edit, maximumEdits } from './normalize-fragments.js';

// One separator between every character of a token: `g.h.p._.a…`, `g, h, p`, `g_h_p___a`, `g / h / p`, `g·h·p`,
// `gกhกpก_ก…` (a Thai letter), `g  h  p` (two spaces). Read by the alternation (character, separator, character,
// separator…), so `_` and `-` may be a token's own character and the separator at once (`p___a` is `p`, `_`, `_`,
// `_`, `a`). A hand-written scan: each position is tried with separators of one to three characters, and a failed
// try stops within a few characters, so the work is linear.

/** A token needs at least this many characters (a password); fewer alternations are prose or a version number. */
const minimumCharacters = 10;
const minimumAlphanumerics = 6;
const maximumSeparator = 3;
/** Runs longer than this are cut into several edits (the longest token a rule matches is a few thousand characters). */
const maximumCharacters = 4_096;
/** Characters read back per message, in all runs: bounds the fragments of a message of nothing but `a.b.c.…`. */
const maximumTotal = 65_536;

function isTokenCharacter(code: number): boolean {
  return code > 32 && code < 127;
}

function isAlphanumeric(code: number): boolean {
  const lower = code | 32;
  return (code >= 48 && code <= 57) || (lower >= 97 && lower <= 122);
}

function isThai(code: number): boolean {
  return code >= 0x0e01 && code <= 0x0e5b;
}

/** A separator character: punctuation, a space, a bullet or middle dot, a Thai letter; never a letter or digit. */
function isSeparatorCharacter(code: number): boolean {
  if (code === 10 || code === 13 || code === 9) return false;
  return code < 127 ? !isAlphanumeric(code) : true;
}

/** Separators equal, or both one Thai character (a model asked for "Thai letters between" picks different ones). */
function sameSeparator(text: string, at: number, separator: string): boolean {
  if (separator.length === 1 && isThai(separator.charCodeAt(0))) return isThai(text.charCodeAt(at));
  return text.startsWith(separator, at);
}

interface Run {
  end: number;
  token: string;
  alphanumerics: number;
}

/** The alternating run starting with the token character at `start` and the separator of `length` after it. */
function runAt(text: string, start: number, length: number): Run | undefined {
  const separator = text.slice(start + 1, start + 1 + length);
  if (separator.length !== length) return undefined;
  for (let index = 0; index < length; index++) if (!isSeparatorCharacter(separator.charCodeAt(index))) return undefined;
  // Spaces alone as a separator only of one or two (`g h p`); a separator never ends in a token character
  // followed by the next token character, which would make `ab.cd` read as `a`, `b.`, `c`.
  if (separator.trim() === '' && length > 2) return undefined;
  let token = text[start] ?? '';
  let end = start + 1;
  let alphanumerics = isAlphanumeric(text.charCodeAt(start)) ? 1 : 0;
  while (token.length < maximumCharacters && sameSeparator(text, end, separator)) {
    const next = end + separator.length;
    const code = text.charCodeAt(next);
    if (!isTokenCharacter(code)) break;
    token += text[next];
    if (isAlphanumeric(code)) alphanumerics++;
    end = next + 1;
  }
  // The last character glued to a word (`… U Y on`): that word is prose after the token, not part of it.
  if (isAlphanumeric(text.charCodeAt(end)) && token.length > 1) {
    if (isAlphanumeric(text.charCodeAt(end - 1))) alphanumerics--;
    token = token.slice(0, -1);
    end -= 1 + separator.length;
  }
  return { end, token, alphanumerics };
}

/**
 * A run read with too short a separator: every other character is one punctuation mark (`: A / K / I` read from
 * the colon with a space, `:A/K/I`). The right reading starts at the next token character.
 */
function isMisread(token: string): boolean {
  for (const offset of [1, 2]) {
    const mark = token[offset];
    if (mark === undefined || isAlphanumeric(mark.charCodeAt(0))) continue;
    let same = 0;
    let count = 0;
    for (let index = offset; index < token.length; index += 2, count++) if (token[index] === mark) same++;
    if (same >= count * 0.8) return true;
  }
  return false;
}

/** The first position of a separated run: a token character not directly after another (`xg.h.p` is not read). */
function mayStart(text: string, index: number): boolean {
  return isTokenCharacter(text.charCodeAt(index)) && !isAlphanumeric(text.charCodeAt(index - 1)) && !isAlphanumeric(text.charCodeAt(index + 1));
}

// Where a run may start: three token characters, each followed by one to three non-alphanumerics. Found natively
// (bounded repetition only: a constant amount of backtracking at each position), so prose costs next to nothing.
const candidates = /[!-~][^A-Za-z0-9\t\n\r]{1,3}[!-~][^A-Za-z0-9\t\n\r]{1,3}[!-~][^A-Za-z0-9\t\n\r]{1,3}/g;

export function separatedCharacterEdits(text: string): Edit[] {
  const edits: Edit[] = [];
  let total = 0;
  for (let index = 0; index < text.length && edits.length < maximumEdits && total < maximumTotal; index++) {
    candidates.lastIndex = index;
    const candidate = candidates.exec(text);
    if (!candidate) break;
    index = candidate.index;
    if (!mayStart(text, index)) continue;
    // The longest separator first: `A / K / I` is read with ` / `, not as `A/K/I` with a space.
    for (let length = maximumSeparator; length >= 1; length--) {
      const run = runAt(text, index, length);
      if (!run || run.token.length < minimumCharacters || isMisread(run.token)) continue;
      if (run.alphanumerics >= minimumAlphanumerics) {
        edits.push({ start: index, end: run.end, replacement: run.token });
        total += run.token.length;
      }
      // Past a long run either way (`-.-.-.…` has no token but must not be walked again from every position).
      index = run.end - 1;
      break;
    }
  }
  return edits;
}
