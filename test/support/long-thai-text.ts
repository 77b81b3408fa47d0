import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const fixture = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/knowledge/xquad.th.json');

/**
 * Real Thai prose (XQuAD passages, in order) of at least `minimumChars`, paragraphs joined by blank lines: long
 * answers that the repetition guard has no reason to cut, digits left out so the numbers guard has nothing to do.
 */
export function longThaiText(minimumChars: number): string {
  const dataset = JSON.parse(readFileSync(fixture, 'utf8')) as { data: { paragraphs: { context: string }[] }[] };
  const paragraphs: string[] = [];
  for (const passage of dataset.data.flatMap((article) => article.paragraphs)) {
    // The dataset's first passage starts with a byte-order mark, which no answer would carry.
    paragraphs.push(passage.context.replace(/[0-9๐-๙\uFEFF]/g, ''));
    if (paragraphs.join('\n\n').length >= minimumChars) break;
  }
  return paragraphs.join('\n\n');
}
