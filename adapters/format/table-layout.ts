import type { Alignment } from './document.js';
import { displayWidth } from './graphemes.js';

// A table as aligned monospace lines: every column as wide as its widest cell (in graphemes), a rule under the
// header. Cells arrive as plain one-line text; the caller escapes the lines for its platform. A caller that knows
// how its screen counts columns (a terminal) passes its own `measure`.

function pad(text: string, width: number, align: Alignment, measure: (text: string) => number): string {
  const room = Math.max(0, width - measure(text));
  if (align === 'right') return ' '.repeat(room) + text;
  if (align === 'center') return ' '.repeat(Math.floor(room / 2)) + text + ' '.repeat(room - Math.floor(room / 2));
  return text + ' '.repeat(room);
}

/** Header line, a rule, then one line per row; columns separated by `separator`; no trailing spaces. */
export function layoutTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  align: readonly Alignment[],
  separator: string,
  measure: (text: string) => number = displayWidth,
): string[] {
  const columns = Math.max(header.length, ...rows.map((row) => row.length));
  const widths: number[] = [];
  for (let column = 0; column < columns; column += 1) {
    widths.push(Math.max(1, measure(header[column] ?? ''), ...rows.map((row) => measure(row[column] ?? ''))));
  }
  const line = (cells: readonly string[]): string =>
    widths
      .map((width, column) => pad(cells[column] ?? '', width, align[column] ?? null, measure))
      .join(separator)
      .trimEnd();
  const rule = widths.map((width) => '─'.repeat(width)).join(separator);
  return [line(header), rule, ...rows.map(line)];
}
