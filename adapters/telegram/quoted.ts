import type { Message, MessageOriginChannel, MessageOriginChat, MessageOriginHiddenUser, MessageOriginUser, PhotoSize, User } from 'telegraf/types';
import { cutAtGrapheme } from '../../src/shared/grapheme-cut.js';
import { maxQuotedChars, type Attachment, type QuotedMessage } from '../../src/shared/types.js';
import type { BotIdentity } from './addressing.js';
import { documentAttachment, photoAttachment } from './attachments.js';

// The message a Telegram message replies to (docs/architecture.md, "Quoted messages"): `reply_to_message` in the
// same chat (its text or caption, photo, document), or `external_reply` for a message of another chat; a `quote`
// (the part the user selected) is the text when there is one. Telegram sends the replied message whole with the
// update, so nothing is fetched. A forum topic's messages "reply" to the topic's creation, which is no quote.

export interface QuotedOptions {
  maxImageBytes: number;
}

export function personName(person: User): string {
  const full = [person.first_name, person.last_name].filter((part) => part !== undefined && part !== '').join(' ');
  return full || person.username || String(person.id);
}

function originName(origin: MessageOriginUser | MessageOriginHiddenUser | MessageOriginChat | MessageOriginChannel): string {
  if (origin.type === 'user') return personName(origin.sender_user);
  if (origin.type === 'hidden_user') return origin.sender_user_name;
  const chat = origin.type === 'chat' ? origin.sender_chat : origin.chat;
  return origin.author_signature ?? ('title' in chat ? chat.title : '');
}

interface QuotedParts {
  text?: string;
  caption?: string;
  photo?: readonly PhotoSize[];
  document?: Parameters<typeof documentAttachment>[0];
}

function attachmentsOf(parts: QuotedParts, options: QuotedOptions): Attachment[] {
  const photo = parts.photo ? photoAttachment(parts.photo, options.maxImageBytes) : undefined;
  return [...(photo ? [photo] : []), ...(parts.document ? [documentAttachment(parts.document)] : [])];
}

export function quotedOf(message: Message, bot: BotIdentity, options: QuotedOptions): QuotedMessage | undefined {
  const selected = 'quote' in message ? message.quote?.text : undefined;
  const replied = 'reply_to_message' in message ? message.reply_to_message : undefined;
  if (replied && !('forum_topic_created' in replied)) {
    const parts = replied as QuotedParts;
    const author = replied.from ? personName(replied.from) : replied.sender_chat && 'title' in replied.sender_chat ? replied.sender_chat.title : '';
    return {
      state: 'known',
      author,
      byBot: replied.from?.id === bot.id,
      text: cutAtGrapheme(selected ?? parts.text ?? parts.caption ?? '', maxQuotedChars),
      attachments: attachmentsOf(parts, options),
      sentAt: new Date(replied.date * 1000),
    };
  }
  const external = 'external_reply' in message ? message.external_reply : undefined;
  if (!external) return undefined;
  return {
    state: 'known',
    author: originName(external.origin),
    byBot: false,
    text: cutAtGrapheme(selected ?? '', maxQuotedChars),
    attachments: attachmentsOf(external as QuotedParts, options),
  };
}
