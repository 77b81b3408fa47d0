import type { Chat, Message, MessageEntity } from 'telegraf/types';
import type { Attachment, InboundMessage, Sender, UnreadableKind } from '../../src/shared/types.js';
import { addressing, type BotIdentity } from './addressing.js';
import { documentAttachment, photoAttachment } from './attachments.js';
import { personName, quotedOf } from './quoted.js';

// One Telegram message → the InboundMessage every platform produces (docs/architecture.md, "Data flow of one
// message", step 1). Pass only `update.message`: edits, channel posts and service messages are not questions.

export type { BotIdentity } from './addressing.js';

export interface NormalizeOptions {
  /** The image cap of the core (MAX_IMAGE_BYTES): the photo size chosen is the largest under it. */
  maxImageBytes: number;
}

interface Content {
  text: string;
  entities: readonly MessageEntity[];
  attachments: Attachment[];
  unreadable?: UnreadableKind;
}

/**
 * Media the assistant cannot take in, answered with what it can read when sent to it. `animation` comes before any
 * `document` check: the Bot API sets `document` on an animation too (a GIF or silent MP4: a video here).
 */
function unreadableOf(message: Message): UnreadableKind | undefined {
  if ('voice' in message) return 'voice';
  if ('audio' in message) return 'audio';
  if ('video' in message || 'video_note' in message || 'animation' in message) return 'video';
  if ('sticker' in message) return 'sticker';
  return undefined;
}

function captionOf(message: Message, attachments: Attachment[]): Content {
  const caption = 'caption' in message ? message.caption : undefined;
  const captionEntities = 'caption_entities' in message ? message.caption_entities : undefined;
  return { text: caption ?? '', entities: captionEntities ?? [], attachments };
}

function contentOf(message: Message, options: NormalizeOptions): Content | undefined {
  if ('text' in message) return { text: message.text, entities: message.entities ?? [], attachments: [] };
  const unreadable = unreadableOf(message);
  // Its caption, if any, is still a question (a sticker has none).
  if (unreadable) return { ...captionOf(message, []), unreadable };
  const attachments: Attachment[] = [];
  if ('photo' in message) {
    const photo = photoAttachment(message.photo, options.maxImageBytes);
    if (photo) attachments.push(photo);
  } else if ('document' in message) {
    attachments.push(documentAttachment(message.document));
  }
  // Polls, locations, service messages…: nothing the assistant can read or needs to answer.
  if (attachments.length === 0) return undefined;
  return captionOf(message, attachments);
}

function chatTitle(chat: Chat): string | undefined {
  return 'title' in chat ? chat.title : undefined;
}

/**
 * Who wrote it, or undefined when it is not to be answered. An anonymous admin posts as GroupAnonymousBot with
 * `sender_chat` = the group: getChatMember cannot resolve it, and only admins can post so (docs/platforms.md §2.2), so it
 * counts as an admin; its id is the group's, since every anonymous admin shares the one bot user id. A member
 * posting as a channel is that channel, not an admin. Other bots are ignored (Telegram hides bots from each other
 * in groups anyway; in a direct chat a bot cannot write to a bot).
 */
function senderOf(message: Message): Sender | undefined {
  const signature = 'author_signature' in message ? message.author_signature : undefined;
  if (message.sender_chat) {
    const name = signature ?? chatTitle(message.sender_chat) ?? String(message.sender_chat.id);
    return { id: String(message.sender_chat.id), name, isPlatformAdmin: message.sender_chat.id === message.chat.id };
  }
  if (!message.from || message.from.is_bot) return undefined;
  return { id: String(message.from.id), name: personName(message.from), isPlatformAdmin: false };
}

/** A reply to the bot's own message; in a forum topic, a message "replies" to the topic's creation, which is no reply. */
function repliesTo(message: Message, bot: BotIdentity): boolean {
  const replied = 'reply_to_message' in message ? message.reply_to_message : undefined;
  if (!replied || 'forum_topic_created' in replied) return false;
  return replied.from?.id === bot.id;
}

/** The forum topic a message belongs to; replies in ordinary supergroups also carry a thread id, which is no topic. */
function topicOf(message: Message): number | undefined {
  const forum = message.chat.type === 'supergroup' && message.chat.is_forum === true;
  return forum && message.is_topic_message === true ? message.message_thread_id : undefined;
}

export function normalizeTelegramMessage(message: Message, bot: BotIdentity, options: NormalizeOptions): InboundMessage | undefined {
  if (message.chat.type === 'channel') return undefined;
  if ('is_automatic_forward' in message && message.is_automatic_forward === true) return undefined;
  const sender = senderOf(message);
  const content = contentOf(message, options);
  if (!sender || !content) return undefined;
  const chatId = String(message.chat.id);
  const topic = topicOf(message);
  const addressed = addressing(content.text, content.entities, bot);
  const quoted = quotedOf(message, bot, options);
  return {
    platform: 'telegram',
    conversationKey: topic === undefined ? `telegram:${chatId}` : `telegram:${chatId}:${topic}`,
    spaceKey: `telegram:${chatId}`,
    // Message ids are counted per chat.
    messageId: `${chatId}:${message.message_id}`,
    chatKind: message.chat.type === 'private' ? 'direct' : 'group',
    sender,
    text: addressed.text,
    mentionsBot: addressed.mentionsBot,
    repliesToBot: repliesTo(message, bot),
    attachments: content.attachments,
    receivedAt: new Date(message.date * 1000),
    ...(quoted ? { quoted } : {}),
    ...(content.unreadable ? { unreadable: content.unreadable } : {}),
  };
}

/** The album (media group) a message belongs to, if any. */
export function mediaGroupOf(message: Message): string | undefined {
  return 'media_group_id' in message ? message.media_group_id : undefined;
}

export interface ChatMigration {
  from: number;
  to: number;
}

/**
 * A group upgraded to a supergroup gets a new chat id: Telegram sends `migrate_to_chat_id` in the old chat and
 * `migrate_from_chat_id` in the new one. State keyed by the old id (bound knowledge bases, history) moves to the new.
 */
export function migrationOf(message: Message): ChatMigration | undefined {
  if ('migrate_to_chat_id' in message) return { from: message.chat.id, to: message.migrate_to_chat_id };
  if ('migrate_from_chat_id' in message) return { from: message.migrate_from_chat_id, to: message.chat.id };
  return undefined;
}
