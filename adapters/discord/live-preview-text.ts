import { escapeMarkdown } from '../../src/shared/markdown.js';
import { renderForPlatform } from '../format/index.js';
import { discordCapabilities, discordReplyShape } from './capabilities.js';

// What a live answer's message says (docs/architecture.md, "Streaming answers"): the answer so far in Discord
// Markdown, cut to one message with "…" when it is longer, and the running step's status in italics below it.

const ellipsis = '…';

/** Only this much of the answer is rendered for a preview: one message never shows more, however long it grows. */
const renderedSourceChars = 4 * discordCapabilities.maxTextChars;

/** The start of `text`, at most `length` UTF-16 units, never half a surrogate pair. */
function head(text: string, length: number): string {
  if (text.length <= length) return text;
  const last = text.charCodeAt(length - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? length - 1 : length);
}

/** One Discord message of at most 2,000 characters; empty when there is nothing to show. */
export function livePreviewText(markdown: string, status?: string): string {
  const statusLine = status === undefined ? '' : `*${escapeMarkdown(status)}*`;
  const statusSize = statusLine === '' ? 0 : statusLine.length + 2;
  const source = head(markdown, renderedSourceChars);
  const parts = markdown.trim() === '' ? [] : renderForPlatform(source, discordReplyShape, discordCapabilities.maxTextChars - ellipsis.length - 1 - statusSize);
  const first = parts[0] ?? '';
  const cut = parts.length > 1 || source.length < markdown.length;
  // A part that ends with a code fence keeps it on its own line.
  const body = cut ? `${first}${first.endsWith('```') ? '\n' : ''}${ellipsis}` : first;
  return [body, statusLine].filter((piece) => piece !== '').join('\n\n');
}
