/**
 * Waits for `work`, but no longer than `signal` stays unaborted: an abort rejects at once with the signal's reason.
 * The work itself goes on (shared work such as capability detection still finishes and is kept for the next caller).
 */
export function untilAborted<Result>(work: Promise<Result>, signal: AbortSignal | undefined): Promise<Result> {
  if (!signal) return work;
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<Result>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
