import { TelegramError, type Telegram } from 'telegraf';
import type { Update } from 'telegraf/types';
import type { Logger } from '../../src/shared/log.js';
import { telegramErrorText } from './error-text.js';
import type { Sleep } from '../common/scheduler.js';

// Long polling where an update is confirmed only once it is stored. telegraf's own loop moves its offset as soon
// as getUpdates returns and confirms it when a handler fails, so a message whose storing failed (a full disk, a
// locked database) was gone for good. Here the offset moves past an update only after `handle` resolved for it;
// after a failure the same updates are asked for again (the queue's dedupe makes the repeats harmless).
// A 409 Conflict (another process polls this token, or set a webhook) is waited out with a back-off and warned
// about once per poller: each poll of one poller terminates the other's, so neither may treat it as fatal.

export interface PollerOptions {
  telegram: Telegram;
  allowedUpdates: readonly UpdateType[];
  /** Stores one update; a rejection keeps it (and the ones after it) unconfirmed. */
  handle(update: Update): Promise<void>;
  logger: Logger;
  sleep: Sleep;
  /** The long-poll timeout in seconds (Telegram holds the call open up to this long). */
  timeoutSeconds?: number;
  /** Wait after a failed store or poll; doubled each time up to `maxBackoffMs`. */
  baseBackoffMs?: number;
  maxBackoffMs?: number;
}

type UpdateType = NonNullable<Parameters<Telegram['getUpdates']>[3]>[number];
type AbortSignalOfTelegraf = NonNullable<Parameters<Telegram['callApi']>[2]>['signal'];

/** 401: the token was revoked; 404: no such bot. Asking again cannot help. */
const fatalCodes = new Set([401, 404]);

const isConflict = (error: unknown): boolean => error instanceof TelegramError && error.code === 409;

export class UpdatePoller {
  private offset = 0;
  private readonly abort = new AbortController();
  private failures = 0;
  private confirmOnStop = true;
  private conflicted = false;
  private warnedConflict = false;

  constructor(private readonly options: PollerOptions) {}

  /**
   * One short poll (timeout 0), so start-up fails at once on a bad token and the first backlog is stored before
   * the adapter reports started. Resolves with the long-running loop, which settles when stopped.
   */
  async start(): Promise<{ running: Promise<void> }> {
    try {
      await this.pollOnce(0);
    } catch (error) {
      // Another poller is no reason to fail start-up: it may stop, and this one takes over.
      if (!isConflict(error)) throw error;
      return { running: this.backOff(error).then(() => this.loop()) };
    }
    return { running: this.loop() };
  }

  /**
   * Ends the loop: the poll in flight is aborted, an update being stored finishes first. `confirm: false` skips
   * the last getUpdates that confirms the offset (after a lost lease another process polls: it would end that poll).
   */
  stop(options: { confirm?: boolean } = {}): void {
    this.confirmOnStop = options.confirm ?? true;
    this.abort.abort();
  }

  /** A 409 Conflict answered the last poll: another process polls this token or set a webhook. */
  get inConflict(): boolean {
    return this.conflicted;
  }

  private async loop(): Promise<void> {
    while (!this.abort.signal.aborted) {
      try {
        await this.pollOnce(this.options.timeoutSeconds ?? 50);
        this.failures = 0;
        this.conflicted = false;
      } catch (error) {
        if (this.abort.signal.aborted) break;
        if (error instanceof TelegramError && fatalCodes.has(error.code)) throw error;
        await this.backOff(error);
      }
    }
    if (this.confirmOnStop) await this.confirmHandled();
  }

  private async pollOnce(timeoutSeconds: number): Promise<void> {
    const updates = await this.options.telegram.callApi(
      'getUpdates',
      { offset: this.offset, timeout: timeoutSeconds, allowed_updates: [...this.options.allowedUpdates] },
      // telegraf types the signal as the abort-controller package's; node-fetch takes the built-in one.
      { signal: this.abort.signal as unknown as AbortSignalOfTelegraf },
    );
    // Side by side (an album member is stored only with the members after it; the intake keeps Telegram's order),
    // and confirmed up to the first one that failed.
    const outcomes = await Promise.allSettled(updates.map((update) => this.options.handle(update)));
    const firstFailure = outcomes.findIndex((outcome) => outcome.status === 'rejected');
    const handled = firstFailure === -1 ? updates : updates.slice(0, firstFailure);
    const last = handled[handled.length - 1];
    if (last) this.offset = last.update_id + 1;
    const failed = outcomes[firstFailure];
    if (failed?.status === 'rejected') throw failed.reason;
  }

  private async backOff(error: unknown): Promise<void> {
    const retryAfter = error instanceof TelegramError ? error.parameters?.retry_after : undefined;
    const base = this.options.baseBackoffMs ?? 1_000;
    const waitMs = retryAfter !== undefined ? retryAfter * 1000 : Math.min(this.options.maxBackoffMs ?? 30_000, base * 2 ** this.failures);
    this.failures += 1;
    if (isConflict(error)) this.warnConflict(error, waitMs);
    else this.options.logger.warn({ error: telegramErrorText(error), retryInMs: waitMs }, 'telegram polling: updates not stored yet, asking again');
    // A stop during the wait ends it at once.
    await Promise.race([this.options.sleep(waitMs), new Promise((resolve) => this.abort.signal.addEventListener('abort', resolve, { once: true }))]);
  }

  private warnConflict(error: unknown, waitMs: number): void {
    this.conflicted = true;
    if (this.warnedConflict) return;
    this.warnedConflict = true;
    this.options.logger.warn(
      { error: telegramErrorText(error), retryInMs: waitMs },
      'telegram polling: 409 Conflict, another process polls this bot token (or set a webhook). Run one poller per token: give every bot process the same REDIS_URL so they take turns, or use TELEGRAM_WEBHOOK_URL. Backing off and asking again',
    );
  }

  /** Tells Telegram which updates are stored, so a restart does not get them again (harmless, but wasted work). */
  private async confirmHandled(): Promise<void> {
    if (this.offset === 0) return;
    await this.options.telegram.callApi('getUpdates', { offset: this.offset, limit: 1, timeout: 0 }).catch(() => undefined);
  }
}
