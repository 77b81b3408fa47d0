import { terminalWidth } from './terminal-width.js';

// The growing answer on a terminal, as the block of lines the screen draws above its bottom line and rubs out when
// the next preview or the final reply comes (screen.ts). Rubbing out moves the cursor up by the rows the block took,
// so the rows are counted the way the terminal wraps (a line wider than the terminal takes more than one), and only
// the newest lines that fit on the screen are kept: the cursor cannot go up into rows scrolled out of view.

export interface LiveBlock {
  /** Whole lines, each ending with a line end. */
  text: string;
  /** Terminal rows the text takes. */
  rows: number;
}

// eslint-disable-next-line no-control-regex -- ANSI style codes take no columns
const ansiStyle = /\u001b\[[0-9;]*m/g;

function rowsOf(line: string, columns: number): number {
  return Math.max(1, Math.ceil(terminalWidth(line.replace(ansiStyle, '')) / columns));
}

/** The rendered preview's last lines that fit in `maxRows` rows of a `columns`-wide terminal; undefined when empty. */
export function fitLiveBlock(rendered: string, columns: number, maxRows: number): LiveBlock | undefined {
  // Trailing newlines dropped by a loop: /\n+$/ backtracks quadratically on a run of newlines not at the end.
  let end = rendered.length;
  while (end > 0 && rendered.charCodeAt(end - 1) === 10) end -= 1;
  const lines = rendered.slice(0, end).split('\n');
  const kept: string[] = [];
  let rows = 0;
  for (let index = lines.length - 1; index >= 0; index -= 1) {
    const line = lines[index] ?? '';
    const taken = rowsOf(line, columns);
    if (rows + taken > maxRows) break;
    kept.unshift(line);
    rows += taken;
  }
  if (rows === 0 || kept.join('').trim() === '') return undefined;
  return { text: `${kept.join('\n')}\n`, rows };
}
