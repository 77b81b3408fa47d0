import { discordReplyShape } from '../../../adapters/discord/capabilities.js';
import * as format from '../../../adapters/format/index.js';
import type { CappedReply, Part, ReplyShape } from '../../../adapters/format/index.js';
import { lineReplyShape } from '../../../adapters/line/capabilities.js';
import { telegramReplyShape } from '../../../adapters/telegram/capabilities.js';
import type { Language } from '../../../src/shared/types.js';

// The rendering pipeline by platform name, over each adapter's own renderer and capabilities: the tests that
// compare the three platforms on one answer read as one table.

export const shapes = { telegram: telegramReplyShape, discord: discordReplyShape, line: lineReplyShape } satisfies Record<string, ReplyShape>;
export type FormattedPlatform = keyof typeof shapes;

export const messageTextLimits: Readonly<Record<FormattedPlatform, number>> = {
  telegram: shapes.telegram.capabilities.maxTextChars,
  discord: shapes.discord.capabilities.maxTextChars,
  line: shapes.line.capabilities.maxTextChars,
};

export function renderWhole(markdown: string, platform: FormattedPlatform): string {
  return format.renderWhole(markdown, shapes[platform].renderer);
}

export function splitRendered(rendered: string, platform: FormattedPlatform, limit?: number): Part[] {
  return format.splitRendered(rendered, shapes[platform], limit);
}

export function renderForPlatform(markdown: string, platform: FormattedPlatform, limit?: number): string[] {
  return format.renderForPlatform(markdown, shapes[platform], limit);
}

export function capReply(markdown: string, platform: FormattedPlatform, options: { language: Language; maxMessages?: number }): CappedReply {
  return format.capReply(markdown, shapes[platform], options);
}
