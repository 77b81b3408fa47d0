import type { Chat, Message } from 'telegraf/types';
import { isRecord } from '../../../src/shared/is-record.js';
import { badRequest } from './api-error.js';
import { optionalInteger, optionalJson, optionalString, requiredChatId, type Params } from './params.js';
import type { FakeTelegramState } from './state.js';

// The common part of every message the bot sends: the chat (which must be known), the next message id, the bot as
// sender, the date, and the replied-to message.

/** The replied-to message of reply_parameters (or the older reply_to_message_id), one level deep as Telegram sends it. */
export function repliedMessage(params: Params, chat: Chat, state: FakeTelegramState): Message | undefined {
  const replyParameters = optionalJson(params, 'reply_parameters');
  const reply = isRecord(replyParameters) ? replyParameters : { message_id: optionalInteger(params, 'reply_to_message_id') };
  const messageId = typeof reply.message_id === 'number' ? reply.message_id : undefined;
  if (messageId === undefined) return undefined;
  const found = state.findMessage(chat.id, messageId);
  if (found) {
    const { reply_to_message: _nested, ...withoutNested } = found as Message & { reply_to_message?: unknown };
    return withoutNested as Message;
  }
  const allowWithout = reply.allow_sending_without_reply === true || optionalString(params, 'allow_sending_without_reply') === 'true';
  if (allowWithout) return undefined;
  throw badRequest('message to be replied not found');
}

/** The fields every message the bot sends carries. */
export function newBotMessage(params: Params, state: FakeTelegramState): { chat: Chat; base: Record<string, unknown> } {
  const chat = state.resolveChat(requiredChatId(params));
  const replyTo = repliedMessage(params, chat, state);
  const { id, is_bot, first_name, username } = state.bot;
  const base: Record<string, unknown> = { message_id: state.nextMessageId(chat.id), from: { id, is_bot, first_name, username }, chat, date: nowSeconds() };
  if (replyTo) base.reply_to_message = replyTo;
  // A forum topic: the one asked for, or the topic of the replied-to message (Telegram puts a reply beside it).
  const threadId = optionalInteger(params, 'message_thread_id') ?? (replyTo && 'message_thread_id' in replyTo ? replyTo.message_thread_id : undefined);
  if (threadId !== undefined && 'is_forum' in chat && chat.is_forum === true) Object.assign(base, { message_thread_id: threadId, is_topic_message: true });
  return { chat, base };
}

export function storeSent(message: Message, state: FakeTelegramState): Message {
  state.rememberMessage(message);
  state.sent.push(message);
  return message;
}

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
