import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Part } from '../../../adapters/format/index.js';
import { messageTextLimits, renderWhole, splitRendered } from './by-platform.js';
import { markdownDocument } from './markdown-arbitrary.js';
import { telegramVisibleText } from '../telegram/html-validator.js';

// For any generated answer (Thai and English, tables, nested lists, long code blocks), every part is valid for
// its platform's parser and within its limit, no cut falls inside a grapheme, and the parts give back the whole.

const seed = 20_240_611;
const numRuns = 25;
const graphemes = new Intl.Segmenter('th', { granularity: 'grapheme' });

function graphemeStarts(text: string): Set<number> {
  // A loop, not a spread: keeping every segment object alive makes V8 many times slower.
  const starts = new Set<number>();
  for (const { index } of graphemes.segment(text)) starts.add(index);
  return starts;
}

/** Where each part but the last ends, as offsets into the concatenation of `pieces`. */
function cutOffsets(pieces: readonly string[]): number[] {
  const offsets: number[] = [];
  let offset = 0;
  for (const piece of pieces.slice(0, -1)) offsets.push((offset += piece.length));
  return offsets;
}

function expectWholeBack(parts: readonly Part[], rendered: string): void {
  for (const part of parts) expect(part.text).toBe(part.reopened + part.body + part.closed);
  expect(parts.map((part) => part.body).join('')).toBe(rendered);
}

function expectCutsBetweenGraphemes(pieces: readonly string[], whole: string): void {
  const starts = graphemeStarts(whole);
  for (const offset of cutOffsets(pieces)) expect(starts.has(offset), `cut at ${offset} inside a grapheme`).toBe(true);
}

const fenceLine = /^(?:> )?```/;

/**
 * Outside code fences and code spans, the unescaped `*` and `~` of a Discord part: emphasis that was cut and not
 * closed leaves an odd count of one of them (1 or 2 returned; 0 when both are even).
 */
function oddMarkers(part: string): number {
  let stars = 0;
  let tildes = 0;
  let inFence = false;
  for (const line of part.split('\n')) {
    if (fenceLine.test(line)) {
      inFence = !inFence;
      continue;
    }
    if (inFence) continue;
    for (let index = 0; index < line.length; index += 1) {
      const character = line[index];
      if (character === '\\') index += 1;
      else if (character === '`') {
        let run = 1;
        while (line[index + run] === '`') run += 1;
        const end = line.indexOf('`'.repeat(run), index + run);
        index = end === -1 ? line.length : end + run - 1;
      } else if (character === '*') stars += 1;
      else if (character === '~') tildes += 1;
    }
  }
  return (stars % 2) + (tildes % 2);
}

describe('splitting rendered answers (properties)', () => {
  it('Telegram: every part is valid HTML for Telegram within its visible limit, and the visible text comes back whole', () => {
    fc.assert(
      fc.property(markdownDocument, fc.constantFrom(messageTextLimits.telegram, 300), (markdown, limit) => {
        const rendered = renderWhole(markdown, 'telegram');
        const wholeVisible = telegramVisibleText(rendered);
        const parts = splitRendered(rendered, 'telegram', limit);
        const visible = parts.map((part) => telegramVisibleText(part.text));
        for (const text of visible) {
          expect(text.length).toBeLessThanOrEqual(limit);
          expect(text.trim()).not.toBe('');
        }
        expect(visible.join('')).toBe(wholeVisible);
        expectWholeBack(parts, rendered);
        expectCutsBetweenGraphemes(visible, wholeVisible);
      }),
      { seed, numRuns },
    );
  });

  it('Discord: every part fits 2000 characters with balanced code fences and emphasis, and the parts give back the whole', () => {
    fc.assert(
      fc.property(markdownDocument, fc.constantFrom(messageTextLimits.discord, 200), (markdown, limit) => {
        const rendered = renderWhole(markdown, 'discord');
        const parts = splitRendered(rendered, 'discord', limit);
        for (const part of parts) {
          expect(part.text.length).toBeLessThanOrEqual(limit);
          expect(part.text.trim()).not.toBe('');
          const fences = part.text.split('\n').filter((line) => fenceLine.test(line));
          expect(fences.length % 2, `unbalanced fences in ${JSON.stringify(part.text)}`).toBe(0);
          expect(part.reopened).toMatch(/^(?:(?:\*\*|\*|~~)*(?:> )?```[\w+#.-]*\n)?(?:\*\*|\*|~~)*$/);
          expect(part.closed).toMatch(/^(?:\*\*|\*|~~)*(?:\n?(?:> )?```)?$/);
          expect(oddMarkers(part.text), `unbalanced emphasis in ${JSON.stringify(part.text)}`).toBe(0);
        }
        expectWholeBack(parts, rendered);
        expectCutsBetweenGraphemes(
          parts.map((part) => part.body),
          rendered,
        );
      }),
      { seed, numRuns },
    );
  });

  it('LINE: every part fits 5000 characters with no Markdown marker left, and the parts concatenate to the whole', () => {
    fc.assert(
      fc.property(markdownDocument, fc.constantFrom(messageTextLimits.line, 400), (markdown, limit) => {
        const rendered = renderWhole(markdown, 'line');
        expect(rendered).not.toMatch(/\*\*|__|~~|```|\]\(/);
        expect(rendered).not.toMatch(/^(?:#{1,6} |[-*+] |> |\|)/m);
        const parts = splitRendered(rendered, 'line', limit);
        for (const part of parts) {
          expect(part.text.length).toBeLessThanOrEqual(limit);
          expect(part.text.trim()).not.toBe('');
          expect(part.reopened + part.closed).toBe('');
        }
        expect(parts.map((part) => part.text).join('')).toBe(rendered);
        expectCutsBetweenGraphemes(
          parts.map((part) => part.text),
          rendered,
        );
      }),
      { seed, numRuns },
    );
  });
});
