import type { GuardEvent } from '../../src/shared/types.js';
import { FenceTracker, inlineCodeRanges } from './code-spans.js';
import { scanMarkup } from './markup-scan.js';
import { RepetitionDetector } from './repetition.js';

// The two streaming detectors (docs/architecture.md, "Turn loop and guard order"), called by the turn after every
// visible text delta with the whole text so far. Work per call is bounded: the repetition detector and the fence
// tracker only read new characters, the markup scan reads the new characters plus a small overlap (or, while a call is
// being collected, at most `collectLimit` characters). Tool-call markup that may be a call is collected until it is
// complete (closer seen or JSON closed) so that the turn can recover it with findLeakedToolCalls; chat-template tokens
// and orphaned closers stop the stream at once. Repetition is not checked when the user asked for repetition.

export type StreamVerdict = { action: 'continue' } | { action: 'abort'; kind: 'repetition' | 'leaked-markup'; event: GuardEvent };

export interface StreamMonitor {
  inspect(visibleSoFar: string): StreamVerdict;
  /** The sum of the text lengths the monitor read (the work it did): at most about 17 times the text's length. */
  readonly charactersRead: number;
}

/** Longer than any marker the markup scan looks for, so a marker split across deltas is still found. */
const markerOverlap = 48;
/** A leaked call is collected up to this many characters (a write_file body can be long), then cut. */
const collectLimit = 16_384;
/** Inline code spans are looked for from the start of the current line, at most this far back. */
const lineLookback = 2_000;

const continueVerdict: StreamVerdict = { action: 'continue' };

/**
 * The text so far is built by appending deltas, and reading such a string (a regex, `slice`, `charCodeAt`) makes V8
 * copy all of it into one flat string first: a look after every 4-character delta would cost O(n²) over a long
 * stream (a 100,000-character answer: 15 s). So past `alwaysLookBelow` characters the monitor looks once the text has
 * grown by 1/16 since its last look: the lengths it reads add up to a constant plus about 17 times the final length,
 * and a repetition or leaked markup in a long answer is seen at most 1/16 of the text late (the turn still finds
 * leaked markup in the whole text after the stream).
 */
const growthBeforeLook = 16;
const alwaysLookBelow = 4_096;

function lineStart(text: string, index: number): number {
  const floor = Math.max(0, index - lineLookback);
  for (let position = index - 1; position >= floor; position--) {
    if (text.charCodeAt(position) === 10) return position + 1;
  }
  return floor;
}

/** A Markdown table row: its line starts with `|`. */
function inTable(text: string, start: number): boolean {
  const from = lineStart(text, start);
  return /^[ \t]{0,8}\|/.test(text.slice(from, from + 16));
}

export function createStreamMonitor(options: {
  userAskedToRepeat: boolean;
  /** 0: look after every delta (the bench's baseline). */ growthBeforeLook?: number;
}): StreamMonitor {
  const growth = options.growthBeforeLook ?? growthBeforeLook;
  const fences = new FenceTracker();
  let textLength = 0;
  const repetition = options.userAskedToRepeat ? undefined : new RepetitionDetector((text, start) => fences.inside(start, textLength) || inTable(text, start));
  let searchFrom = 0;
  /** Start of markup seen but not yet complete (or not yet classifiable): rescanned from there. */
  let pending: number | undefined;
  let pendingIsCall = false;
  let probedLength = 0;

  const abortMarkup = (at: number, reason: string): StreamVerdict => ({
    action: 'abort',
    kind: 'leaked-markup',
    event: { guard: 'leaked-markup', action: 'block', reason: `${reason} at character ${at}: generation stopped` },
  });

  const inspectMarkup = (text: string): StreamVerdict => {
    // A call being collected can only complete with a closer, a closing bracket or a line end.
    if (pendingIsCall && text.length - probedLength < 256 && !/[>}\]\n]/.test(text.slice(probedLength))) return continueVerdict;
    probedLength = text.length;
    const from = pending ?? Math.max(0, searchFrom - markerOverlap);
    const windowStart = lineStart(text, from);
    const fenceRanges = fences.ranges(text.length, windowStart);
    const code = [...fenceRanges, ...inlineCodeRanges(text, fenceRanges, windowStart)].sort((a, b) => a[0] - b[0]);
    const scan = scanMarkup(text, { from, final: false, code });
    const segment = scan.segments[0];
    if (segment) {
      if (segment.complete) return abortMarkup(segment.start, 'tool-call markup in the answer');
      if (text.length - segment.start > collectLimit) return abortMarkup(segment.start, 'unfinished tool-call markup');
      pending = segment.start;
      pendingIsCall = true;
      return continueVerdict;
    }
    pendingIsCall = false;
    pending = scan.undecidedAt !== undefined && text.length - scan.undecidedAt <= collectLimit ? scan.undecidedAt : undefined;
    searchFrom = text.length;
    return continueVerdict;
  };

  let lookedAt = 0;
  let charactersRead = 0;

  return {
    get charactersRead() {
      return charactersRead;
    },
    inspect(visibleSoFar) {
      const length = visibleSoFar.length;
      if (length > alwaysLookBelow && length >= lookedAt && growth > 0 && length - lookedAt < Math.floor(length / growth)) return continueVerdict;
      lookedAt = length;
      charactersRead += length;
      if (visibleSoFar.length < textLength) {
        searchFrom = 0;
        pending = undefined;
        pendingIsCall = false;
        probedLength = 0;
      }
      textLength = visibleSoFar.length;
      fences.update(visibleSoFar);
      const markup = inspectMarkup(visibleSoFar);
      if (markup.action === 'abort' || pending !== undefined) {
        repetition?.feed(visibleSoFar); // keep its state current; a call body may repeat lines legitimately
        return markup;
      }
      const found = repetition?.feed(visibleSoFar);
      if (!found) return continueVerdict;
      return {
        action: 'abort',
        kind: 'repetition',
        event: {
          guard: 'repetition',
          action: 'block',
          reason: `a ${found.unitLength}-character unit repeated 4 times in a row (characters ${found.start}–${found.end}): generation stopped`,
        },
      };
    },
  };
}
