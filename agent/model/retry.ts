import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '../../src/shared/log.js';
import { classifyFailure, isRetryable } from './errors.js';
import type { ModelError } from './types.js';

export interface RetryPolicy {
  retries: number;
  /** First delay; it doubles each time, plus up to 25 % jitter (0.5 s → 0.5, 1, 2 s…). */
  backoffMs: number;
  signal?: AbortSignal;
  log: Logger;
  /** A further veto, e.g. "no retry once visible text reached the user". */
  mayRetry?(error: ModelError): boolean;
}

/** Runs `attempt` until it succeeds, the error is not retryable, or the retries are used up; throws ModelError. */
export async function withRetries<Result>(label: string, attempt: () => Promise<Result>, policy: RetryPolicy): Promise<Result> {
  for (let attemptNumber = 0; ; attemptNumber += 1) {
    try {
      return await attempt();
    } catch (thrown) {
      const error = classifyFailure(thrown);
      const retry = attemptNumber < policy.retries && isRetryable(error) && (policy.mayRetry?.(error) ?? true) && !policy.signal?.aborted;
      policy.log.debug({ label, attempt: attemptNumber + 1, kind: error.kind, status: error.status, retry }, 'model request failed');
      if (!retry) throw error;
      const delay = policy.backoffMs * 2 ** attemptNumber * (1 + Math.random() * 0.25);
      try {
        await sleep(delay, undefined, policy.signal ? { signal: policy.signal } : undefined);
      } catch {
        throw error; // the caller gave up while we waited
      }
    }
  }
}
