import type { InboundMessage } from '../../src/shared/types.js';

// Where the answer to a stored message goes, read back from the message alone (after a restart the update is
// gone): the chat and forum topic from `telegram:<chat>[:<topic>]`, the replied-to id from `<chat>:<message_id>`
// (both as inbound.ts writes them).

export interface ReplyTarget {
  chatId: number;
  /** The forum topic, when the conversation is one. */
  threadId?: number;
  /** In groups, the user's message the answer replies to; direct chats get no reply quote. */
  replyToMessageId?: number;
}

const conversationKey = /^telegram:(-?\d{1,20})(?::(\d{1,12}))?$/;
const messageId = /^-?\d{1,20}:(\d{1,12})$/;

export function replyTargetOf(message: Pick<InboundMessage, 'conversationKey' | 'messageId' | 'chatKind'>): ReplyTarget {
  const conversation = conversationKey.exec(message.conversationKey);
  if (!conversation?.[1]) throw new Error(`not a Telegram conversation key: ${message.conversationKey}`);
  const target: ReplyTarget = { chatId: Number(conversation[1]) };
  if (conversation[2] !== undefined) target.threadId = Number(conversation[2]);
  const replied = messageId.exec(message.messageId)?.[1];
  if (message.chatKind === 'group' && replied !== undefined) target.replyToMessageId = Number(replied);
  return target;
}
