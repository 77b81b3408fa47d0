import type { BotCommand, Chat, ChatMember, Message, MessageEntity, User, UserFromGetMe } from 'telegraf/types';
import { BotApiError, badRequest } from './api-error.js';

// What the fake Bot API server remembers: the bot, the chats and users it has seen, every message of every chat
// (pushed or sent), stored files, the webhook, command menus and chat members.

export interface BotProfile {
  id?: number;
  username?: string;
  first_name?: string;
  can_join_groups?: boolean;
  /** Defaults to the opposite of `privacyMode`, as BotFather's setting shows in getMe. */
  can_read_all_group_messages?: boolean;
  supports_inline_queries?: boolean;
}

export interface StoredFile {
  fileId: string;
  uniqueId: string;
  path: string;
  bytes: Buffer;
  /** The size getFile reports; may exceed `bytes.length` so a test can claim a large file cheaply. */
  size: number;
}

export interface WebhookState {
  url: string;
  secret_token?: string;
  allowed_updates?: string[];
  max_connections?: number;
  ip_address?: string;
  drop_pending_updates?: boolean;
}

export type MemberStatus = ChatMember['status'];

export interface SentDraft {
  chatId: number;
  draftId: number;
  /** The text after entity parsing, as the user would see it. */
  text: string;
  entities: MessageEntity[];
  threadId?: number;
}

export class FakeTelegramState {
  readonly bot: UserFromGetMe;
  readonly chats = new Map<number, Chat>();
  readonly users = new Map<number, User>();
  /** Every message by `chat:message_id`. */
  readonly messages = new Map<string, Message>();
  /** Messages the bot sent, in order (edits change them in place). */
  readonly sent: Message[] = [];
  /** Drafts the bot streamed (sendMessageDraft), in order, as parsed: they leave no message in the chat. */
  readonly drafts: SentDraft[] = [];
  readonly files = new Map<string, StoredFile>();
  readonly commands = new Map<string, BotCommand[]>();
  readonly members = new Map<string, MemberStatus>();
  /** Old group id → its supergroup's id. */
  readonly migrations = new Map<number, number>();
  webhook: WebhookState = { url: '' };
  private readonly lastMessageId = new Map<number, number>();
  private fileSequence = 0;

  constructor(
    profile: BotProfile,
    readonly privacyMode: boolean,
  ) {
    this.bot = {
      id: profile.id ?? 7_123_456_789,
      is_bot: true,
      first_name: profile.first_name ?? 'Saeng',
      username: profile.username ?? 'saeng_test_bot',
      can_join_groups: profile.can_join_groups ?? true,
      can_read_all_group_messages: profile.can_read_all_group_messages ?? !privacyMode,
      supports_inline_queries: profile.supports_inline_queries ?? false,
    };
    this.users.set(this.bot.id, { id: this.bot.id, is_bot: true, first_name: this.bot.first_name, username: this.bot.username });
  }

  addChat(chat: Chat): void {
    this.chats.set(chat.id, chat);
  }

  resolveChat(chatId: number | string): Chat {
    const chat =
      typeof chatId === 'number' ? this.chats.get(chatId) : [...this.chats.values()].find((known) => 'username' in known && `@${known.username}` === chatId);
    if (!chat) throw badRequest('chat not found');
    const movedTo = this.migrations.get(chat.id);
    if (movedTo !== undefined) {
      throw new BotApiError({
        error_code: 400,
        description: 'Bad Request: group chat was upgraded to a supergroup chat',
        parameters: { migrate_to_chat_id: movedTo },
      });
    }
    return chat;
  }

  /** A group upgraded to a supergroup: the old id refuses every send, naming the new one. */
  migrate(from: number, to: Chat): void {
    this.migrations.set(from, to.id);
    this.addChat(to);
  }

  /** Records a message (pushed or sent); later message ids of its chat continue after it. */
  rememberMessage(message: Message): void {
    this.addChat(this.chats.get(message.chat.id) ?? message.chat);
    if ('from' in message && message.from) this.users.set(message.from.id, message.from);
    this.messages.set(`${message.chat.id}:${message.message_id}`, message);
    this.lastMessageId.set(message.chat.id, Math.max(this.lastMessageId.get(message.chat.id) ?? 0, message.message_id));
    if ('reply_to_message' in message && message.reply_to_message) this.rememberMessage(message.reply_to_message as Message);
  }

  /** A user deleted the message: it is gone from the chat (edits of it fail as on Telegram). */
  deleteMessage(chatId: number, messageId: number): void {
    this.messages.delete(`${chatId}:${messageId}`);
    const index = this.sent.findIndex((message) => message.chat.id === chatId && message.message_id === messageId);
    if (index >= 0) this.sent.splice(index, 1);
  }

  findMessage(chatId: number, messageId: number): Message | undefined {
    return this.messages.get(`${chatId}:${messageId}`);
  }

  nextMessageId(chatId: number): number {
    return (this.lastMessageId.get(chatId) ?? 0) + 1;
  }

  addFile(fileId: string, bytes: Buffer, options: { size?: number; path?: string; uniqueId?: string } = {}): StoredFile {
    this.fileSequence += 1;
    const file: StoredFile = {
      fileId,
      uniqueId: options.uniqueId ?? `AgAD${String(this.fileSequence).padStart(4, '0')}`,
      path: options.path ?? `documents/file_${this.fileSequence}`,
      bytes,
      size: options.size ?? bytes.length,
    };
    this.files.set(fileId, file);
    return file;
  }

  /** A file the bot uploaded: stored under a fresh file id, so getFile works on it as on Telegram. */
  storeUpload(bytes: Buffer, folder: 'photos' | 'documents', extension: string): StoredFile {
    const fileId = `BQACAgUAAxkDAAI${String(this.fileSequence + 1).padStart(6, '0')}`;
    return this.addFile(fileId, bytes, { path: `${folder}/file_${this.fileSequence + 1}${extension}` });
  }

  setMember(chatId: number, userId: number, status: MemberStatus): void {
    this.members.set(`${chatId}:${userId}`, status);
  }

  memberStatus(chatId: number, userId: number): MemberStatus {
    return this.members.get(`${chatId}:${userId}`) ?? 'member';
  }
}
