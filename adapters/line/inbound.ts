import type { webhook } from '@line/bot-sdk';
import type { Attachment, InboundMessage, QuotedMessage, Sender, UnreadableKind } from '../../src/shared/types.js';
import type { SeenLineMessage } from './message-store.js';
import { lineAddressing } from './addressing.js';

// LINE webhook events → the InboundMessage every platform produces (docs/architecture.md, "Data flow of one
// message", step 1; docs/platforms.md §3.2). One conversation per user, group or room, which is also the space. Images
// and files are messages of their own (no captions); the images of one `imageSet` in a batch become one message.
// Only content LINE holds (`contentProvider.type === 'line'`) is taken: an `external` image's URL is never fetched.

export interface LineNormalizeOptions {
  /** Whether a quoted message id is one of the bot's own messages (recorded when they were sent). */
  isBotMessage(messageId: string): Promise<boolean>;
  /** The message a text quotes, from the chat's store (message-store.ts). */
  quotedMessage(chatId: string, messageId: string): Promise<QuotedMessage>;
  /** How long a reply token is used before the answer is pushed instead (LINE_REPLY_WINDOW_MS). */
  replyWindowMs: number;
}

type MessageEvent = webhook.MessageEvent;

/** The chat's id: a user, group or room id (LINE ids carry their kind: U…, C…, R…). */
export function chatIdOf(source: webhook.Source | undefined): string | undefined {
  if (!source) return undefined;
  if (source.type === 'group') return (source as webhook.GroupSource).groupId;
  if (source.type === 'room') return (source as webhook.RoomSource).roomId;
  return (source as webhook.UserSource).userId;
}

/**
 * In groups the sender's userId can be missing (not a LINE app user): never an admin then, and the quota falls back
 * to the group. LINE has no group-admin API: only ADMIN_IDS are admins (the core's check).
 */
function senderOf(source: webhook.Source, chatId: string): Sender {
  const userId = 'userId' in source && typeof source.userId === 'string' ? source.userId : undefined;
  if (!userId) return { id: chatId, name: 'ผู้ใช้ LINE', isPlatformAdmin: false };
  // Profile names cost an API call per sender; the id's tail tells speakers apart in group context.
  return { id: userId, name: `ผู้ใช้ ${userId.slice(-4)}`, isPlatformAdmin: false };
}

function attachmentOf(message: webhook.MessageContent): Attachment | undefined {
  if (message.type === 'image') {
    const image = message as webhook.ImageMessageContent;
    if (image.contentProvider.type !== 'line') return undefined;
    return { kind: 'image', mime: 'image/jpeg', name: `${message.id}.jpg`, size: 0, reference: { kind: 'message', id: message.id } };
  }
  if (message.type === 'file') {
    const file = message as webhook.FileMessageContent;
    return { kind: 'file', mime: 'application/octet-stream', name: file.fileName, size: file.fileSize, reference: { kind: 'message', id: message.id } };
  }
  return undefined;
}

/** LINE message types the assistant cannot take in: addressed to the bot, it is told what it can read. */
const unreadableTypes: Readonly<Record<string, UnreadableKind>> = { audio: 'audio', video: 'video', sticker: 'sticker' };

async function normalizeOne(event: MessageEvent, options: LineNormalizeOptions): Promise<InboundMessage | undefined> {
  const chatId = chatIdOf(event.source);
  if (!chatId || !event.source) return undefined;
  const message = event.message;
  let text = '';
  let mentionsBot = false;
  let repliesToBot = false;
  let quoted: QuotedMessage | undefined;
  const attachments: Attachment[] = [];
  let unreadable: UnreadableKind | undefined;
  if (message.type === 'text') {
    const content = message as webhook.TextMessageContent;
    ({ text, mentionsBot } = lineAddressing(content.text, content.mention));
    repliesToBot = content.quotedMessageId !== undefined && (await options.isBotMessage(content.quotedMessageId));
    if (content.quotedMessageId !== undefined) quoted = await options.quotedMessage(chatId, content.quotedMessageId);
  } else if (Object.hasOwn(unreadableTypes, message.type)) {
    unreadable = unreadableTypes[message.type];
    // A sticker can quote the bot's message: that addresses it in a group (audio and video cannot quote).
    const stickerQuote = (message as webhook.StickerMessageContent).quotedMessageId;
    repliesToBot = stickerQuote !== undefined && (await options.isBotMessage(stickerQuote));
  } else {
    const attachment = attachmentOf(message);
    // Locations, external images…: nothing the assistant reads or needs to answer.
    if (!attachment) return undefined;
    attachments.push(attachment);
  }
  const quoteToken = 'quoteToken' in message && typeof message.quoteToken === 'string' ? message.quoteToken : undefined;
  return {
    platform: 'line',
    conversationKey: `line:${chatId}`,
    spaceKey: `line:${chatId}`,
    messageId: event.webhookEventId,
    chatKind: event.source.type === 'user' ? 'direct' : 'group',
    sender: senderOf(event.source, chatId),
    text,
    mentionsBot,
    repliesToBot,
    attachments,
    receivedAt: new Date(event.timestamp),
    ...(quoted ? { quoted } : {}),
    ...(unreadable ? { unreadable } : {}),
    ...(event.replyToken
      ? { replyToken: { value: event.replyToken, expiresAt: new Date(event.timestamp + options.replyWindowMs), ...(quoteToken ? { quoteToken } : {}) } }
      : {}),
  };
}

/** A message event as the quote store keeps it (message-store.ts); undefined for one that cannot be quoted usefully. */
export function seenOf(event: webhook.Event): { chatId: string; messageId: string; seen: SeenLineMessage } | undefined {
  if (event.type !== 'message') return undefined;
  const { message, source, timestamp } = event as MessageEvent;
  const chatId = chatIdOf(source);
  if (!chatId || !source) return undefined;
  const text = message.type === 'text' ? (message as webhook.TextMessageContent).text : '';
  const attachment = attachmentOf(message);
  if (text === '' && !attachment) return undefined;
  const seen: SeenLineMessage = { author: senderOf(source, chatId).name, byBot: false, text, sentAt: timestamp, ...(attachment ? { attachment } : {}) };
  return { chatId, messageId: message.id, seen };
}

function imageSetOf(event: MessageEvent): { id: string; index: number } | undefined {
  if (event.message.type !== 'image') return undefined;
  const set = (event.message as webhook.ImageMessageContent).imageSet;
  return set ? { id: `${chatIdOf(event.source) ?? ''}:${set.id}`, index: set.index ?? 0 } : undefined;
}

/** The batch's message events in order, the images of one imageSet folded into its first member. */
export async function normalizeLineEvents(events: readonly webhook.Event[], options: LineNormalizeOptions): Promise<InboundMessage[]> {
  const normalized: InboundMessage[] = [];
  const sets = new Map<string, { message: InboundMessage; images: { index: number; attachment: Attachment }[] }>();
  for (const event of events) {
    if (event.type !== 'message') continue;
    const messageEvent = event as MessageEvent;
    const message = await normalizeOne(messageEvent, options);
    if (!message) continue;
    const set = imageSetOf(messageEvent);
    const attachment = message.attachments[0];
    if (!set || !attachment) {
      normalized.push(message);
      continue;
    }
    const known = sets.get(set.id);
    if (known) {
      known.images.push({ index: set.index, attachment });
      continue;
    }
    sets.set(set.id, { message, images: [{ index: set.index, attachment }] });
    normalized.push(message);
  }
  for (const { message, images } of sets.values())
    message.attachments = images.sort((left, right) => left.index - right.index).map((image) => image.attachment);
  return normalized;
}
