import { ManualScheduler } from '../../support/manual-scheduler.js';

// A manual scheduler a test can wait on: a live message schedules its pause only once Discord answered its call, so
// the test waits for that scheduling (an event) before it moves time, never for a stretch of real time.

export class WatchedScheduler extends ManualScheduler {
  /** The delay of every task scheduled, in order. */
  readonly delays: number[] = [];
  private scheduledWaiters: { count: number; resolve: () => void }[] = [];

  override schedule(delayMs: number, callback: () => void): () => void {
    const cancel = super.schedule(delayMs, callback);
    this.delays.push(delayMs);
    const due = this.scheduledWaiters.filter((waiter) => this.delays.length >= waiter.count);
    this.scheduledWaiters = this.scheduledWaiters.filter((waiter) => !due.includes(waiter));
    for (const waiter of due) waiter.resolve();
    return cancel;
  }

  /** Resolves once `count` tasks were scheduled in all. */
  scheduled(count: number): Promise<void> {
    if (this.delays.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.scheduledWaiters.push({ count, resolve }));
  }
}
