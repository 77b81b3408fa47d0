import type { PlatformCapabilities } from '../../src/shared/channel.js';
import { parseMarkdown } from './markdown.js';
import type { PlatformRenderer } from './renderer.js';
import { splitMarked, type Part } from './split.js';

// The rendering face every chat adapter uses: the agent's Markdown, parsed once, rendered by the adapter's own
// renderer (adapters/<platform>/render.ts) and split after rendering into parts that each fit one message of its
// `capabilities.maxTextChars`. How many parts a reply may take is the same on every platform (reply-cap.ts: five,
// the rest as a file where the platform sends files, else cut). Lengths are measured in UTF-16 code units, which
// is what Telegram counts and never less than a count of code points (Discord and LINE count the whole string).

/** What the answer is shaped to: the adapter's renderer and the capabilities it declares. */
export interface ReplyShape {
  renderer: PlatformRenderer;
  capabilities: Pick<PlatformCapabilities, 'maxTextChars' | 'maxMessagesPerReply' | 'sendsFiles'>;
}

/** The whole answer rendered for a platform, before splitting. */
export function renderWhole(markdown: string, renderer: PlatformRenderer): string {
  return renderer.render(parseMarkdown(markdown));
}

/** A rendered answer in parts of at most `limit`, with the markup each part reopened and closed. */
export function splitRendered(rendered: string, shape: ReplyShape, limit = shape.capabilities.maxTextChars): Part[] {
  return splitMarked(shape.renderer.read(rendered), { limit, serialize: shape.renderer.serialize });
}

/** The agent's Markdown as the messages to send, in order; none when the answer is empty. */
export function renderForPlatform(markdown: string, shape: ReplyShape, limit = shape.capabilities.maxTextChars): string[] {
  return splitRendered(renderWhole(markdown, shape.renderer), shape, limit).map((part) => part.text);
}

/** The rendered answer and the measured text it was split from (for the rest of a capped reply). */
export function splitForPlatform(markdown: string, shape: ReplyShape, maxParts?: number): { parts: Part[]; text: string } {
  const { renderer, capabilities } = shape;
  const source = renderer.read(renderWhole(markdown, renderer));
  const profile = { limit: capabilities.maxTextChars, serialize: renderer.serialize, ...(maxParts === undefined ? {} : { maxParts }) };
  return { parts: splitMarked(source, profile), text: source.text };
}

export type { Part } from './split.js';
export type { PlatformRenderer } from './renderer.js';
export { capReply, capConsoleText, maxMessagesPerReply, type CappedReply } from './reply-cap.js';
