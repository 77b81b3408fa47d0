import { codeRanges, type Range } from './code-spans.js';

// Letters of a text counted by script, outside Markdown code, URLs and link targets (a Thai answer with an English
// command, a URL or a code block is still a Thai answer). One pass over the text; the only regexes are bounded.

export interface ScriptCounts {
  thai: number;
  /** Han ideographs (Chinese, and the kanji of Japanese). */
  han: number;
  /** Hiragana and katakana. */
  kana: number;
  hangul: number;
  latin: number;
  /** Runs of two or more Latin letters. */
  latinWords: number;
}

/** Scanned at most: a drifted answer shows itself long before this. */
const maxScanned = 20_000;
const urlPattern = /\b(?:https?:\/\/|www\.)[^\s<>()[\]`]{1,2000}/gi;
const linkTargetPattern = /\]\([^()\s]{0,2000}\)/g;

function matchRanges(text: string, pattern: RegExp): Range[] {
  return [...text.matchAll(pattern)].map((match) => [match.index, match.index + match[0].length]);
}

/** Code, URLs and link targets: sorted, possibly overlapping. */
function skippedRanges(text: string): Range[] {
  return [...codeRanges(text), ...matchRanges(text, urlPattern), ...matchRanges(text, linkTargetPattern)].sort((a, b) => a[0] - b[0]);
}

type Script = keyof Omit<ScriptCounts, 'latinWords'>;

function scriptOf(code: number): Script | undefined {
  if (code < 0x80) return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) ? 'latin' : undefined;
  // Thai letters and vowels; Thai digits (U+0E50–U+0E59) are numbers, not language.
  if (code >= 0x0e01 && code <= 0x0e4f) return 'thai';
  if (code >= 0x0e5a && code <= 0x0e7f) return 'thai';
  if (code >= 0xc0 && code <= 0x24f) return code === 0xd7 || code === 0xf7 ? undefined : 'latin';
  if (code >= 0x3040 && code <= 0x30ff) return 'kana';
  if (code >= 0x31f0 && code <= 0x31ff) return 'kana';
  if (code >= 0xff66 && code <= 0xff9f) return 'kana';
  if ((code >= 0x4e00 && code <= 0x9fff) || (code >= 0x3400 && code <= 0x4dbf) || (code >= 0xf900 && code <= 0xfaff)) return 'han';
  if ((code >= 0xac00 && code <= 0xd7af) || (code >= 0x1100 && code <= 0x11ff) || (code >= 0x3130 && code <= 0x318f)) return 'hangul';
  return undefined;
}

export function countScripts(input: string): ScriptCounts {
  const text = input.slice(0, maxScanned);
  const counts: ScriptCounts = { thai: 0, han: 0, kana: 0, hangul: 0, latin: 0, latinWords: 0 };
  const skipped = skippedRanges(text);
  let next = 0; // the first skipped range that may still lie ahead
  let latinRun = 0;
  for (let index = 0; index < text.length; index++) {
    while (next < skipped.length && (skipped[next]?.[1] ?? 0) <= index) next++;
    const range = skipped[next];
    if (range && range[0] <= index) {
      index = range[1] - 1;
      latinRun = endRun(counts, latinRun);
      continue;
    }
    const script = scriptOf(text.charCodeAt(index));
    if (script) counts[script]++;
    latinRun = script === 'latin' ? latinRun + 1 : endRun(counts, latinRun);
  }
  endRun(counts, latinRun);
  return counts;
}

function endRun(counts: ScriptCounts, run: number): number {
  if (run >= 2) counts.latinWords++;
  return 0;
}

export function cjkLetters(counts: ScriptCounts): number {
  return counts.han + counts.kana + counts.hangul;
}

export function allLetters(counts: ScriptCounts): number {
  return counts.thai + counts.latin + cjkLetters(counts);
}
