import { IdSource } from './ids.js';
import type { WebhookSettings } from './routes-webhook.js';

// What the fake LINE platform knows: the bot, users, groups and rooms with their members, content users sent,
// the reply tokens it issued with webhook events, the messages the bot sent (per chat), accepted retry keys,
// the monthly quota and its use, and loading-animation calls. The clock (ms) drives token expiry and timestamps.

export interface BotProfile {
  userId: string;
  basicId: string;
  displayName: string;
  pictureUrl?: string;
}

export interface UserProfile {
  userId: string;
  displayName: string;
  pictureUrl?: string;
  statusMessage?: string;
  language?: string;
}

export interface ChatGroup {
  id: string;
  name: string;
  /** userId → display name. */
  members: Map<string, string>;
}

export interface SentLineMessage {
  id: string;
  /** The user, group or room id the message went to. */
  chatId: string;
  via: 'reply' | 'push';
  type: string;
  text?: string;
  /** The quoteToken the bot's message carried: it quotes that message. */
  quoting?: string;
  /** The message id behind `quoting`, when the fake issued that token. */
  quotedMessageId?: string;
  /** This message's own quote token, as returned in sentMessages. */
  quoteToken?: string;
  notificationDisabled: boolean;
  /** The message object as sent. */
  message: Record<string, unknown>;
  sentAt: number;
}

export interface ReplyTokenRecord {
  token: string;
  chatId: string;
  webhookEventId: string;
  /** When the event happened: a token is dead 20 minutes after, redelivered or not. */
  eventTime: number;
  /** When the (re)delivery carrying it was built: the one-minute window starts here. */
  armedAt: number;
  used: boolean;
  expired: boolean;
}

export interface AcceptedRetryKey {
  requestId: string;
  acceptedAt: number;
  sentMessages: { id: string; quoteToken?: string }[];
}

export interface LoadingCall {
  chatId: string;
  loadingSeconds: number;
  at: number;
}

export interface StoredContent {
  bytes: Buffer;
  contentType: string;
}

const eventReplyWindowMs = 20 * 60 * 1000;
const retryKeyLifetimeMs = 24 * 60 * 60 * 1000;

export class FakeLineState {
  readonly ids = new IdSource();
  readonly users = new Map<string, UserProfile>();
  readonly groups = new Map<string, ChatGroup>();
  readonly rooms = new Map<string, ChatGroup>();
  readonly contents = new Map<string, StoredContent>();
  readonly replyTokens = new Map<string, ReplyTokenRecord>();
  /** quote token → the message id it stands for (users' messages and the bot's). */
  readonly quoteTokens = new Map<string, string>();
  readonly retryKeys = new Map<string, AcceptedRetryKey>();
  readonly sent: SentLineMessage[] = [];
  readonly loadingCalls: LoadingCall[] = [];
  quotaUsage = 0;
  /** The webhook URL on file (none until a test sets one), "Use webhook", and the test delivery's time-out. */
  readonly webhook: WebhookSettings = { endpoint: '', active: false, testTimeoutMs: 2_000 };

  constructor(
    readonly bot: BotProfile,
    /** Messages a month, or 'unlimited' (getMessageQuota then answers `{ type: 'none' }`). */
    public quota: number | 'unlimited',
    readonly replyTokenLifetimeMs: number,
    readonly clock: () => number,
  ) {}

  issueReplyToken(chatId: string, webhookEventId: string, eventTime: number): string {
    const token = this.ids.replyToken();
    this.replyTokens.set(token, { token, chatId, webhookEventId, eventTime, armedAt: this.clock(), used: false, expired: false });
    return token;
  }

  /** A redelivery re-arms the one-minute window of the same token (unless it was used or 20 minutes passed). */
  rearmReplyToken(token: string): void {
    const record = this.replyTokens.get(token);
    if (record) record.armedAt = this.clock();
  }

  /** The chat a reply with this token goes to, or undefined when LINE would answer "Invalid reply token". */
  usableReplyToken(token: string): ReplyTokenRecord | undefined {
    const record = this.replyTokens.get(token);
    if (!record || record.used || record.expired) return undefined;
    const now = this.clock();
    if (now - record.armedAt > this.replyTokenLifetimeMs || now - record.eventTime > eventReplyWindowMs) return undefined;
    return record;
  }

  acceptedRetryKey(key: string): AcceptedRetryKey | undefined {
    const accepted = this.retryKeys.get(key);
    if (accepted && this.clock() - accepted.acceptedAt > retryKeyLifetimeMs) this.retryKeys.delete(key);
    return this.retryKeys.get(key);
  }

  /** What a push to `chatId` costs: one message per recipient, whatever the number of bubbles. */
  pushCost(chatId: string): number {
    const group = this.groups.get(chatId) ?? this.rooms.get(chatId);
    return group ? Math.max(1, group.members.size) : 1;
  }

  chatGroup(kind: 'group' | 'room', id: string): ChatGroup {
    const table = kind === 'group' ? this.groups : this.rooms;
    let found = table.get(id);
    if (!found) {
      found = { id, name: kind === 'group' ? 'กลุ่ม' : '', members: new Map() };
      table.set(id, found);
    }
    return found;
  }

  displayName(userId: string): string | undefined {
    return this.users.get(userId)?.displayName;
  }
}
