import type { Scheduler } from './scheduler.js';

// A live answer's one message (docs/architecture.md, "Streaming answers"): posted on the first update, then edited in
// place, at most one call per `minIntervalMs` (Telegram allows about one edit a second per chat, Discord five per
// five seconds per channel). Updates that arrive meanwhile collapse into the newest, so a slow or rate-limited chat
// gets fewer edits, never a backlog. A rate-limit answer pauses the updates for as long as the platform asked; any
// other failure is reported and the next update tries again. Best effort throughout: nothing here throws.

/** What one platform call of a live message came to. */
export type LiveCallOutcome = 'shown' | 'gone' | { retryAfterMs: number };

/** `Id`: how the platform names a message (Telegram a number, Discord a snowflake string). */
export interface LiveMessageSender<Id> {
  /** Posts the message (a Telegram private chat: the first draft); its id. */
  send(text: string): Promise<{ id: Id } | { retryAfterMs: number }>;
  /** Edits it; 'gone' when the user deleted it (a new one is posted). "Not modified" counts as shown. */
  edit(id: Id, text: string): Promise<LiveCallOutcome>;
  onError(error: unknown): void;
}

export interface LiveMessageOptions<Id> {
  sender: LiveMessageSender<Id>;
  scheduler: Scheduler;
  minIntervalMs: number;
  /** A live message an earlier attempt left (after a crash): edited, not posted again. */
  earlier?: Id;
  /** Stores a newly posted message's id durably before the next update (`LiveAnswerStart.remember`). */
  remember?: (id: Id) => Promise<void>;
}

export class LiveMessage<Id> {
  private id: Id | undefined;
  private wanted: string | undefined;
  private shown: string | undefined;
  private running: Promise<void> | undefined;
  private cancelWait: (() => void) | undefined;
  private nextCallAllowed = Promise.resolve();
  private ended = false;

  constructor(private readonly options: LiveMessageOptions<Id>) {
    this.id = options.earlier;
  }

  /** Shows `text` as soon as the pace allows (a newer text given meanwhile wins). */
  update(text: string): void {
    if (this.ended) return;
    this.wanted = text;
    // Started a tick later, so `running` is set before the loop can end and clear it.
    this.running ??= Promise.resolve().then(() => this.drain());
  }

  /** No update after this; resolves once the call on its way settled. A paced update not yet made is dropped. */
  async end(): Promise<Id | undefined> {
    this.ended = true;
    this.cancelWait?.();
    await this.running;
    return this.id;
  }

  /** The message's id once posted (or the earlier attempt's). */
  messageId(): Id | undefined {
    return this.id;
  }

  private async drain(): Promise<void> {
    try {
      while (!this.ended && this.wanted !== undefined && this.wanted !== this.shown) {
        await this.nextCallAllowed;
        if (this.ended) break;
        const text = this.wanted;
        const outcome = await this.show(text).catch((error: unknown) => {
          this.options.sender.onError(error);
          return 'failed' as const;
        });
        const pauseMs = typeof outcome === 'object' ? Math.max(outcome.retryAfterMs, this.options.minIntervalMs) : this.options.minIntervalMs;
        if (outcome === 'shown') this.shown = text;
        // A failed call paces the next one too (it may have counted against the limit); the next update retries.
        if (!this.ended) this.nextCallAllowed = this.wait(pauseMs);
        if (outcome === 'failed') break;
      }
    } finally {
      this.running = undefined;
    }
  }

  private async show(text: string): Promise<LiveCallOutcome> {
    if (this.id !== undefined) {
      const edited = await this.options.sender.edit(this.id, text);
      if (edited !== 'gone') return edited;
      // The user deleted it: a post that is refused now must not leave the next try editing the deleted message.
      this.id = undefined;
    }
    const posted = await this.options.sender.send(text);
    if (!('id' in posted)) return posted;
    this.id = posted.id;
    await this.options.remember?.(posted.id);
    return 'shown';
  }

  /** Resolves after `ms` on the scheduler, or at once when the message ends. */
  private wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const cancel = this.options.scheduler.schedule(ms, resolve);
      this.cancelWait = () => {
        cancel();
        resolve();
      };
    });
  }
}
