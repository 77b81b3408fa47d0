import type { Scheduler, Sleep } from '../../adapters/common/scheduler.js';

/** A scheduler whose time moves only when a test says so. */
export class ManualScheduler implements Scheduler {
  private now = 0;
  private tasks: { at: number; callback: () => void; cancelled: boolean }[] = [];
  private waiters: { count: number; resolve: () => void }[] = [];

  schedule(delayMs: number, callback: () => void): () => void {
    const task = { at: this.now + delayMs, callback, cancelled: false };
    this.tasks.push(task);
    this.wakeWaiters();
    return () => {
      task.cancelled = true;
    };
  }

  /** Runs, in time order, every task due within `ms` (tasks scheduled meanwhile included). */
  advance(ms: number): void {
    const until = this.now + ms;
    for (;;) {
      const due = this.tasks.filter((task) => !task.cancelled && task.at <= until).sort((left, right) => left.at - right.at)[0];
      if (!due) break;
      this.now = due.at;
      due.cancelled = true;
      due.callback();
    }
    this.now = until;
    this.tasks = this.tasks.filter((task) => !task.cancelled);
  }

  pending(): number {
    return this.tasks.filter((task) => !task.cancelled).length;
  }

  /** Resolves once at least `count` tasks wait (something async scheduled its next step): no polling, no sleep. */
  untilPending(count = 1): Promise<void> {
    return new Promise((resolve) => {
      this.waiters.push({ count, resolve });
      this.wakeWaiters();
    });
  }

  private wakeWaiters(): void {
    const pending = this.pending();
    const ready = this.waiters.filter((waiter) => pending >= waiter.count);
    this.waiters = this.waiters.filter((waiter) => pending < waiter.count);
    for (const waiter of ready) waiter.resolve();
  }
}

/** A sleep that returns at once and remembers every wait it was asked for. */
export function recordingSleep(): { sleep: Sleep; waits: number[] } {
  const waits: number[] = [];
  return {
    waits,
    sleep: (ms) => {
      waits.push(ms);
      return Promise.resolve();
    },
  };
}
