import { parseInboundMessage } from '../shared/inbound-message-schema.js';
import type { InboundMessage } from '../shared/types.js';

// The request message a reminder keeps, so that when it is due the adapter that received it answers in the same
// chat (`PlatformAdapter.responderFor`: Telegram and Discord reply to it, LINE pushes to the chat). Kept small and
// without credentials: no reply token (a credential, expired by then anyway), no attachments, no quoted message.

/** The request text kept with the origin (the reminder's own text is stored apart). */
const originTextChars = 500;

export function reminderOrigin(message: InboundMessage): string {
  const origin: InboundMessage = {
    platform: message.platform,
    conversationKey: message.conversationKey,
    spaceKey: message.spaceKey,
    messageId: message.messageId,
    chatKind: message.chatKind,
    sender: message.sender,
    text: message.text.slice(0, originTextChars),
    mentionsBot: message.mentionsBot,
    repliesToBot: message.repliesToBot,
    attachments: [],
    receivedAt: message.receivedAt,
  };
  return JSON.stringify(origin);
}

/** The stored origin read back; undefined when it is not a message (stored data is untrusted). */
export function parseReminderOrigin(stored: string): InboundMessage | undefined {
  try {
    return parseInboundMessage(JSON.parse(stored));
  } catch {
    return undefined;
  }
}

/**
 * The origin in the space the reminder is in now: a space that moved (a Telegram group became a supergroup) has a new
 * key, so its conversation key changes with it, and the request message stayed behind in the old chat (no reply to it).
 */
export function originInSpace(origin: InboundMessage, spaceKey: string): InboundMessage {
  if (origin.spaceKey === spaceKey) return origin;
  const rest = origin.conversationKey.startsWith(origin.spaceKey) ? origin.conversationKey.slice(origin.spaceKey.length) : '';
  return { ...origin, spaceKey, conversationKey: `${spaceKey}${rest}`, messageId: `${origin.messageId}-moved` };
}
