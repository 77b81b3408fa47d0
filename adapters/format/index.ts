import { readDiscordMarkdown } from './discord-marks.js';
import { renderDiscordMarkdown } from './discord-markdown.js';
import { renderLineText } from './line-text.js';
import { parseMarkdown } from './markdown.js';
import { splitMarked, type MarkedText, type Part } from './split.js';
import { readTelegramHtml } from './telegram-marks.js';
import { escapeHtml, renderTelegramHtml } from './telegram-html.js';

// The rendering face every chat adapter uses: the agent's Markdown, parsed once, rendered for one platform and
// split after rendering into parts that each fit one message. How many parts a reply may take is the same on every
// platform (reply-cap.ts: five, the rest as a file or cut).

export type FormattedPlatform = 'telegram' | 'discord' | 'line';

/**
 * Longest text of one message. Telegram counts the text after entity parsing, Discord and LINE the whole string;
 * all are measured here in UTF-16 code units, which is what Telegram counts and never less than a count of
 * code points.
 */
export const messageTextLimits: Readonly<Record<FormattedPlatform, number>> = { telegram: 4096, discord: 2000, line: 5000 };

/** Messages one LINE reply token may carry. */
export const lineMessagesPerReply = 5;

/** The whole answer rendered for a platform, before splitting. */
export function renderWhole(markdown: string, platform: FormattedPlatform): string {
  const blocks = parseMarkdown(markdown);
  switch (platform) {
    case 'telegram':
      return renderTelegramHtml(blocks);
    case 'discord':
      return renderDiscordMarkdown(blocks);
    case 'line':
      return renderLineText(blocks);
  }
}

function read(rendered: string, platform: FormattedPlatform): MarkedText {
  switch (platform) {
    case 'telegram':
      return readTelegramHtml(rendered);
    case 'discord':
      return readDiscordMarkdown(rendered);
    case 'line':
      return { text: rendered, marks: [] };
  }
}

/** A rendered answer in parts of at most `limit`, with the markup each part reopened and closed. */
export function splitRendered(rendered: string, platform: FormattedPlatform, limit = messageTextLimits[platform]): Part[] {
  const serialize = platform === 'telegram' ? escapeHtml : (text: string): string => text;
  return splitMarked(read(rendered, platform), { limit, serialize });
}

/** The agent's Markdown as the messages to send on `platform`, in order; none when the answer is empty. */
export function renderForPlatform(markdown: string, platform: FormattedPlatform, limit = messageTextLimits[platform]): string[] {
  return splitRendered(renderWhole(markdown, platform), platform, limit).map((part) => part.text);
}

/** The rendered answer and the measured text it was split from (for the rest of a capped reply). */
export function splitForPlatform(markdown: string, platform: FormattedPlatform, maxParts?: number): { parts: Part[]; text: string } {
  const source = read(renderWhole(markdown, platform), platform);
  const serialize = platform === 'telegram' ? escapeHtml : (text: string): string => text;
  const limit = messageTextLimits[platform];
  return { parts: splitMarked(source, { limit, serialize, ...(maxParts === undefined ? {} : { maxParts }) }), text: source.text };
}

export type { Part } from './split.js';
export { capReply, capConsoleText, maxMessagesPerReply, type CappedReply } from './reply-cap.js';
export { renderTerminalText, type TerminalTextOptions } from './terminal-text.js';
