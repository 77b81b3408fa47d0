import type { PlatformCapabilities } from '../../src/shared/channel.js';
import type { ReplyShape } from '../format/index.js';
import { discordRenderer } from './render.js';

// Discord's limits: 2,000 characters a message, attachments, an edited status message (or the deferred slash-command
// reply) for progress.

export const discordCapabilities: PlatformCapabilities = {
  maxTextChars: 2000,
  maxMessagesPerReply: Number.POSITIVE_INFINITY,
  markup: 'markdown',
  typingIndicator: true,
  canEdit: true,
  sendsFiles: true,
};

/** What Discord answers are shaped to (adapters/format/index.ts). */
export const discordReplyShape: ReplyShape = { renderer: discordRenderer, capabilities: discordCapabilities };
