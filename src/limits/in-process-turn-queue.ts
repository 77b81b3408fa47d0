import type { TurnQueue } from './turn-queue.js';

/**
 * One turn at a time per conversation (FIFO), different conversations concurrently up to `concurrency`.
 * A conversation waiting for its turn holds no global slot. State lives in this process only.
 */
export class InProcessTurnQueue implements TurnQueue {
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
