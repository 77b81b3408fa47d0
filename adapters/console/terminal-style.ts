import { showControls } from './terminal-safe.js';

// Terminal text as lines of styled spans. Each line is serialized on its own, opening and closing its own SGR
// codes, so a prefix, a wrapped line or a pager never carries a colour over from the line before.

export const Style = { none: 0, bold: 1, dim: 2, italic: 4, strike: 8, cyan: 16 } as const;

/** A set of `Style` flags. */
export type StyleSet = number;

export interface Span {
  text: string;
  style: StyleSet;
}

export type StyledLine = Span[];

/** A span of the model's text, its control characters made harmless. */
export function span(text: string, style: StyleSet = Style.none): Span {
  return { text: showControls(text), style };
}

const intensity = Style.bold | Style.dim;
const intensityOff = 22;

const attributes: readonly { flag: number; on: number; off: number }[] = [
  { flag: Style.bold, on: 1, off: intensityOff },
  { flag: Style.dim, on: 2, off: intensityOff },
  { flag: Style.italic, on: 3, off: 23 },
  { flag: Style.strike, on: 9, off: 29 },
  { flag: Style.cyan, on: 36, off: 39 },
];

function sgr(code: number): string {
  return `\x1b[${code}m`;
}

/** The codes that turn style `from` into style `to`. */
function transition(from: StyleSet, to: StyleSet): string {
  let codes = '';
  let current = from;
  // Bold and dim share one "off" code: dropping either drops both, and the one kept is turned on again below.
  if ((current & intensity & ~to) !== 0) {
    codes += sgr(intensityOff);
    current &= ~intensity;
  }
  for (const attribute of attributes) {
    if (attribute.off !== intensityOff && (current & attribute.flag) !== 0 && (to & attribute.flag) === 0) {
      codes += sgr(attribute.off);
      current &= ~attribute.flag;
    }
  }
  for (const attribute of attributes) if ((to & attribute.flag) !== 0 && (current & attribute.flag) === 0) codes += sgr(attribute.on);
  return codes;
}

/** A line without its trailing whitespace (none is visible, and a wrapped line would end in the space it was cut at). */
export function trimLineEnd(line: StyledLine): StyledLine {
  const trimmed = [...line];
  while (trimmed.length > 0) {
    const last = trimmed[trimmed.length - 1];
    if (last === undefined) break;
    const text = last.text.trimEnd();
    if (text !== '') {
      trimmed[trimmed.length - 1] = { text, style: last.style };
      break;
    }
    trimmed.pop();
  }
  return trimmed;
}

/** One line as terminal text: with ANSI SGR codes when `color`, else the bare text. */
export function serializeLine(line: StyledLine, color: boolean): string {
  if (!color) return line.map((piece) => piece.text).join('');
  let text = '';
  let current: StyleSet = Style.none;
  for (const piece of line) {
    if (piece.text === '') continue;
    text += transition(current, piece.style) + piece.text;
    current = piece.style;
  }
  return text + transition(current, Style.none);
}

/** Spans whose text may hold newlines, as lines. */
export function toLines(spans: readonly Span[]): StyledLine[] {
  const lines: StyledLine[] = [[]];
  for (const piece of spans) {
    const parts = piece.text.split('\n');
    parts.forEach((part, index) => {
      if (index > 0) lines.push([]);
      if (part !== '') lines[lines.length - 1]?.push({ text: part, style: piece.style });
    });
  }
  return lines;
}
