import { MessageReferenceType, type Message } from 'discord.js';
import { cutAtGrapheme } from '../../src/shared/grapheme-cut.js';
import { maxQuotedChars, type QuotedMessage } from '../../src/shared/types.js';
import { discordAttachmentOf } from './inbound.js';

// The message a Discord reply refers to (docs/architecture.md, "Quoted messages"). The gateway sends it with the
// reply (`referenced_message`, which discord.js caches); otherwise it is fetched once, bounded in time. A reply to
// a message that was deleted or cannot be read is `unknown`. Forwards are not replies.

/** How long fetching the referenced message may take before the question goes on without it. */
const fetchBoundMs = 5_000;

async function referencedMessage(message: Message): Promise<Message> {
  const id = message.reference?.messageId;
  const cached = id === undefined ? undefined : message.channel.messages.cache.get(id);
  if (cached) return cached;
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error('discord: fetching the referenced message took too long')), fetchBoundMs);
  });
  try {
    return await Promise.race([message.fetchReference(), bound]);
  } finally {
    clearTimeout(timer);
  }
}

export async function quotedOf(message: Message, botUserId: string): Promise<QuotedMessage | undefined> {
  const reference = message.reference;
  if (!reference?.messageId || reference.type === MessageReferenceType.Forward) return undefined;
  let referenced: Message;
  try {
    referenced = await referencedMessage(message);
  } catch {
    return { state: 'unknown' };
  }
  const channelId = referenced.channelId;
  return {
    state: 'known',
    author: referenced.member?.displayName ?? referenced.author.displayName,
    byBot: referenced.author.id === botUserId,
    text: cutAtGrapheme(referenced.content, maxQuotedChars),
    attachments: [...referenced.attachments.values()].map((attachment) =>
      discordAttachmentOf(attachment, { kind: 'message', id: `${channelId}:${referenced.id}:${attachment.id}` }),
    ),
    sentAt: referenced.createdAt,
  };
}
