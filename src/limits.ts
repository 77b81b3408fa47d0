import Bottleneck from 'bottleneck';

/**
 * One turn at a time per conversation (FIFO), different conversations concurrently up to `concurrency`.
 * A conversation waiting for its turn holds no global slot.
 */
export class ConversationQueue {
  private readonly tails = new Map<string, Promise<void>>();
  private readonly waiting: (() => void)[] = [];
  private running = 0;

  constructor(private readonly concurrency: number) {}

  run<Result>(conversationKey: string, job: () => Promise<Result>): Promise<Result> {
    const previous = this.tails.get(conversationKey) ?? Promise.resolve();
    const result = previous.then(async () => {
      await this.acquire();
      try {
        return await job();
      } finally {
        this.release();
      }
    });
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(conversationKey, tail);
    void tail.then(() => {
      if (this.tails.get(conversationKey) === tail) this.tails.delete(conversationKey);
    });
    return result;
  }

  /** Conversations with queued or running work (for graceful shutdown and tests). */
  get busyConversations(): number {
    return this.tails.size;
  }

  /** Resolves when every queued job has finished. */
  async drain(): Promise<void> {
    while (this.tails.size > 0) await Promise.all([...this.tails.values()]);
  }

  private acquire(): Promise<void> {
    if (this.running < this.concurrency) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(() => resolve()));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }
}

/** Per-user message quota: `perMinute` messages per user per minute, via bottleneck reservoirs. */
export class UserQuota {
  private readonly group: Bottleneck.Group;
  private readonly noticeSentAt = new Map<string, number>();

  constructor(readonly perMinute: number, private readonly windowMs = 60_000) {
    this.group = new Bottleneck.Group({
      reservoir: perMinute,
      reservoirRefreshAmount: perMinute,
      reservoirRefreshInterval: windowMs,
      timeout: windowMs * 2, // idle per-user limiters are dropped
    });
  }

  /** Takes one unit of the user's quota; false when it is used up. */
  async take(userKey: string): Promise<boolean> {
    // One atomic reservoir step (no job scheduling: that costs bottleneck's timer round trips on every message).
    // Below zero means the quota is used up; the refresh sets the reservoir back to `perMinute`.
    const left = await this.group.key(userKey).incrementReservoir(-1);
    return left === null || left >= 0;
  }

  /** True once per window per user, so a flooding user hears the notice once, not on every message. */
  shouldNotify(userKey: string, now = Date.now()): boolean {
    const last = this.noticeSentAt.get(userKey);
    if (last !== undefined && now - last < this.windowMs) return false;
    this.noticeSentAt.set(userKey, now);
    return true;
  }

  async close(): Promise<void> {
    await Promise.all(this.group.limiters().map(({ limiter }) => limiter.disconnect()));
  }
}
