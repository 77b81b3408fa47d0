import type { Scheduler } from './scheduler.js';

// A typing indicator lasts a few seconds or until the bot's next message (Telegram 5 s, Discord 10 s: docs/platforms.md
// §1.5, §2.5), so a running turn renews it.

export interface TypingHandle {
  /** Stops renewing and waits for an action still in flight, so none lands after the answer and shows typing again. */
  stop(): Promise<void>;
}

export interface TypingLoopOptions {
  scheduler: Scheduler;
  intervalMs: number;
  /** Sends one chat action; never rejects (failures are the sender's to log). */
  send(): Promise<void>;
  /** False once the chat cannot be reached: renewal ends by itself. */
  mayContinue(): boolean;
}

export function startTypingLoop(options: TypingLoopOptions): TypingHandle {
  const inFlight = new Set<Promise<void>>();
  let stopped = false;
  let cancel: () => void = () => undefined;
  const tick = (): void => {
    if (stopped || !options.mayContinue()) return;
    const sending = options.send().finally(() => inFlight.delete(sending));
    inFlight.add(sending);
    cancel = options.scheduler.schedule(options.intervalMs, tick);
  };
  tick();
  return {
    stop: async () => {
      stopped = true;
      cancel();
      await Promise.all(inFlight);
    },
  };
}
