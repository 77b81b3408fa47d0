import { createHash } from 'node:crypto';

// What a LINE early reply carried (live-answer.ts): the start of the answer's Markdown, remembered as a handle (its
// length and a digest, never the text) so the final reply pushes only the rest — in this attempt, and after a restart
// in the next one. A final answer that does not start with it (a guard changed it, the turn ran again and wrote
// another answer) is pushed whole.

export interface EarlyReply {
  /** How many characters of the answer's Markdown the reply carried (0: only a note that the answer follows). */
  chars: number;
  digest: string;
}

const handlePrefix = 'line-replied:';
const handlePattern = /^line-replied:(\d{1,9}):([0-9a-f]{0,32})$/;
/** The early reply carries at most this much of the answer: four bubbles of LINE's 5,000 characters, with room. */
export const maxEarlyChars = 12_000;

const digestOf = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 32);

export function earlyReplyHandle(repliedText: string): string {
  return `${handlePrefix}${repliedText.length}:${repliedText === '' ? '' : digestOf(repliedText)}`;
}

/** The early reply a stored live-message handle names, or undefined for none (or another platform's handle). */
export function readEarlyReply(handle: string | undefined): EarlyReply | undefined {
  const match = handle === undefined ? null : handlePattern.exec(handle);
  if (!match) return undefined;
  return { chars: Number(match[1]), digest: match[2] ?? '' };
}

/** The answer's Markdown after what the early reply carried; the whole answer when it does not start with that. */
export function remainderAfter(answer: string, replied: EarlyReply): string {
  if (replied.chars === 0 || replied.chars > answer.length) return answer;
  return digestOf(answer.slice(0, replied.chars)) === replied.digest ? answer.slice(replied.chars) : answer;
}

/**
 * The part of the shown text an early reply carries: up to its last line break (a block rendered alone reads the same
 * as inside the whole answer; a paragraph cut in two may not), with no code fence left open, within `maxEarlyChars`.
 * A single line still being written goes whole. '' when nothing is worth sending.
 */
export function earlyPart(shown: string): string {
  let part = shown.length > maxEarlyChars ? shown.slice(0, shown.lastIndexOf('\n', maxEarlyChars) + 1) : shown;
  const lineEnd = part.lastIndexOf('\n');
  if (lineEnd > 0) part = part.slice(0, lineEnd + 1);
  const fences = part.split('```').length - 1;
  if (fences % 2 === 1) part = part.slice(0, part.lastIndexOf('```'));
  return part.trim() === '' ? '' : part;
}
