import type { Update } from 'telegraf/types';
import { BotApiError } from './api-error.js';
import { optionalInteger, optionalJson, type Params } from './params.js';

// The getUpdates side of the Bot API: updates wait until a call with a higher `offset` confirms them; a call with
// `timeout` is held until an update arrives, the timeout passes, the client goes away or a newer getUpdates call
// takes over (409 to the older one, as Telegram answers two pollers).

const defaultAllowed = (type: string): boolean => type !== 'chat_member' && type !== 'message_reaction' && type !== 'message_reaction_count';

const conflictError = (): BotApiError =>
  new BotApiError({ error_code: 409, description: 'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running' });

interface HeldPoll {
  wake(): void;
  conflict(): void;
}

export class UpdateQueue {
  private pending: Update[] = [];
  private nextUpdateId: number;
  private allowed: string[] = [];
  private held: HeldPoll | undefined;
  private closed = false;

  constructor(firstUpdateId: number) {
    this.nextUpdateId = firstUpdateId;
  }

  /** Queues an update; an update without `update_id` gets the next one. */
  push(update: { update_id?: number }): Update {
    const updateId = update.update_id ?? this.nextUpdateId;
    this.nextUpdateId = Math.max(this.nextUpdateId, updateId + 1);
    const complete = { ...update, update_id: updateId } as Update;
    this.pending.push(complete);
    this.held?.wake();
    return complete;
  }

  pendingCount(): number {
    return this.pending.length;
  }

  dropPending(): void {
    this.pending = [];
  }

  /** Answers every held poll with an empty list and every later one at once, so a poller can stop. */
  close(): void {
    this.closed = true;
    this.held?.wake();
  }

  async getUpdates(params: Params, signal: AbortSignal): Promise<Update[]> {
    const offset = optionalInteger(params, 'offset') ?? 0;
    const limit = Math.min(100, Math.max(1, optionalInteger(params, 'limit') ?? 100));
    const timeoutSeconds = Math.max(0, optionalInteger(params, 'timeout') ?? 0);
    const allowed = optionalJson(params, 'allowed_updates');
    if (Array.isArray(allowed)) this.allowed = allowed.filter((type): type is string => typeof type === 'string');
    this.confirm(offset);
    this.held?.conflict();
    let expired = timeoutSeconds === 0;
    let superseded = false;
    let wakeUp: (() => void) | undefined;
    const mine: HeldPoll = {
      wake: () => wakeUp?.(),
      conflict: () => {
        superseded = true;
        wakeUp?.();
      },
    };
    const timer = expired
      ? undefined
      : setTimeout(() => {
          expired = true;
          mine.wake();
        }, timeoutSeconds * 1000);
    const onAbort = (): void => mine.wake();
    signal.addEventListener('abort', onAbort);
    try {
      for (;;) {
        if (superseded) throw conflictError();
        const ready = this.deliverable(limit);
        if (ready.length > 0 || expired || this.closed || signal.aborted) return ready;
        this.held = mine;
        await new Promise<void>((resolve) => (wakeUp = resolve));
      }
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      if (this.held === mine) this.held = undefined;
    }
  }

  /** offset > 0 confirms every update below it; offset < 0 keeps only the last -offset updates. */
  private confirm(offset: number): void {
    if (offset > 0) this.pending = this.pending.filter((update) => update.update_id >= offset);
    else if (offset < 0) this.pending = this.pending.slice(offset);
  }

  private deliverable(limit: number): Update[] {
    const isAllowed = (update: Update): boolean => {
      const type = Object.keys(update).find((key) => key !== 'update_id') ?? '';
      return this.allowed.length === 0 ? defaultAllowed(type) : this.allowed.includes(type);
    };
    // Telegram never delivers an update of a type the bot did not allow; it is gone, not postponed.
    this.pending = this.pending.filter(isAllowed);
    return this.pending.slice(0, limit);
  }
}
