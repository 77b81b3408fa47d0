import type { webhook } from '@line/bot-sdk';
import type { FakeLineState } from './state.js';

// Webhook events as LINE sends them, each with a fresh webhookEventId (a ULID), `mode: 'active'`,
// `deliveryContext.isRedelivery: false`, the fake's clock as timestamp and, for replyable events, a reply token the
// fake has issued for the event's chat. Text, image, sticker and video messages carry a quoteToken the fake knows
// (audio has none); a text or sticker message that quotes another carries its `quotedMessageId`.

export type WithReply<Event> = Event & { replyToken: string };
export type TextEvent = WithReply<webhook.MessageEvent & { message: webhook.TextMessageContent }>;
export type ImageEvent = WithReply<webhook.MessageEvent & { message: webhook.ImageMessageContent }>;
export type FileEvent = WithReply<webhook.MessageEvent & { message: webhook.FileMessageContent }>;
export type StickerEvent = WithReply<webhook.MessageEvent & { message: webhook.StickerMessageContent }>;
export type AudioEvent = WithReply<webhook.MessageEvent & { message: webhook.AudioMessageContent }>;
export type VideoEvent = WithReply<webhook.MessageEvent & { message: webhook.VideoMessageContent }>;

/** A mention inside `text`: the substring it covers (first found at or after `from`). Index and length are UTF-16. */
export interface MentionSpec {
  match: string;
  /** 'self': the bot (isSelf true); 'all': @All; 'user': another member (userId only with their consent). */
  kind: 'self' | 'all' | 'user';
  userId?: string;
  from?: number;
}

export interface TextEventSpec {
  source: webhook.Source;
  text: string;
  mentions?: MentionSpec[];
  /** The id of the message this one replies to (e.g. one of the bot's sentMessages ids). */
  quotedMessageId?: string;
}

export interface ImageEventSpec {
  source: webhook.Source;
  /** Registered as the message's content (contentProvider `line`). */
  content?: { bytes: Buffer; contentType?: string };
  /** An image hosted elsewhere: contentProvider `external` with these URLs, and no content on LINE. */
  external?: { originalContentUrl: string; previewImageUrl?: string };
  imageSet?: { id: string; index: number; total: number };
}

export interface FileEventSpec {
  source: webhook.Source;
  fileName: string;
  bytes?: Buffer;
  /** Defaults to the byte count. */
  fileSize?: number;
}

export interface StickerEventSpec {
  source: webhook.Source;
  packageId?: string;
  stickerId?: string;
  keywords?: string[];
  /** The id of the message this sticker replies to (e.g. one of the bot's sentMessages ids). */
  quotedMessageId?: string;
}

/** An audio or video message: its content is on LINE (contentProvider `line`), its length in milliseconds. */
export interface MediaEventSpec {
  source: webhook.Source;
  durationMs?: number;
}

export function userSource(userId: string): webhook.UserSource {
  return { type: 'user', userId };
}

/** A group source; leave `userId` out for a sender LINE does not identify (e.g. LINE for PC). */
export function groupSource(groupId: string, userId?: string): webhook.GroupSource {
  return userId === undefined ? { type: 'group', groupId } : { type: 'group', groupId, userId };
}

export function roomSource(roomId: string, userId?: string): webhook.RoomSource {
  return userId === undefined ? { type: 'room', roomId } : { type: 'room', roomId, userId };
}

export function chatIdOf(source: webhook.Source): string {
  if (source.type === 'group') return source.groupId;
  if (source.type === 'room') return source.roomId;
  if (source.userId === undefined) throw new Error('a user source needs a userId');
  return source.userId;
}

function mentionees(spec: TextEventSpec, botUserId: string): webhook.Mentionee[] {
  return (spec.mentions ?? []).map((mention) => {
    const index = spec.text.indexOf(mention.match, mention.from ?? 0);
    if (index === -1) throw new Error(`the text has no ${mention.match}`);
    const at = { index, length: mention.match.length };
    if (mention.kind === 'all') return { ...at, type: 'all' };
    if (mention.kind === 'self') return { ...at, type: 'user', userId: botUserId, isSelf: true };
    return { ...at, type: 'user', ...(mention.userId === undefined ? {} : { userId: mention.userId }), isSelf: false };
  });
}

export class EventBuilder {
  constructor(private readonly state: FakeLineState) {}

  private base(source: webhook.Source): {
    source: webhook.Source;
    timestamp: number;
    mode: 'active';
    webhookEventId: string;
    deliveryContext: { isRedelivery: boolean };
  } {
    const timestamp = this.state.clock();
    return { source, timestamp, mode: 'active', webhookEventId: this.state.ids.webhookEventId(timestamp), deliveryContext: { isRedelivery: false } };
  }

  private replyable(source: webhook.Source): ReturnType<EventBuilder['base']> & { replyToken: string } {
    const base = this.base(source);
    return { ...base, replyToken: this.state.issueReplyToken(chatIdOf(source), base.webhookEventId, base.timestamp) };
  }

  private quoteToken(messageId: string): string {
    const token = this.state.ids.quoteToken();
    this.state.quoteTokens.set(token, messageId);
    return token;
  }

  text(spec: TextEventSpec): TextEvent {
    const id = this.state.ids.messageId();
    const found = mentionees(spec, this.state.bot.userId);
    const message: webhook.TextMessageContent = {
      type: 'text',
      id,
      text: spec.text,
      quoteToken: this.quoteToken(id),
      ...(found.length > 0 ? { mention: { mentionees: found } } : {}),
      ...(spec.quotedMessageId === undefined ? {} : { quotedMessageId: spec.quotedMessageId }),
    };
    return { ...this.replyable(spec.source), type: 'message', message };
  }

  image(spec: ImageEventSpec): ImageEvent {
    const id = this.state.ids.messageId();
    if (spec.content) this.state.contents.set(id, { bytes: spec.content.bytes, contentType: spec.content.contentType ?? 'image/jpeg' });
    const contentProvider: webhook.ContentProvider = spec.external ? { type: 'external', ...spec.external } : { type: 'line' };
    const message: webhook.ImageMessageContent = {
      type: 'image',
      id,
      contentProvider,
      quoteToken: this.quoteToken(id),
      ...(spec.imageSet ? { imageSet: spec.imageSet } : {}),
    };
    return { ...this.replyable(spec.source), type: 'message', message };
  }

  file(spec: FileEventSpec): FileEvent {
    const id = this.state.ids.messageId();
    if (spec.bytes) this.state.contents.set(id, { bytes: spec.bytes, contentType: 'application/octet-stream' });
    const message: webhook.FileMessageContent = { type: 'file', id, fileName: spec.fileName, fileSize: spec.fileSize ?? spec.bytes?.length ?? 0 };
    return { ...this.replyable(spec.source), type: 'message', message };
  }

  sticker(spec: StickerEventSpec): StickerEvent {
    const id = this.state.ids.messageId();
    const message: webhook.StickerMessageContent = {
      type: 'sticker',
      id,
      packageId: spec.packageId ?? '446',
      stickerId: spec.stickerId ?? '1988',
      stickerResourceType: 'STATIC',
      quoteToken: this.quoteToken(id),
      ...(spec.keywords ? { keywords: spec.keywords } : {}),
      ...(spec.quotedMessageId === undefined ? {} : { quotedMessageId: spec.quotedMessageId }),
    };
    return { ...this.replyable(spec.source), type: 'message', message };
  }

  audio(spec: MediaEventSpec): AudioEvent {
    const message: webhook.AudioMessageContent = {
      type: 'audio',
      id: this.state.ids.messageId(),
      contentProvider: { type: 'line' },
      duration: spec.durationMs ?? 4_000,
    };
    return { ...this.replyable(spec.source), type: 'message', message };
  }

  video(spec: MediaEventSpec): VideoEvent {
    const id = this.state.ids.messageId();
    const message: webhook.VideoMessageContent = {
      type: 'video',
      id,
      duration: spec.durationMs ?? 12_000,
      contentProvider: { type: 'line' },
      quoteToken: this.quoteToken(id),
    };
    return { ...this.replyable(spec.source), type: 'message', message };
  }

  /** The bot was added to a group or room. */
  join(source: webhook.GroupSource | webhook.RoomSource): WithReply<webhook.JoinEvent> {
    return { ...this.replyable(source), type: 'join' };
  }

  memberJoined(source: webhook.GroupSource | webhook.RoomSource, userIds: string[]): WithReply<webhook.MemberJoinedEvent> {
    const members = userIds.map((userId) => {
      this.state.chatGroup(source.type, chatIdOf(source)).members.set(userId, this.state.displayName(userId) ?? userId);
      return userSource(userId);
    });
    return { ...this.replyable(source), type: 'memberJoined', joined: { members } };
  }

  /** A user added the bot as a friend (or unblocked it). */
  follow(userId: string, isUnblocked = false): WithReply<webhook.FollowEvent> {
    return { ...this.replyable(userSource(userId)), type: 'follow', follow: { isUnblocked } };
  }

  /** The same event again, as LINE redelivers it: same webhookEventId and reply token, `isRedelivery: true`. */
  redeliver<Event extends webhook.Event>(event: Event): Event {
    if ('replyToken' in event && typeof event.replyToken === 'string') this.state.rearmReplyToken(event.replyToken);
    return { ...event, deliveryContext: { isRedelivery: true } };
  }

  /** The webhook body: `destination` is the bot's user id. */
  body(events: webhook.Event[]): webhook.CallbackRequest {
    return { destination: this.state.bot.userId, events };
  }
}
