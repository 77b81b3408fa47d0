import { PerKeyChain } from '../shared/per-key-chain.js';
import type { TurnQueue } from './turn-queue.js';

/**
 * One turn at a time per conversation (FIFO), different conversations concurrently up to `concurrency`.
 * A conversation waiting for its turn holds no global slot. State lives in this process only.
 */
export class InProcessTurnQueue implements TurnQueue {
  private readonly conversations = new PerKeyChain();
  private readonly waiting: (() => void)[] = [];
  private running = 0;

  constructor(private readonly concurrency: number) {}

  run<Result>(conversationKey: string, job: () => Promise<Result>): Promise<Result> {
    return this.conversations.run(conversationKey, async () => {
      await this.acquire();
      try {
        return await job();
      } finally {
        this.release();
      }
    });
  }

  /** Conversations with queued or running work (for graceful shutdown and tests). */
  get busyConversations(): number {
    return this.conversations.pendingKeys;
  }

  /** Resolves when every queued job has finished. */
  drain(): Promise<void> {
    return this.conversations.drain();
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
