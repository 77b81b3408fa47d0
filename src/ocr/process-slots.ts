// At most `limit` jobs at once; the others wait in arrival order. A waiting job whose signal aborts leaves the line
// without ever starting. Tesseract takes a core per process, so this is what keeps OCR from crowding the model out.

export interface ProcessSlots {
  /** Runs `job` when a slot is free; resolves 'cancelled' when `signal` aborts before that. */
  run<Result>(job: () => Promise<Result>, signal?: AbortSignal): Promise<Result | 'cancelled'>;
  /** Jobs running now (for tests and metrics). */
  readonly running: number;
  readonly waiting: number;
}

interface Waiter {
  start: () => void;
}

export function createProcessSlots(limit: number): ProcessSlots {
  const capacity = Math.max(1, Math.floor(limit));
  let running = 0;
  const line: Waiter[] = [];

  const release = (): void => {
    running -= 1;
    const next = line.shift();
    if (next) next.start();
  };

  const acquire = (signal?: AbortSignal): Promise<boolean> => {
    if (signal?.aborted) return Promise.resolve(false);
    if (running < capacity) {
      running += 1;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const waiter: Waiter = {
        start: () => {
          signal?.removeEventListener('abort', onAbort);
          running += 1;
          resolve(true);
        },
      };
      const onAbort = (): void => {
        const index = line.indexOf(waiter);
        if (index >= 0) line.splice(index, 1);
        resolve(false);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      line.push(waiter);
    });
  };

  return {
    async run(job, signal) {
      if (!(await acquire(signal))) return 'cancelled';
      try {
        return await job();
      } finally {
        release();
      }
    },
    get running() {
      return running;
    },
    get waiting() {
      return line.length;
    },
  };
}
