import { MessageFlags, MessageType, PermissionFlagsBits, type Attachment as DiscordAttachment, type Message } from 'discord.js';
import type { Attachment, InboundMessage, UnreadableKind } from '../../src/shared/types.js';
import { stripBotMentions } from './addressing.js';

// One Discord message → the InboundMessage every platform produces (docs/architecture.md, "Data flow of one
// message", step 1). Conversations: one per channel, and a thread is a channel of its own (its own history); a DM
// is its channel. Space: the guild, or in a DM the user. Addressed (docs/platforms.md §1.2): the bot's user mention, a
// mention of its managed role, or a reply to one of its messages even with the ping turned off; `@everyone` alone
// is not.

/** Default and Reply are what people write; joins, pins, boosts and thread notices are not questions. */
const questionTypes = new Set<MessageType>([MessageType.Default, MessageType.Reply]);

export function discordAttachmentOf(attachment: DiscordAttachment, reference: Attachment['reference']): Attachment {
  const mime = attachment.contentType?.split(';')[0]?.trim() || 'application/octet-stream';
  return { kind: mime.startsWith('image/') ? 'image' : 'file', mime, name: attachment.name, size: attachment.size, reference };
}

const isMedia = (attachment: Attachment): boolean => attachment.mime.startsWith('audio/') || attachment.mime.startsWith('video/');

/**
 * Media the assistant cannot take in (a voice message is an audio attachment with the IsVoiceMessage flag), when the
 * message carried nothing readable: addressed to the bot, it is told what the bot can read.
 */
function unreadableOf(message: Message, attachments: readonly Attachment[]): UnreadableKind | undefined {
  if (attachments.some((attachment) => !isMedia(attachment))) return undefined;
  if (message.flags.has(MessageFlags.IsVoiceMessage)) return 'voice';
  if (attachments.some((attachment) => attachment.mime.startsWith('audio/'))) return 'audio';
  if (attachments.some((attachment) => attachment.mime.startsWith('video/'))) return 'video';
  return message.stickers.size > 0 ? 'sticker' : undefined;
}

export function normalizeDiscordMessage(message: Message, botUserId: string): InboundMessage | undefined {
  if (message.author.bot || message.system || !questionTypes.has(message.type)) return undefined;
  const guild = message.guild;
  const roleId = guild?.members.me?.roles.botRole?.id;
  const mentionsBot = message.mentions.users.has(botUserId) || (roleId !== undefined && message.mentions.roles.has(roleId));
  const channelId = message.channelId;
  // CDN links are signed and expire: the download asks for the message again for fresh ones (download.ts).
  const all = [...message.attachments.values()].map((attachment) =>
    discordAttachmentOf(attachment, { kind: 'message', id: `${channelId}:${message.id}:${attachment.id}` }),
  );
  const unreadable = unreadableOf(message, all);
  // Audio and video are not documents either: they stay out of the attachments (and of a later /kb add).
  const attachments = all.filter((attachment) => !isMedia(attachment));
  return {
    platform: 'discord',
    conversationKey: `discord:${channelId}`,
    spaceKey: guild ? `discord:${guild.id}` : `discord:user:${message.author.id}`,
    messageId: `${channelId}:${message.id}`,
    chatKind: guild ? 'group' : 'direct',
    sender: {
      id: message.author.id,
      name: message.member?.displayName ?? message.author.displayName,
      // Manage Server, as the slash commands' default gate; checked on every command (the core's admin check).
      isPlatformAdmin: message.member?.permissions.has(PermissionFlagsBits.ManageGuild) ?? false,
    },
    text: stripBotMentions(message.content, { userId: botUserId, roleId }),
    mentionsBot,
    repliesToBot: message.mentions.repliedUser?.id === botUserId,
    attachments,
    receivedAt: message.createdAt,
    ...(unreadable ? { unreadable } : {}),
  };
}
