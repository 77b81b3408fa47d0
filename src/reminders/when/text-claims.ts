// The pieces of a message that the time patterns have taken. Patterns run in a fixed order (durations, recurrences,
// dates, days, clock times, hints) and a later one may not take characters an earlier one took: "25 ธ.ค." is a date
// before "25" can be read as minutes, "อีก 2 ชั่วโมง" a duration before "โมง" is read as a clock.

export interface Piece {
  start: number;
  end: number;
}

export class Claims {
  private readonly taken: Piece[] = [];

  isFree(start: number, end: number): boolean {
    return this.taken.every((piece) => end <= piece.start || start >= piece.end);
  }

  claim(start: number, end: number): void {
    this.taken.push({ start, end });
  }
}

/** The matches of a global regex that touch nothing already claimed (matchAll on at most 500 characters). */
export function freeMatches(regex: RegExp, text: string, claims: Claims): RegExpExecArray[] {
  return [...text.matchAll(regex)].filter((match) => match[0] !== '' && claims.isFree(match.index, match.index + match[0].length)) as RegExpExecArray[];
}

/** A sticky regex tried at `at`. */
export function matchAt(regex: RegExp, text: string, at: number): RegExpExecArray | null {
  regex.lastIndex = at;
  return regex.exec(text);
}

const latinOrDigit = /[a-z0-9]/;

/**
 * Where a piece starts once a word just before it is taken too ("ตอน 9 โมง", "at 3pm", "on Monday", "วันที่ 25"), so
 * the subject left after the time keeps no dangling preposition. Spaces between are taken with it.
 */
export function extendBack(text: string, start: number, words: readonly string[], claims: Claims): number {
  let at = start;
  while (at > 0 && start - at < 4 && /\s/.test(text.charAt(at - 1))) at -= 1;
  for (const word of words) {
    const from = at - word.length;
    if (from < 0 || text.slice(from, at) !== word) continue;
    if (latinOrDigit.test(word.charAt(0)) && latinOrDigit.test(text.charAt(from - 1))) continue;
    if (claims.isFree(from, at)) return from;
  }
  return start;
}
