import { readFile } from 'node:fs/promises';
import { DiscordAPIError, HTTPError, RESTJSONErrorCodes, Routes, type REST } from 'discord.js';
import type { DeliveryObserver } from '../../src/shared/channel.js';
import type { Logger } from '../../src/shared/log.js';
import { ChatQueue } from '../common/chat-queue.js';
import { ProgressMessage } from '../common/progress-message.js';
import { timerScheduler, timerSleep, type Scheduler, type Sleep } from '../common/scheduler.js';
import { startTypingLoop, type TypingHandle } from '../common/typing.js';

// Sending to Discord over discord.js's REST client (docs/platforms.md §1.5): one ordered queue per channel; 429s are
// queued and retried by @discordjs/rest itself; a channel the bot may not post in (50013 Missing Permissions, 50001
// Missing Access, 10003 Unknown Channel) is logged once and not tried again until someone writes there. Mentions in
// the model's text ping nobody. Parts arrive rendered (Discord Markdown, split to 2,000 characters).

/** Discord shows "typing…" for 10 s or until the bot posts: renewing at 8 s leaves no gap. */
export const discordTypingRenewalMs = 8_000;

/** The upload limit of a server without boosts (larger files are refused with 40005). */
export const discordUploadLimitBytes = 10 * 1024 * 1024;

/** Nobody is pinged by what the model wrote, not even the user replied to. */
export const noPings = { parse: [], replied_user: false } as const;

const unreachableCodes = new Set<number>([RESTJSONErrorCodes.MissingPermissions, RESTJSONErrorCodes.MissingAccess, RESTJSONErrorCodes.UnknownChannel]);

const connectionAttempts = 3;

/** Not an answer from Discord (those are DiscordAPIError, or HTTPError for 5xx the library already retried). */
function isConnectionFailure(error: unknown): boolean {
  return error instanceof Error && !(error instanceof DiscordAPIError) && !(error instanceof HTTPError) && !(error instanceof DiscordDeliveryError);
}

export class DiscordDeliveryError extends Error {
  override readonly name = 'DiscordDeliveryError';

  constructor(
    readonly kind: 'unreachable' | 'rejected',
    readonly channelId: string,
    readonly sentParts: number,
    readonly code: number | string | undefined,
  ) {
    super(`discord delivery to channel ${channelId} failed: ${kind} (${String(code)}) after ${sentParts} part(s)`);
  }
}

export interface DiscordSendOptions {
  /** The user's message: the first part replies to it, and still goes out if it was deleted. */
  replyToMessageId?: string;
  onPartSent?: (index: number) => Promise<void> | void;
}

export interface OutgoingFile {
  path: string;
  name: string;
}

interface SentMessage {
  id: string;
}

export class DiscordDelivery {
  private readonly queue = new ChatQueue<string>();
  private readonly unreachable = new Set<string>();
  /** Channels whose missing permission was logged: once per channel, however often users ask there. */
  private readonly warned = new Set<string>();
  private readonly scheduler: Scheduler;
  private readonly sleep: Sleep;
  private readonly observe: DeliveryObserver | undefined;

  constructor(
    private readonly rest: REST,
    private readonly logger: Logger,
    timing: { scheduler?: Scheduler | undefined; sleep?: Sleep | undefined; observeDelivery?: DeliveryObserver | undefined } = {},
  ) {
    this.scheduler = timing.scheduler ?? timerScheduler;
    this.sleep = timing.sleep ?? timerSleep;
    this.observe = timing.observeDelivery;
  }

  /** Someone asked in the channel again: one more attempt (permissions may have changed), not a retry loop. */
  markReachable(channelId: string): void {
    this.unreachable.delete(channelId);
  }

  isUnreachable(channelId: string): boolean {
    return this.unreachable.has(channelId);
  }

  /** Posts the parts in order, after any earlier posts to the channel; the ids of the posted messages. */
  sendParts(channelId: string, parts: readonly string[], options: DiscordSendOptions = {}): Promise<string[]> {
    return this.queue.run(channelId, async () => {
      const ids: string[] = [];
      for (const [index, content] of parts.entries()) {
        const reference =
          index === 0 && options.replyToMessageId ? { message_reference: { message_id: options.replyToMessageId, fail_if_not_exists: false } } : {};
        const sent = await this.post(channelId, index, { content, allowed_mentions: noPings, ...reference });
        ids.push(sent.id);
        await options.onPartSent?.(index);
      }
      return ids;
    });
  }

  /** A file written by a tool, as an attachment; false when it is over the upload limit (the caller says so). */
  sendFile(channelId: string, file: OutgoingFile, replyToMessageId?: string): Promise<boolean> {
    return this.queue.run(channelId, async () => {
      const data = await readFile(file.path);
      if (data.length > discordUploadLimitBytes) return false;
      const reference = replyToMessageId ? { message_reference: { message_id: replyToMessageId, fail_if_not_exists: false } } : {};
      await this.post(channelId, 0, { allowed_mentions: noPings, ...reference }, [{ name: file.name, data }]);
      return true;
    });
  }

  startTyping(channelId: string): TypingHandle {
    return startTypingLoop({
      scheduler: this.scheduler,
      intervalMs: discordTypingRenewalMs,
      mayContinue: () => !this.isUnreachable(channelId),
      send: async () => {
        try {
          await this.rest.post(Routes.channelTyping(channelId));
        } catch (error) {
          this.noteFailure(channelId, error, 'typing');
        }
      },
    });
  }

  /** One status message for a long task, edited in place. */
  progressMessage(channelId: string): ProgressMessage<string> {
    return new ProgressMessage<string>({
      send: (text) => this.queue.run(channelId, async () => (await this.post(channelId, 0, { content: text, allowed_mentions: noPings })).id),
      edit: (messageId, text) =>
        this.queue.run(channelId, async () => {
          try {
            await this.rest.patch(Routes.channelMessage(channelId, messageId), { body: { content: text, allowed_mentions: noPings } });
            return 'edited';
          } catch (error) {
            if (error instanceof DiscordAPIError && error.code === RESTJSONErrorCodes.UnknownMessage) return 'gone';
            throw error;
          }
        }),
      onError: (error) => this.noteFailure(channelId, error, 'progress'),
    });
  }

  /**
   * Part 0 of an answer put into the live message that showed it while it was written (the answer's own client: a
   * 429 is waited out, a dropped connection tried again, like a post); 'gone' when the message was deleted.
   */
  editPart(channelId: string, messageId: string, content: string): Promise<'edited' | 'gone'> {
    return this.queue.run(channelId, async () => {
      try {
        await this.withRetries(channelId, () =>
          this.callOnce(channelId, 0, () => this.rest.patch(Routes.channelMessage(channelId, messageId), { body: { content, allowed_mentions: noPings } })),
        );
        return 'edited';
      } catch (error) {
        if (error instanceof DiscordDeliveryError && error.code === RESTJSONErrorCodes.UnknownMessage) return 'gone';
        throw error;
      }
    });
  }

  /** One message posted (see withRetries). */
  private async post(channelId: string, sentParts: number, body: Record<string, unknown>, files?: { name: string; data: Buffer }[]): Promise<SentMessage> {
    const sent = await this.withRetries(channelId, () =>
      this.callOnce(
        channelId,
        sentParts,
        () => this.rest.post(Routes.channelMessages(channelId), { body, ...(files ? { files } : {}) }) as Promise<SentMessage>,
      ),
    );
    this.observe?.('sent');
    return sent;
  }

  /**
   * One call, tried again (twice, after 0.5 and 1 s) when the connection failed: @discordjs/rest retries 429s and
   * 5xx itself but not a dropped socket. The send that was in flight may then arrive twice — the one duplicate the
   * delivery allows.
   */
  private async withRetries<Result>(channelId: string, call: () => Promise<Result>): Promise<Result> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await call();
      } catch (error) {
        if (!isConnectionFailure(error) || attempt >= connectionAttempts) throw error;
        this.logger.info({ channelId, attempt }, 'discord: connection failed while sending; trying again');
        await this.sleep(500 * attempt);
        this.observe?.('retried');
      }
    }
  }

  private async callOnce<Result>(channelId: string, sentParts: number, request: () => Promise<Result>): Promise<Result> {
    if (this.unreachable.has(channelId)) throw new DiscordDeliveryError('unreachable', channelId, sentParts, undefined);
    try {
      return await request();
    } catch (error) {
      if (!(error instanceof DiscordAPIError)) throw error;
      if (unreachableCodes.has(Number(error.code))) {
        this.markUnreachable(channelId, error);
        throw new DiscordDeliveryError('unreachable', channelId, sentParts, error.code);
      }
      throw new DiscordDeliveryError('rejected', channelId, sentParts, error.code);
    }
  }

  private markUnreachable(channelId: string, error: DiscordAPIError): void {
    this.unreachable.add(channelId);
    if (this.warned.has(channelId)) return;
    this.warned.add(channelId);
    this.logger.warn(
      { channelId, code: error.code, status: error.status },
      'discord: the bot may not post in this channel (give it View Channel, Send Messages and Attach Files there); each new question there gets one more try',
    );
  }

  /** Typing and progress are best effort: a missing permission marks the channel, the rest is a debug line. */
  private noteFailure(channelId: string, error: unknown, what: 'typing' | 'progress'): void {
    if (error instanceof DiscordAPIError && unreachableCodes.has(Number(error.code))) return this.markUnreachable(channelId, error);
    const code = error instanceof DiscordAPIError ? error.code : error instanceof Error ? error.name : 'unknown';
    this.logger.debug({ channelId, what, code }, 'discord best-effort send failed');
  }
}
