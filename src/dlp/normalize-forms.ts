import { backtickEdits, concatenationEdits } from './normalize-concatenation.js';
import { type Edit, fragmentsOf } from './normalize-fragments.js';
import { lineBreakEdits, wrappedLineEdits } from './normalize-line-breaks.js';
import { decodedEdits } from './normalize-decoded.js';
import { entityEdits, percentEdits } from './normalize-escapes.js';
import { spaceGroupEdits } from './normalize-groups.js';
import { partEdits } from './normalize-parts.js';
import { reversedEdits } from './normalize-reversed.js';
import { separatedCharacterEdits } from './normalize-separated.js';
import { hyphenEdits } from './normalize-separators.js';
import { normalizeForScan } from './normalize-text.js';

// Every form of a message the DLP scanner reads. The whole text, normalized (NFKC, invisible characters, Markdown
// escapes). The fragments around its wrapped lines, joined (read by format only). Then one text of fragments: for each obfuscation the text shows
// (each finder checks its cheap trigger first: a `+`, a backtick, a hyphen, a line break, a `%` or `&`, a long
// ASCII run, words of one length, labelled lines; all bounded per message), the fragments around the spots where
// it was undone: every finder's edits (and each set of a finder that reads a spot several ways) as one group. A form is always added beside the text, never in its place.

export interface ScanForm {
  text: string;
  /**
   * Whether the label search (context-secrets.ts) reads it: not the fragments with every line joined, which glue a
   * value to the next line's first word (`API_KEY=value` ⏎ `Keep`); a value wrapped over lines is in the careful
   * line-break fragments.
   */
  byLabel: boolean;
}

function editSets(normalized: string): Edit[][] {
  const lineBreaks = lineBreakEdits(normalized);
  return [
    hyphenEdits(normalized),
    separatedCharacterEdits(normalized),
    decodedEdits(normalized),
    percentEdits(normalized),
    entityEdits(normalized),
    reversedEdits(normalized),
    ...partEdits(normalized),
    ...spaceGroupEdits(normalized),
    concatenationEdits(normalized),
    backtickEdits(normalized),
    lineBreaks.joined,
    lineBreaks.spaced,
  ];
}

export function scanForms(text: string): ScanForm[] {
  const normalized = normalizeForScan(text);
  const forms: ScanForm[] = [{ text: normalized, byLabel: true }];
  const wrapped = wrappedLineEdits(normalized);
  if (wrapped.length > 0) forms.push({ text: fragmentsOf(normalized, wrapped), byLabel: false });
  // One text for all fragments: each form costs a pass of every rule, however short it is.
  const fragments = editSets(normalized)
    .filter((edits) => edits.length > 0)
    .map((edits) => fragmentsOf(normalized, edits));
  if (fragments.length > 0) forms.push({ text: fragments.join('\n\n'), byLabel: true });
  return forms;
}
