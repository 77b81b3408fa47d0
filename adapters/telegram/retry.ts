import { TelegramDeliveryError } from './delivery-failure.js';
import { classifySendError } from './send-problem.js';
import type { Sleep } from '../common/scheduler.js';
import type { DeliveryObserver } from '../../src/shared/channel.js';

// One Bot API call, tried again on what passes: 429 waits the `retry_after` Telegram asked for, connection failures
// and 5xx back off exponentially. Both are bounded, by attempts and by the total time spent waiting, so a flooded
// chat ends in a typed failure instead of a turn that never finishes. Other failures are thrown as they came.

export interface RetryPolicy {
  /** Tries in all, the first included. */
  maxAttempts: number;
  /** First backoff after a connection failure; doubled each time up to `maxBackoffMs`. */
  baseBackoffMs: number;
  maxBackoffMs: number;
  /** The most time one call may spend waiting across its retries. */
  maxTotalWaitMs: number;
}

/** Telegram's flood waits are usually a few seconds; a minute of waiting per message is the most a user should sit through. */
export const defaultRetryPolicy: RetryPolicy = { maxAttempts: 5, baseBackoffMs: 500, maxBackoffMs: 8_000, maxTotalWaitMs: 60_000 };

export interface RetryContext {
  sleep: Sleep;
  policy: RetryPolicy;
  chatId: number;
  /** For the failure: parts already sent by the caller. */
  sentParts: number;
  /** Told of each 429 and each retry (the /metrics counters). */
  observe?: DeliveryObserver | undefined;
}

export async function withRetry<Result>(call: () => Promise<Result>, context: RetryContext): Promise<Result> {
  const { policy } = context;
  let waited = 0;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await call();
    } catch (error) {
      const problem = classifySendError(error);
      if (problem.kind !== 'rate-limited' && problem.kind !== 'network') throw error;
      if (problem.kind === 'rate-limited') context.observe?.('rate-limited');
      const waitMs =
        problem.kind === 'rate-limited' ? problem.retryAfterSeconds * 1000 : Math.min(policy.maxBackoffMs, policy.baseBackoffMs * 2 ** (attempt - 1));
      if (attempt >= policy.maxAttempts || waited + waitMs > policy.maxTotalWaitMs) {
        const detail = problem.kind === 'rate-limited' ? { retryAfterSeconds: problem.retryAfterSeconds } : {};
        throw new TelegramDeliveryError(problem.kind, context.chatId, context.sentParts, detail);
      }
      waited += waitMs;
      await context.sleep(waitMs);
      context.observe?.('retried');
    }
  }
}
