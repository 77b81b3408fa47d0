import type { Citation } from '../../../src/types.js';

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
const emptyLink = /\[([^\]\n]{1,200})\]\(\s{0,8}\)/g;
const sourceHeading = /^\s{0,3}(?:#{1,6}\s{0,3})?\**(?:sources|references|แหล่งที่มา|แหล่งอ้างอิง|อ้างอิง)\**\s{0,3}:?\**\s{0,3}$/im;
const marker = /\[(\d{1,3}(?:\s{0,2},\s{0,2}\d{1,3}){0,9})\]/g;

/** Removes URLs and any source list the model wrote, then renumbers `[n]` markers by first use. */
export function renumberMarkers(answer: string, numbering: CitationNumbering): string {
  const heading = sourceHeading.exec(answer);
  const body = heading ? answer.slice(0, heading.index) : answer;
  const withoutUrls = body.replace(typedUrl, '').replace(emptyLink, '$1');
  return withoutUrls
    .replace(marker, (_whole, list: string) => {
      const numbers = list
        .split(',')
        .map((part) => numbering.numberFor(Number(part.trim()) - 1))
        .filter((value): value is number => value !== undefined);
      return [...new Set(numbers)].map((value) => `[${value}]`).join('');
    })
    .replace(/[ \t]+\n/g, '\n')
    .replace(/[ \t]{2,}/g, ' ')
    .trim();
}
