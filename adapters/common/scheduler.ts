// Time as an injected dependency: album quiet periods and typing renewal run on it, so tests move time by hand.

export interface Scheduler {
  /** Runs `callback` once after `delayMs`; the returned function cancels it. */
  schedule(delayMs: number, callback: () => void): () => void;
}

export const timerScheduler: Scheduler = {
  schedule: (delayMs, callback) => {
    const timer = setTimeout(callback, delayMs);
    return () => clearTimeout(timer);
  },
};

/** Resolves after `ms`; waits (429 retry_after, backoff) go through it so tests can record them instead. */
export type Sleep = (ms: number) => Promise<void>;

export const timerSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
