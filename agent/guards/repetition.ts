// Degenerate repetition (small models loop on a phrase until the token limit): a unit of at least 4 characters that is
// not itself periodic, repeated at least 4 times in a row at the end of the text (vLLM's tail-anchored check).
// Incremental: for every period length L it keeps how many positions in a row matched the character L back, so each new
// character costs O(maxUnit) and nothing is rescanned. The tail has period L over 4 copies when that count reaches 3·L.
// Not an event: units with no letter (555…, emoji rows, ----, table rules), units whose own period is under 4 (มากกกก,
// ฮ่าฮ่า, ๆๆ), and whatever the caller exempts (code fences, tables).

export const minUnit = 4;
export const maxUnit = 200;
const copies = 4;

export interface RepetitionFinding {
  unitLength: number;
  /** Start of the repeated region (4 copies) in the text. */
  start: number;
  end: number;
}

/** Caller's exemption for a region (e.g. inside a code fence or a Markdown table). */
export type RegionExemption = (text: string, start: number, end: number) => boolean;

const letter = /\p{L}/u;

export class RepetitionDetector {
  private readonly runs = new Int32Array(maxUnit + 1);
  /** Set while a run of period L continues after it was judged exempt, so it is judged once. */
  private readonly exempt = new Uint8Array(maxUnit + 1);
  private processed = 0;

  constructor(private readonly isExempt: RegionExemption = () => false) {}

  /** Feeds the whole text so far (append-only); returns the first repetition found in the new part. */
  feed(text: string): RepetitionFinding | undefined {
    if (text.length < this.processed) this.reset();
    const runs = this.runs;
    for (let index = this.processed; index < text.length; index++) {
      const code = text.charCodeAt(index);
      const limit = Math.min(maxUnit, index);
      let candidate = 0;
      for (let length = 1; length <= limit; length++) {
        if (text.charCodeAt(index - length) === code) {
          const run = (runs[length] ?? 0) + 1;
          runs[length] = run;
          if (candidate === 0 && length >= minUnit && run >= (copies - 1) * length && this.exempt[length] === 0) candidate = length;
        } else {
          runs[length] = 0;
          this.exempt[length] = 0;
        }
      }
      for (let length = limit + 1; length <= maxUnit; length++) runs[length] = 0;
      if (candidate > 0) {
        const finding = this.judge(text, index + 1, candidate);
        if (finding) {
          this.processed = index + 1;
          return finding;
        }
      }
    }
    this.processed = text.length;
    return undefined;
  }

  private judge(text: string, end: number, firstLength: number): RepetitionFinding | undefined {
    for (let length = firstLength; length <= Math.min(maxUnit, end - 1); length++) {
      if (this.exempt[length] !== 0 || (this.runs[length] ?? 0) < (copies - 1) * length) continue;
      const start = end - copies * length;
      if (this.isPrimitiveUnit(length) && letter.test(text.slice(end - length, end)) && !this.isExempt(text, start, end)) {
        return { unitLength: length, start, end };
      }
      this.exempt[length] = 1;
    }
    return undefined;
  }

  /** The region of period `length` is not also covered by a period under `minUnit` (Fine–Wilf). */
  private isPrimitiveUnit(length: number): boolean {
    for (let small = 1; small < minUnit; small++) {
      if ((this.runs[small] ?? 0) >= copies * length - small) return false;
    }
    return true;
  }

  private reset(): void {
    this.runs.fill(0);
    this.exempt.fill(0);
    this.processed = 0;
  }
}
