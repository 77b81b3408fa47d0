import { prefixWithinTokens } from './token-estimate.js';
import type { LogLine } from './log-lines.js';

// The map step's chunks: consecutive log lines whose prompt text fits a token budget. Where a chunk must end, a
// quiet spell (no message for half an hour or more) in its second half is the preferred place: a conversation
// seldom goes on across one, so a topic is less often cut in two; failing one, the chunk ends where it is full.

export type CountTokens = (text: string) => number;

export interface Chunk {
  /** Index of the first and last entry in it (the caller's indices). */
  first: number;
  last: number;
  /** The prompt text: a day line first, then a line an entry (and a day line where the day changes). */
  text: string;
  tokens: number;
}

export const quietSpellMs = 30 * 60_000;

/** Lines cut to fit alone in a chunk with their day line (only a tiny budget ever cuts one). */
function fitted(lines: readonly LogLine[], budget: number, count: CountTokens): LogLine[] {
  return lines.map((line) => {
    const room = budget - count(line.day) - 2;
    return count(line.text) <= room ? line : { ...line, text: `${prefixWithinTokens(line.text, Math.max(0, room - 1), count)}…` };
  });
}

function chunkText(lines: readonly LogLine[]): string {
  return lines.map((line, position) => (position === 0 || line.newDay ? `${line.day}\n${line.text}` : line.text)).join('\n');
}

/** Where to end the chunk [start, end): the longest quiet spell after its first half, else `end`. */
function boundary(lines: readonly LogLine[], costs: readonly number[], start: number, end: number, budget: number): number {
  let best = end;
  let bestGap = quietSpellMs - 1;
  let used = 0;
  for (let index = start; index < end; index++) {
    const line = lines[index];
    const before = lines[index - 1];
    if (index > start && line && before && used >= budget / 2 && line.at - before.at > bestGap) {
      best = index;
      bestGap = line.at - before.at;
    }
    used += costs[index] ?? 0;
  }
  return best;
}

/** Splits a chunk whose whole text counts over the budget (a counter need not be additive over lines). */
function finished(lines: readonly LogLine[], budget: number, count: CountTokens): Chunk[] {
  const text = chunkText(lines);
  const tokens = count(text);
  const first = lines[0];
  const last = lines.at(-1);
  if (!first || !last) return [];
  if (tokens <= budget || lines.length === 1) return [{ first: first.index, last: last.index, text, tokens }];
  const half = lines.length >> 1;
  return [...finished(lines.slice(0, half), budget, count), ...finished(lines.slice(half), budget, count)];
}

/** Consecutive chunks of `lines`, each counting at most `budget` tokens. */
export function chunkLines(given: readonly LogLine[], budget: number, count: CountTokens): Chunk[] {
  const lines = fitted(given, budget, count);
  const textCost = lines.map((line) => count(line.text) + 1);
  const dayCost = lines.map((line) => count(line.day) + 1);
  // A line's cost inside a chunk: its day line counts when the day changes there or the line opens the chunk.
  const cost = (index: number, opens: boolean) => (textCost[index] ?? 0) + (opens || lines[index]?.newDay ? (dayCost[index] ?? 0) : 0);
  const costs = lines.map((_, index) => cost(index, false));
  const chunks: Chunk[] = [];
  let start = 0;
  let used = 0;
  for (let index = 0; index < lines.length; index++) {
    // Twice at most: lines carried past a quiet spell may leave too little room for this one.
    while (index > start && used + cost(index, false) > budget) {
      const end = boundary(lines, costs, start, index, budget);
      chunks.push(...finished(lines.slice(start, end), budget, count));
      start = end;
      used = 0;
      for (let carried = start; carried < index; carried++) used += cost(carried, carried === start);
    }
    used += cost(index, index === start);
  }
  if (start < lines.length) chunks.push(...finished(lines.slice(start), budget, count));
  return chunks;
}
