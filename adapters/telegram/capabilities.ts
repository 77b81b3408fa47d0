import type { PlatformCapabilities } from '../../src/shared/channel.js';
import type { ReplyShape } from '../format/index.js';
import { telegramRenderer } from './render.js';

// Telegram's limits: 4,096 characters a message (after entity parsing), documents up to 50 MB, an edited status
// message for progress.

export const telegramCapabilities: PlatformCapabilities = {
  maxTextChars: 4096,
  maxMessagesPerReply: Number.POSITIVE_INFINITY,
  markup: 'html',
  typingIndicator: true,
  canEdit: true,
  sendsFiles: true,
};

/** What Telegram answers are shaped to (adapters/format/index.ts). */
export const telegramReplyShape: ReplyShape = { renderer: telegramRenderer, capabilities: telegramCapabilities };
