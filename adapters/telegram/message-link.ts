import type { InboundMessage } from '../../src/shared/types.js';

// A link to a message in a Telegram supergroup (its id is -100 followed by the channel id): t.me/c/<id>/<message>,
// with the topic in between for a forum topic's message. Basic groups and private chats have no message links.

type Linked = Pick<InboundMessage, 'spaceKey' | 'conversationKey' | 'messageId' | 'chatKind'>;

export function telegramMessageLink(message: Linked): string | undefined {
  const chat = /^telegram:-100(\d{1,20})$/.exec(message.spaceKey)?.[1];
  const id = /:(\d{1,12})$/.exec(message.messageId)?.[1];
  if (message.chatKind !== 'group' || chat === undefined || id === undefined) return undefined;
  const topic = /^telegram:-?\d{1,25}:(\d{1,12})$/.exec(message.conversationKey)?.[1];
  return topic === undefined ? `https://t.me/c/${chat}/${id}` : `https://t.me/c/${chat}/${topic}/${id}`;
}
