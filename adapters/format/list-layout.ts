import type { ListItem } from './document.js';

// Lists as lines: a marker on an item's first line, its other lines (and nested lists) indented under the text.

const bullets = ['•', '◦', '▪'];

/** "• ", "◦ ", "▪ " by depth; "3. " in an ordered list; a box for a task item. */
export function itemMarker(ordered: boolean, number: number, depth: number, item: ListItem): string {
  if (item.checked !== undefined) return item.checked ? '☑ ' : '☐ ';
  return ordered ? `${number}. ` : `${bullets[depth % bullets.length] ?? '•'} `;
}

/** `first` before the first line, `rest` before every other non-empty line. */
export function prefixLines(text: string, first: string, rest: string): string {
  return text
    .split('\n')
    .map((line, index) => (index === 0 ? first + line : line === '' ? line : rest + line))
    .join('\n');
}

/** `prefix` before every line, empty ones too (a quote stays one quote across its blank lines). */
export function quoteLines(text: string, prefix: string): string {
  return text
    .split('\n')
    .map((line) => prefix + line)
    .join('\n');
}
