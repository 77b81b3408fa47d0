import { Input, type Telegram } from 'telegraf';
import type { Message, ReplyParameters } from 'telegraf/types';
import type { DeliveryObserver } from '../../src/shared/channel.js';
import type { Logger } from '../../src/shared/log.js';
import { ChatQueue } from '../common/chat-queue.js';
import { TelegramDeliveryError } from './delivery-failure.js';
import { htmlToPlainText } from './plain-text.js';
import { ProgressMessage } from '../common/progress-message.js';
import { defaultRetryPolicy, withRetry, type RetryPolicy } from './retry.js';
import { timerScheduler, timerSleep, type Scheduler, type Sleep } from '../common/scheduler.js';
import { classifySendError } from './send-problem.js';
import { startTypingLoop, type TypingHandle } from '../common/typing.js';

// Sending to Telegram over telegraf's client (docs/platforms.md §2.5): one ordered queue per chat, 429 and connection
// failures retried within bounds, unparsable HTML resent as plain text, 403 marks the chat, typing renewed, progress
// as one edited message. Parts arrive rendered (Telegram HTML, already split to the 4096 limit).

export interface RenderedPart {
  text: string;
  parseMode: 'HTML' | undefined;
}

export interface SendPartsOptions {
  /** In groups, the user's message: the first part replies to it, and still goes out if it was deleted. */
  replyToMessageId?: number;
  /** A forum topic: every part goes there (only the first replies, and a reply alone would not place the rest). */
  threadId?: number;
  /** After each part Telegram accepted (journal it here): a failure stops the parts behind it. */
  onPartSent?: (index: number) => Promise<void> | void;
}

export interface OutgoingDocument {
  path: string;
  name: string;
}

export interface TelegramDeliveryOptions {
  telegram: Telegram;
  logger: Logger;
  sleep?: Sleep;
  scheduler?: Scheduler;
  retryPolicy?: RetryPolicy;
  /** Counts messages sent, retries and 429s (src/metrics.ts). */
  observeDelivery?: DeliveryObserver;
}

/** Telegram shows "typing…" for at most 5 s: renewing at 4 s leaves no gap. */
export const typingRenewalMs = 4_000;

/** Progress is best effort: one quick retry, and never a long flood wait that would hold the answer back. */
const progressRetryPolicy: RetryPolicy = { maxAttempts: 2, baseBackoffMs: 500, maxBackoffMs: 500, maxTotalWaitMs: 5_000 };

function topic(threadId: number | undefined): { message_thread_id?: number } {
  return threadId === undefined ? {} : { message_thread_id: threadId };
}

function replyParameters(messageId: number | undefined): { reply_parameters?: ReplyParameters } {
  return messageId === undefined ? {} : { reply_parameters: { message_id: messageId, allow_sending_without_reply: true } };
}

/**
 * telegraf 4.16.3 leaves object fields other than reply_markup out of multipart uploads (the fake's test shows it),
 * so for a file upload reply_parameters goes as the JSON text the Bot API reads from any multipart field.
 */
function multipartReplyParameters(messageId: number | undefined): { reply_parameters?: ReplyParameters } {
  if (messageId === undefined) return {};
  const asJsonText = JSON.stringify({ message_id: messageId, allow_sending_without_reply: true });
  return { reply_parameters: asJsonText as unknown as ReplyParameters };
}

/** A failed edit: "not modified" is as good as edited, a deleted message is 'gone'; anything else is thrown on. */
function editOutcome(error: unknown): 'edited' | 'gone' {
  const kind = classifySendError(error).kind;
  if (kind === 'not-modified') return 'edited';
  if (kind === 'message-gone') return 'gone';
  throw error;
}

export class TelegramDelivery {
  private readonly queue = new ChatQueue();
  private readonly blocked = new Set<number>();
  /** Groups upgraded to supergroups: old chat id → new. */
  private readonly moved = new Map<number, number>();
  private readonly telegram: Telegram;
  private readonly logger: Logger;
  private readonly sleep: Sleep;
  /** Time for typing renewal and the pace of live answers (tests move it by hand). */
  readonly scheduler: Scheduler;
  private readonly policy: RetryPolicy;
  private readonly observe: DeliveryObserver | undefined;

  constructor(options: TelegramDeliveryOptions) {
    this.telegram = options.telegram;
    this.logger = options.logger;
    this.sleep = options.sleep ?? timerSleep;
    this.scheduler = options.scheduler ?? timerScheduler;
    this.policy = options.retryPolicy ?? defaultRetryPolicy;
    this.observe = options.observeDelivery;
  }

  /** True after a 403 (blocked by the user, removed from the group) until `markReachable`. */
  isBlocked(chatId: number): boolean {
    return this.blocked.has(chatId);
  }

  /** The chat wrote to the bot again (unblocked, re-added): sending may resume. */
  markReachable(chatId: number): void {
    this.blocked.delete(chatId);
  }

  /** A group became a supergroup (its service message, or a send refused with `migrate_to_chat_id`). */
  chatMoved(from: number, to: number): void {
    if (this.moved.get(from) === to) return;
    this.moved.set(from, to);
    this.logger.info({ from, to }, 'telegram: sending to the supergroup from now on');
  }

  /** Sends the parts in order, after any earlier sends to the chat; rejects with a TelegramDeliveryError. */
  sendParts(chatId: number, parts: readonly RenderedPart[], options: SendPartsOptions = {}): Promise<Message.TextMessage[]> {
    return this.queue.run(chatId, async () => {
      const sent: Message.TextMessage[] = [];
      for (const [index, part] of parts.entries()) {
        const replyTo = index === 0 ? options.replyToMessageId : undefined;
        sent.push(await this.sendPart(chatId, part, { replyTo, threadId: options.threadId }, index));
        await options.onPartSent?.(index);
      }
      return sent;
    });
  }

  sendDocument(chatId: number, file: OutgoingDocument, place: { replyToMessageId?: number; threadId?: number } = {}): Promise<Message.DocumentMessage> {
    return this.queue.run(chatId, () =>
      this.attempt(chatId, 0, this.policy, 'message', (target) =>
        this.telegram.sendDocument(target, Input.fromLocalFile(file.path, file.name), {
          ...multipartReplyParameters(place.replyToMessageId),
          ...topic(place.threadId),
        }),
      ),
    );
  }

  /** "typing…" now and every 4 s until stopped; not queued, since it must not wait behind a long send. */
  startTyping(chatId: number, threadId?: number): TypingHandle {
    return startTypingLoop({
      scheduler: this.scheduler,
      intervalMs: typingRenewalMs,
      mayContinue: () => !this.isBlocked(chatId),
      send: async () => {
        try {
          await this.telegram.sendChatAction(this.current(chatId), 'typing', topic(threadId));
        } catch (error) {
          this.noteFailure(chatId, error, 'typing');
        }
      },
    });
  }

  /** One status message for a long task, edited in place; sent in the chat's queue, plain text. */
  progressMessage(chatId: number, threadId?: number): ProgressMessage {
    return new ProgressMessage({
      send: (text) =>
        this.queue.run(
          chatId,
          async () =>
            (await this.attempt(chatId, 0, progressRetryPolicy, 'message', (target) => this.telegram.sendMessage(target, text, topic(threadId)))).message_id,
        ),
      edit: (messageId, text) =>
        this.queue.run(chatId, async () => {
          try {
            await this.attempt(chatId, 0, progressRetryPolicy, 'edit', (target) => this.telegram.editMessageText(target, messageId, undefined, text));
            return 'edited';
          } catch (error) {
            return editOutcome(error);
          }
        }),
      onError: (error) => this.noteFailure(chatId, error, 'progress'),
    });
  }

  /**
   * Part 0 of a streamed answer, into the live message that showed it: retried like a send (it is the answer), the
   * same plain-text fallback; "not modified" is done, and 'gone' (the user deleted it) leaves the part to be sent new.
   */
  editPart(chatId: number, messageId: number, part: RenderedPart): Promise<'edited' | 'gone'> {
    return this.queue.run(chatId, async () => {
      const edit = (text: string, parseMode: 'HTML' | undefined) => (target: number) =>
        this.telegram.editMessageText(target, messageId, undefined, text, parseMode === undefined ? {} : { parse_mode: parseMode });
      try {
        await this.withPlainFallback(chatId, part, 0, 'edit', edit);
        return 'edited';
      } catch (error) {
        return editOutcome(error);
      }
    });
  }

  /**
   * One call of a live answer (a post, an edit, a draft), in the chat's queue behind earlier sends and tried once:
   * the live message paces and retries itself. A 403 marks the chat; a 429 is counted; every failure is thrown.
   */
  liveCall<Result>(chatId: number, what: 'message' | 'edit', call: (telegram: Telegram, target: number) => Promise<Result>): Promise<Result> {
    return this.queue.run(chatId, async () => {
      if (this.isBlocked(chatId)) throw new TelegramDeliveryError('blocked', chatId, 0);
      try {
        const result = await call(this.telegram, this.current(chatId));
        if (what === 'message') this.observe?.('sent');
        return result;
      } catch (error) {
        const problem = classifySendError(error);
        if (problem.kind === 'blocked') this.markBlocked(chatId, problem.description);
        if (problem.kind === 'rate-limited') this.observe?.('rate-limited');
        throw error;
      }
    });
  }

  private sendPart(
    chatId: number,
    part: RenderedPart,
    place: { replyTo: number | undefined; threadId: number | undefined },
    index: number,
  ): Promise<Message.TextMessage> {
    const send = (text: string, parseMode: 'HTML' | undefined) => (target: number) =>
      this.telegram.sendMessage(target, text, {
        ...replyParameters(place.replyTo),
        ...topic(place.threadId),
        ...(parseMode === undefined ? {} : { parse_mode: parseMode }),
      });
    return this.withPlainFallback(chatId, part, index, 'message', send);
  }

  /** A part as HTML, and once more as plain text when Telegram refuses its markup: the user still gets the words. */
  private async withPlainFallback<Result>(
    chatId: number,
    part: RenderedPart,
    index: number,
    what: 'message' | 'edit',
    call: (text: string, parseMode: 'HTML' | undefined) => (target: number) => Promise<Result>,
  ): Promise<Result> {
    try {
      return await this.attempt(chatId, index, this.policy, what, call(part.text, part.parseMode));
    } catch (error) {
      if (part.parseMode === undefined || classifySendError(error).kind !== 'unparsable') throw error;
      this.logger.warn({ chatId, part: index }, 'telegram refused the HTML of a part; resending it as plain text');
      return await this.attempt(chatId, index, this.policy, what, call(htmlToPlainText(part.text), undefined));
    }
  }

  /**
   * One call with retries. A 403 marks the chat and becomes a 'blocked' failure, other refusals 'rejected'; the
   * failures a caller handles itself (unparsable, not modified, message gone) and bugs pass through unchanged.
   * A 'message' that went out is counted as sent; an edit is not a new message.
   */
  private async attempt<Result>(
    chatId: number,
    sentParts: number,
    policy: RetryPolicy,
    what: 'message' | 'edit',
    call: (target: number) => Promise<Result>,
  ): Promise<Result> {
    if (this.isBlocked(chatId)) throw new TelegramDeliveryError('blocked', chatId, sentParts);
    const once = async () => {
      const result = await withRetry(() => call(this.current(chatId)), { sleep: this.sleep, policy, chatId, sentParts, observe: this.observe });
      if (what === 'message') this.observe?.('sent');
      return result;
    };
    try {
      try {
        return await once();
      } catch (error) {
        const problem = classifySendError(error);
        if (problem.kind !== 'migrated') throw error;
        // An answer queued before the upgrade: the same group, under its new id.
        this.chatMoved(chatId, problem.newChatId);
        return await once();
      }
    } catch (error) {
      const problem = classifySendError(error);
      if (problem.kind === 'blocked') {
        this.markBlocked(chatId, problem.description);
        throw new TelegramDeliveryError('blocked', chatId, sentParts, { description: problem.description });
      }
      if (problem.kind === 'rejected') throw new TelegramDeliveryError('rejected', chatId, sentParts, { description: problem.description });
      throw error;
    }
  }

  private current(chatId: number): number {
    return this.moved.get(chatId) ?? chatId;
  }

  private markBlocked(chatId: number, description: string): void {
    if (this.blocked.has(chatId)) return;
    this.blocked.add(chatId);
    this.logger.warn({ chatId, description }, 'telegram chat unreachable (403); not sending there until it writes again');
  }

  /** Typing and progress failures: a 403 marks the chat, the rest is logged without the error's text (URLs hold the token). */
  private noteFailure(chatId: number, error: unknown, what: 'typing' | 'progress'): void {
    const problem = classifySendError(error);
    if (problem.kind === 'blocked') return this.markBlocked(chatId, problem.description);
    if (error instanceof TelegramDeliveryError && error.kind === 'blocked') return;
    this.logger.debug({ chatId, what, problem: error instanceof TelegramDeliveryError ? error.kind : problem.kind }, 'telegram best-effort send failed');
  }
}
