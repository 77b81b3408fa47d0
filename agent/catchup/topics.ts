import { stripThinking } from '../model/index.js';

// Reading the model's topic lists. Its output is untrusted text: bounded before it is read, scanned line by line
// with short bounded patterns, and a `#n` it cites counts only when n is an entry of the stretch it was shown —
// any other is dropped from the text. Nothing here throws on what the model wrote.

/** The most output read of one call, and of one line of it. */
const maxOutputChars = 24_000;
const maxLines = 400;
const maxLineChars = 600;

const refPattern = /#(\d{1,7})(?!\d)/g;
/** "(#12)", "(#12, #40)" with the space before it: removed whole from what the user reads. */
const refGroupPattern = /\s{0,2}\(\s{0,2}#\d{1,7}(?:\s{0,2}[,/-]\s{0,2}#\d{1,7}){0,16}\s{0,2}\)/g;
const listNumber = /^\d{1,2}[.)]\s/;

export interface Topic {
  /** The heading without its markup and references. */
  title: string;
  /** The lines under the heading, references removed. */
  lines: string[];
  /** The entry the topic started with: the heading's first valid reference, else the smallest one under it. */
  first?: number;
}

export interface TopicList {
  /** Lines before the first heading (the model's own preamble), references removed. */
  preamble: string[];
  topics: Topic[];
  /** References to entries the stretch does not hold. */
  droppedRefs: number;
}

/** The model's visible answer, bounded in characters and lines, each line bounded too. */
export function boundedLines(output: string): string[] {
  return stripThinking(output.slice(0, maxOutputChars))
    .split('\n', maxLines)
    .map((line) => line.slice(0, maxLineChars).trimEnd());
}

/** `text` with every `#n` kept only where `valid(n)`; how many were dropped. */
export function keepValidRefs(text: string, valid: (entry: number) => boolean): { text: string; dropped: number } {
  let dropped = 0;
  const kept = text.replace(refPattern, (whole, digits: string) => {
    if (valid(Number(digits))) return whole;
    dropped++;
    return '';
  });
  return { text: kept, dropped };
}

/** Every entry `text` refers to, in order. */
export function refsIn(text: string): number[] {
  return refsOf(text, () => true);
}

function refsOf(line: string, valid: (entry: number) => boolean): number[] {
  const found: number[] = [];
  refPattern.lastIndex = 0;
  for (let match = refPattern.exec(line); match !== null; match = refPattern.exec(line)) {
    const entry = Number(match[1]);
    if (valid(entry)) found.push(entry);
  }
  return found;
}

/** The line's references taken out, for the reader (a reference means nothing to them). */
export function withoutRefs(line: string): string {
  return line.replace(refGroupPattern, '').replace(refPattern, '').replace(/ {2,}/g, ' ').trimEnd();
}

const marks = new Set(['*', '_', ':', ' ', '\t']);

/** Emphasis marks, colons and spaces off both ends (by hand: an end-anchored pattern rescans on every start). */
function trimMarks(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && marks.has(text[start] ?? '')) start++;
  while (end > start && marks.has(text[end - 1] ?? '')) end--;
  return text.slice(start, end);
}

/** The heading's text when the line is one: `## title`, `**title**`, `1. **title**`; else undefined. */
export function headingText(line: string): string | undefined {
  const trimmed = line.trim();
  if (trimmed.startsWith('#')) {
    let level = 0;
    while (trimmed[level] === '#' && level < 6) level++;
    if (level > 0 && level < 6 && trimmed[level] === ' ') return trimmed.slice(level + 1).trim();
    return undefined;
  }
  const unnumbered = trimmed.replace(listNumber, '');
  if (unnumbered.startsWith('**') && unnumbered.indexOf('**', 2) > 2) {
    const close = unnumbered.indexOf('**', 2);
    const rest = unnumbered.slice(close + 2).trim();
    // Bold alone on its line, or followed only by references or a colon: a heading, not bold words in a sentence.
    if (rest === '' || rest === ':' || withoutRefs(rest).trim() === '') return `${unnumbered.slice(2, close)} ${rest}`.trim();
  }
  return undefined;
}

/** The topics of one model answer, references checked against `valid`. */
export function parseTopics(output: string, valid: (entry: number) => boolean): TopicList {
  const list: TopicList = { preamble: [], topics: [], droppedRefs: 0 };
  let current: Topic | undefined;
  let bodyRefs: number[] = [];
  const close = () => {
    if (current && current.first === undefined && bodyRefs.length > 0) current.first = Math.min(...bodyRefs);
    bodyRefs = [];
  };
  for (const line of boundedLines(output)) {
    const all = line.match(refPattern)?.length ?? 0;
    const refs = refsOf(line, valid);
    list.droppedRefs += all - refs.length;
    const heading = headingText(line);
    if (heading !== undefined) {
      close();
      const title = trimMarks(withoutRefs(heading));
      current = { title, lines: [], ...(refs[0] !== undefined ? { first: refs[0] } : {}) };
      list.topics.push(current);
      continue;
    }
    const text = withoutRefs(line);
    if (current) {
      bodyRefs.push(...refs);
      if (text.trim() !== '' || current.lines.length > 0) current.lines.push(text);
    } else if (text.trim() !== '') list.preamble.push(text);
  }
  close();
  for (const topic of list.topics) while (topic.lines.at(-1)?.trim() === '') topic.lines.pop();
  return list;
}
