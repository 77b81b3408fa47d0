import type { Citation } from '../../../src/shared/types.js';

// Numbered citations are the code's job: the model writes `[n]` against a numbered fact list, and the
// final numbers, the order and the URLs are set here. Unknown numbers and typed URLs are removed.

export interface Source {
  url: string;
  title: string;
}

/** Gives final numbers to sources in order of first use. */
export class CitationNumbering {
  private readonly order: number[] = [];

  constructor(private readonly sources: readonly Source[]) {}

  /** Final number for source index `index` (0-based), or undefined when there is no such source. */
  numberFor(index: number): number | undefined {
    if (!Number.isInteger(index) || index < 0 || index >= this.sources.length) return undefined;
    const known = this.order.indexOf(index);
    if (known >= 0) return known + 1;
    this.order.push(index);
    return this.order.length;
  }

  get used(): number {
    return this.order.length;
  }

  citations(): Citation[] {
    return this.order.flatMap((index) => {
      const source = this.sources[index];
      return source ? [{ label: source.title || source.url, url: source.url }] : [];
    });
  }
}

const typedUrl = /https?:\/\/[^\s)\]>]{1,2048}/g;
const marker = /\[(\d{1,3}(?:\s{0,2},\s{0,2}\d{1,3}){0,9})\]/g;
const sourceHeadings = new Set(['sources', 'source', 'references', 'แหล่งที่มา', 'แหล่งอ้างอิง', 'อ้างอิง', 'ที่มา']);
const maxLinkTextLength = 200;

/** Text before a source-list heading the model wrote ("## Sources", "**แหล่งที่มา:**"), if any. */
function beforeSourceList(answer: string): string {
  const lines = answer.split('\n');
  const heading = lines.findIndex((line) => {
    const bare = line
      .trim()
      .replace(/^#{1,6}/, '')
      .replace(/[*:_]/g, '')
      .trim()
      .toLowerCase();
    return sourceHeadings.has(bare);
  });
  return heading < 0 ? answer : lines.slice(0, heading).join('\n');
}

/** `[text](url)` → `text` (scanned by hand: a regex for it is polynomial on unclosed brackets). */
function unwrapLinks(text: string): string {
  let result = '';
  let from = 0;
  for (;;) {
    const middle = text.indexOf('](', from);
    if (middle < 0) return result + text.slice(from);
    const open = text.lastIndexOf('[', middle);
    const close = text.indexOf(')', middle + 2);
    const label = open >= from ? text.slice(open + 1, middle) : '';
    if (open < from || close < 0 || label.length > maxLinkTextLength || label.includes('\n') || text.slice(middle + 2, close).includes('\n')) {
      result += text.slice(from, middle + 2);
      from = middle + 2;
      continue;
    }
    result += text.slice(from, open) + label;
    from = close + 1;
  }
}

/** Removes URLs and any source list the model wrote, then renumbers `[n]` markers by first use. */
export function renumberMarkers(answer: string, numbering: CitationNumbering): string {
  const withoutUrls = unwrapLinks(beforeSourceList(answer)).replace(typedUrl, '');
  return withoutUrls
    .replace(marker, (_whole, list: string) => {
      const numbers = list
        .split(',')
        .map((part) => numbering.numberFor(Number(part.trim()) - 1))
        .filter((value): value is number => value !== undefined);
      return [...new Set(numbers)].map((value) => `[${value}]`).join('');
    })
    .split('\n')
    .map((line) => line.replace(/ {2,}/g, ' ').trimEnd())
    .join('\n')
    .trim();
}
