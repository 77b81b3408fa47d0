import type { PlatformCapabilities } from '../../src/shared/channel.js';
import type { ReplyShape } from '../format/index.js';
import { lineRenderer } from './render.js';

// LINE's limits: 5,000 characters a bubble, five bubbles per reply token, no files from a bot, no edits.

export const lineCapabilities: PlatformCapabilities = {
  maxTextChars: 5000,
  maxMessagesPerReply: 5,
  markup: 'plain',
  typingIndicator: true,
  canEdit: false,
  sendsFiles: false,
};

/** What LINE answers are shaped to (adapters/format/index.ts). */
export const lineReplyShape: ReplyShape = { renderer: lineRenderer, capabilities: lineCapabilities };
