import { renderWhole } from '../format/index.js';
import { splitMarked } from '../format/split.js';
import { stepStatusText } from '../../src/shared/step-labels.js';
import type { Language, TurnStep } from '../../src/shared/types.js';
import { telegramCapabilities } from './capabilities.js';
import { telegramRenderer } from './render.js';
import type { RenderedPart } from './delivery.js';

// What a live answer shows (docs/architecture.md, "Streaming answers"): the preview's Markdown as Telegram HTML, cut
// to what one message holds (the final reply's part 0 is one message too) with "…" when there is more, and the
// status of a running step in italics, below the text shown so far.

const more = '…';

/** The preview as one message's HTML; `reserve` characters are kept free for a status line. Undefined when empty. */
export function previewPart(markdown: string, reserve = 0): RenderedPart | undefined {
  const limit = telegramCapabilities.maxTextChars - reserve - more.length;
  const source = telegramRenderer.read(renderWhole(markdown, telegramRenderer));
  if (source.text.trim() === '') return undefined;
  const [first, second] = splitMarked(source, { limit, maxParts: 2, serialize: telegramRenderer.serialize });
  if (!first) return undefined;
  return { text: second ? `${first.text}${telegramRenderer.serialize(more)}` : first.text, parseMode: 'HTML' };
}

/** The step's status (`กำลังค้นเว็บ…`) in italics, under the text shown so far when there is some. */
export function statusPart(step: TurnStep, language: Language, shownMarkdown: string | undefined): RenderedPart {
  const status = stepStatusText(step, language);
  const line = `<i>${telegramRenderer.serialize(status)}</i>`;
  const above = shownMarkdown === undefined ? undefined : previewPart(shownMarkdown, status.length + 2);
  return { text: above ? `${above.text}\n\n${line}` : line, parseMode: 'HTML' };
}
