// Where Markdown code is: the guards leave fenced blocks and inline code alone (code the user asked for may
// legitimately contain tool-call tags, repeated lines and any number).

const fencePattern = /(?<![^\n])[ ]{0,3}(?:```|~~~)/g;
const inlinePattern = /`[^`\n]{1,2000}`/g;

export type Range = [number, number];

/** Fenced code blocks, an unclosed one running to the end. */
export function fenceRanges(text: string): Range[] {
  const tracker = new FenceTracker();
  tracker.update(text);
  return tracker.ranges(text.length);
}

/** Inline code spans in text[from, to) that do not start inside one of the (sorted) fences. */
export function inlineCodeRanges(text: string, fences: readonly Range[], from = 0, to = text.length): Range[] {
  const ranges: Range[] = [];
  inlinePattern.lastIndex = from;
  for (let match = inlinePattern.exec(text); match !== null && match.index < to; match = inlinePattern.exec(text)) {
    const fence = fences.find(([start, end]) => match.index >= start && match.index < end);
    if (fence) {
      inlinePattern.lastIndex = fence[1];
      continue;
    }
    ranges.push([match.index, match.index + match[0].length]);
  }
  return ranges;
}

/** Sorted ranges of all Markdown code in the text. */
export function codeRanges(text: string): Range[] {
  const fences = fenceRanges(text);
  return [...fences, ...inlineCodeRanges(text, fences)].sort((a, b) => a[0] - b[0]);
}

/** True when `index` lies in one of the sorted, disjoint ranges (binary search). */
export function insideRanges(ranges: readonly Range[], index: number): boolean {
  let low = 0;
  let high = ranges.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const range = ranges[middle];
    if (!range) return false;
    if (index < range[0]) high = middle - 1;
    else if (index >= range[1]) low = middle + 1;
    else return true;
  }
  return false;
}

/** Fence state of a growing text, updated from where it stopped (streaming: no rescans). */
export class FenceTracker {
  private closed: Range[] = [];
  private openAt = -1;
  private scannedTo = 0;

  update(text: string): void {
    if (text.length < this.scannedTo) this.reset();
    // Re-look at the last few characters: a fence marker may have been split across deltas.
    fencePattern.lastIndex = Math.max(0, this.scannedTo - 8);
    const lastSeen = Math.max(this.openAt, this.closed.at(-1)?.[1] ?? -1);
    for (let match = fencePattern.exec(text); match !== null; match = fencePattern.exec(text)) {
      if (match.index <= lastSeen) continue;
      if (this.openAt < 0) this.openAt = match.index;
      else {
        this.closed.push([this.openAt, match.index + match[0].length]);
        this.openAt = -1;
      }
    }
    this.scannedTo = text.length;
  }

  private reset(): void {
    this.closed = [];
    this.openAt = -1;
    this.scannedTo = 0;
  }

  /** Sorted fence ranges that end after `from` (binary search: streaming reads only the tail); an open fence runs to `end`. */
  ranges(end: number, from = 0): Range[] {
    let low = 0;
    let high = this.closed.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((this.closed[middle]?.[1] ?? 0) <= from) low = middle + 1;
      else high = middle;
    }
    const tail = this.closed.slice(low);
    return this.openAt >= 0 ? [...tail, [this.openAt, end]] : tail;
  }

  /** True when `index` is inside a fence (an open one counts up to the end of the text). */
  inside(index: number, end: number): boolean {
    if (this.openAt >= 0 && index >= this.openAt && index < end) return true;
    return insideRanges(this.closed, index);
  }
}
