import { type Edit, maximumEdits } from './normalize-fragments.js';

// A token written in groups with one space between (`AKIA VWUP PFFK FVUB KMUY`, `ghp_abcd efgh ijkl …`): three or
// more words of one length (4 to 8), joined. Whether the word before the groups (`key AKIA…`) and a shorter last
// group (`… KMUY on`) belong to the token cannot be told, so each choice is a set of edits of its own. A Telegram
// bot token written `123456789 : AAH…` loses the spaces around its colon. Words are read in one pass.

const minimumSize = 4;
const maximumSize = 8;
const minimumGroups = 3;
const maximumWords = 64;
const tokenSymbols = '_-+/=.:@#$%&*!?~^';
/** Per reading: a message with more grouped tokens than this is not one a model writes to hide a credential. */
const maximumGroupEdits = 100;

interface Word {
  start: number;
  end: number;
}

/** A group of a random token: a digit, a capital after its first character, or a symbol (not a quote or bracket). */
function looksRandom(text: string, word: Word): boolean {
  for (let index = word.start; index < word.end; index++) {
    const code = text.charCodeAt(index);
    if ((code >= 48 && code <= 57) || (index > word.start && code >= 65 && code <= 90) || tokenSymbols.includes(text[index] ?? ' ')) return true;
  }
  return false;
}

function joined(text: string, words: readonly Word[]): Edit | undefined {
  const first = words[0];
  const last = words.at(-1);
  if (!first || !last || words.length < minimumGroups) return undefined;
  if (words.filter((word) => looksRandom(text, word)).length * 2 < words.length) return undefined;
  const replacement = words.map((word) => text.slice(word.start, word.end)).join('');
  // Digits alone are a phone or card number, not a token.
  return /[A-Za-z]/.test(replacement) ? { start: first.start, end: last.end, replacement } : undefined;
}

/** Edits of a chain of words with one space between: each run of equal-length groups, in eight readings. */
function chainEdits(text: string, words: readonly Word[], sets: Edit[][]): void {
  if (words.length < minimumGroups - 1) return; // most words stand alone (a number or a name in Thai prose)
  // A sentence's full stop after the last word (`… MUw=.`) is not a group's character.
  const chain = words.map((word, index) =>
    index === words.length - 1 && word.end - word.start > 1 && /[.:)]/.test(text[word.end - 1] ?? '') ? { start: word.start, end: word.end - 1 } : word,
  );
  let index = 0;
  while (index < chain.length) {
    const size = (chain[index]?.end ?? 0) - (chain[index]?.start ?? 0);
    let end = index + 1;
    while (end < chain.length && (chain[end]?.end ?? 0) - (chain[end]?.start ?? 0) === size) end++;
    if (size >= minimumSize && size <= maximumSize && end - index >= minimumGroups - 1) {
      const tail = chain[end];
      const hasTail = tail !== undefined && tail.end - tail.start < size;
      // The token may start a word before the run (a prefix: `glpat -wwd0 …`), at it, or a word after it (the
      // run took a label of the same length: `token glpat …`); it may end with a shorter group or before it.
      // (Only a run of three or more may lose or gain a word at its start: `& Shen 1998` is a citation.)
      const starts = end - index >= minimumGroups ? [index, Math.max(0, index - 1), index + 1, index + 2] : [index];
      const ends = [end, end + (hasTail ? 1 : 0)];
      const readings = starts.flatMap((from) => ends.map((to) => chain.slice(from, to)));
      readings.forEach((reading, set) => {
        const edit = joined(text, reading);
        const edits = sets[set];
        if (edit && edits && (edits.at(-1)?.end ?? -1) <= edit.start) edits.push(edit);
      });
    }
    index = end;
  }
}

/** `123456789 : AAH…` → `123456789:AAH…` (the bot id's digits, then a colon between spaces). */
function telegramEdit(text: string, colon: number): Edit | undefined {
  if (text[colon - 1] !== ' ' || text[colon + 1] !== ' ') return undefined;
  let digits = colon - 1;
  while (digits > 0 && colon - 1 - digits < 12 && /\d/.test(text[digits - 1] ?? '')) digits--;
  const count = colon - 1 - digits;
  return count >= 8 && count <= 11 && /[A-Za-z0-9_-]/.test(text[colon + 2] ?? '') ? { start: colon - 1, end: colon + 2, replacement: ':' } : undefined;
}

// The printable ASCII words of a text; found natively, so Thai prose (few such words) costs next to nothing.
const words = /[!-~]{1,4096}/g;

export function spaceGroupEdits(text: string): Edit[][] {
  const sets: Edit[][] = [[], [], [], [], [], [], [], [], []];
  let chain: Word[] = [];
  let count = 0;
  words.lastIndex = 0;
  for (
    let match = words.exec(text);
    match !== null && count++ < maximumEdits * 16 && (count % 64 !== 0 || sets.every((set) => set.length < maximumGroupEdits));
    match = words.exec(text)
  ) {
    const start = match.index;
    const end = start + match[0].length;
    // A comma (or `;`, `!`, `?`) after a word ends the chain there: `… MUw=, keep it` is no group of the token.
    const comma = end - start > 1 && ',;!?'.includes(text[end - 1] ?? ' ');
    // Quotes around the groups (`"8104785b 7fdccbcb …"`) are not part of the first and last group.
    const opening = end - start > 1 && '"\'`('.includes(text[start] ?? ' ') ? 1 : 0;
    const closing = end - start > 1 + opening && '"\'`)'.includes(text[end - 1] ?? ' ') ? 1 : 0;
    const word = { start: start + opening, end: comma ? end - 1 : end - closing };
    const previous = chain.at(-1);
    if (previous && (start - previous.end !== 1 || text[previous.end] !== ' ' || chain.length >= maximumWords)) {
      chainEdits(text, chain, sets);
      chain = [];
    }
    chain.push(word);
    if (comma) {
      chainEdits(text, chain, sets);
      chain = [];
    }
    if (end - start === 1 && text[start] === ':') {
      const edit = telegramEdit(text, start);
      if (edit) sets[8]?.push(edit);
    }
  }
  chainEdits(text, chain, sets);
  return sets.map((set) => set.slice(0, maximumGroupEdits));
}
