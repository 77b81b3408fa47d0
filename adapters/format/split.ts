import { Break, breakPoints } from './break-points.js';

// Splits a rendered answer into parts that fit a platform's limit. The rendered string arrives as its text
// plus markup marks (tags, code fences) at text positions, so a cut never lands inside a tag or an entity.
// Each part is cut at the best place that still fills at least half of it — paragraph, then line, then word
// (Intl.Segmenter, Thai too), then grapheme — and a part that ends inside open markup closes it, and the next
// part opens it again.

/** Markup that opens at a text position: a tag, or a code fence line with its language. */
export interface OpenMark {
  kind: 'open';
  at: number;
  raw: string;
  /** What this mark counts toward the limit (Telegram counts no tags; Discord counts every character). */
  size: number;
  /** Appended when a part ends inside this mark... */
  closer: string;
  /** ...or this when the part's text ends a line (a fence closes on a line of its own). */
  closerAfterLineEnd: string;
  /** The most either closer counts toward the limit. */
  closerSize: number;
}

export interface CloseMark {
  kind: 'close';
  at: number;
  raw: string;
  size: number;
}

export type Mark = OpenMark | CloseMark;

/** A rendered string as the text it measures plus its marks, in order; `serialize` turns text back into markup. */
export interface MarkedText {
  text: string;
  marks: readonly Mark[];
}

export interface SplitProfile {
  limit: number;
  /** Stop after this many parts (a capped reply): only the text they can reach is looked at. */
  maxParts?: number;
  /** Text as it goes into the platform's markup (Telegram: HTML-escaped). */
  serialize(text: string): string;
}

/** One part: `reopened` + `body` + `closed`; the bodies concatenate back to the whole rendered string. */
export interface Part {
  text: string;
  reopened: string;
  body: string;
  closed: string;
  /** Where the part's body begins in the measured text (MarkedText.text). */
  start: number;
}

interface Candidate {
  position: number;
  markIndex: number;
  stack: readonly OpenMark[];
  priority: number;
  cost: number;
}

interface State {
  position: number;
  markIndex: number;
  stack: readonly OpenMark[];
}

function closersSize(stack: readonly OpenMark[]): number {
  return stack.reduce((total, mark) => total + mark.closerSize, 0);
}

function apply(stack: readonly OpenMark[], mark: Mark): readonly OpenMark[] {
  return mark.kind === 'open' ? [...stack, mark] : stack.slice(0, -1);
}

const endOfText = Break.Paragraph + 1;

/** Walks forward from `state` while the part can still grow and lists every place it could end. */
function candidates(source: MarkedText, points: Uint8Array, state: State, limit: number): Candidate[] {
  const { text, marks } = source;
  const found: Candidate[] = [];
  let stack = state.stack;
  let markIndex = state.markIndex;
  let size = state.stack.reduce((total, mark) => total + mark.size, 0);
  for (let position = state.position; ; position += 1) {
    // Closing markup at a cut stays with the part before it; opening markup goes with the next part.
    for (let mark = marks[markIndex]; mark && mark.at === position && mark.kind === 'close'; mark = marks[markIndex]) {
      size += mark.size;
      stack = apply(stack, mark);
      markIndex += 1;
    }
    if (position === text.length) {
      for (let mark = marks[markIndex]; mark; mark = marks[markIndex]) {
        size += mark.size;
        stack = apply(stack, mark);
        markIndex += 1;
      }
      const cost = size + closersSize(stack);
      if (cost <= limit) found.push({ position, markIndex, stack, priority: endOfText, cost });
      return found;
    }
    const priority = points[position] ?? Break.Never;
    if (position > state.position && priority !== Break.Never) {
      const cost = size + closersSize(stack);
      if (cost <= limit) found.push({ position, markIndex, stack, priority, cost });
    }
    for (let mark = marks[markIndex]; mark && mark.at === position; mark = marks[markIndex]) {
      size += mark.size;
      stack = apply(stack, mark);
      markIndex += 1;
    }
    size += 1;
    if (size > limit) return found;
  }
}

function choose(found: readonly Candidate[], limit: number): Candidate | undefined {
  const last = found.at(-1);
  if (!last || last.priority === endOfText) return last;
  for (let priority: number = Break.Paragraph; priority >= Break.Grapheme; priority -= 1) {
    for (let index = found.length - 1; index >= 0; index -= 1) {
      const candidate = found[index];
      if (!candidate || candidate.cost * 2 < limit) break;
      if (candidate.priority >= priority) return candidate;
    }
  }
  return found.findLast((candidate) => candidate.priority >= Break.Grapheme) ?? last;
}

function serializeRange(source: MarkedText, profile: SplitProfile, from: State, to: Pick<State, 'position' | 'markIndex'>): string {
  let body = '';
  let position = from.position;
  for (let index = from.markIndex; index < to.markIndex; index += 1) {
    const mark = source.marks[index];
    if (!mark) continue;
    body += profile.serialize(source.text.slice(position, mark.at)) + mark.raw;
    position = mark.at;
  }
  return body + profile.serialize(source.text.slice(position, to.position));
}

/** Cuts `source` into parts of at most `profile.limit`, measured as the profile's marks and text count. */
export function splitMarked(source: MarkedText, profile: SplitProfile): Part[] {
  const whole = source.text.length + source.marks.reduce((total, mark) => total + mark.size, 0);
  if (whole <= profile.limit) {
    // Most answers fit one message: no need to look for boundaries.
    const body = serializeRange(source, profile, { position: 0, markIndex: 0, stack: [] }, { position: source.text.length, markIndex: source.marks.length });
    return body === '' ? [] : [{ text: body, reopened: '', body, closed: '', start: 0 }];
  }
  // A part holds at most `limit` characters of text, so `maxParts` parts never reach past maxParts × limit: the
  // break points (the costly Intl.Segmenter pass) are found only that far.
  const maxParts = profile.maxParts ?? Infinity;
  const reach = Number.isFinite(maxParts) ? maxParts * profile.limit + 64 : source.text.length;
  const points = breakPoints(reach < source.text.length ? source.text.slice(0, reach) : source.text);
  const parts: Part[] = [];
  let state: State = { position: 0, markIndex: 0, stack: [] };
  while ((state.position < source.text.length || state.markIndex < source.marks.length) && parts.length < maxParts) {
    const cut = choose(candidates(source, points, state, profile.limit), profile.limit);
    if (!cut) throw new RangeError(`a part cannot fit in ${profile.limit}: the limit is smaller than the markup it must reopen`);
    const reopened = state.stack.map((mark) => mark.raw).join('');
    const body = serializeRange(source, profile, state, cut);
    const endsLine = (reopened + body).endsWith('\n');
    const closed = [...cut.stack]
      .reverse()
      .map((mark) => (endsLine ? mark.closerAfterLineEnd : mark.closer))
      .join('');
    parts.push({ text: reopened + body + closed, reopened, body, closed, start: state.position });
    state = cut;
  }
  return parts;
}
