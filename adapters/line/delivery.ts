import { createHash } from 'node:crypto';
import { HTTPFetchError, type messagingApi } from '@line/bot-sdk';
import type { DeliveryObserver } from '../../src/shared/channel.js';
import type { Logger } from '../../src/shared/log.js';
import type { Sleep } from '../common/scheduler.js';

// One answer to LINE (docs/platforms.md §3.4): every bubble in one reply call while the reply token lives; else — too
// late, or the token refused — one push with an `X-Line-Retry-Key` derived from the message, so a push retried
// after a crash is not delivered twice. Pushes count against the monthly quota: used only then. A 429 rate limit
// waits and tries again (bounded); the monthly limit is not retried and is remembered for /status.

export interface Bubble {
  type: 'text';
  text: string;
  quoteToken?: string;
}

/** A message LINE accepted: its id, and the text it carried. */
export interface SentBubble {
  id: string;
  text: string;
}

/** The ids LINE returned, with the texts of the bubbles they belong to (in the same order). */
export function sentBubbles(bubbles: readonly Bubble[], ids: readonly string[]): SentBubble[] {
  return ids.flatMap((id, index) => (bubbles[index] ? [{ id, text: bubbles[index].text }] : []));
}

export type LineSendFailure = 'quota-exhausted' | 'rejected' | 'network';

export class LineSendError extends Error {
  override readonly name = 'LineSendError';

  constructor(
    readonly kind: LineSendFailure,
    readonly status: number | undefined,
    detail: string,
  ) {
    super(`line send failed: ${kind}${status === undefined ? '' : ` (${status})`}: ${detail}`);
  }
}

/** The body's `message`, e.g. "Invalid reply token" (LINE error bodies are `{ message, details? }`). */
export function lineErrorMessage(error: unknown): string {
  if (!(error instanceof HTTPFetchError)) return error instanceof Error ? error.name : 'unknown error';
  try {
    const parsed = JSON.parse(error.body) as { message?: unknown };
    return typeof parsed.message === 'string' ? parsed.message.slice(0, 200) : `HTTP ${error.status}`;
  } catch {
    return `HTTP ${error.status}`;
  }
}

const isInvalidReplyToken = (error: unknown) => error instanceof HTTPFetchError && error.status === 400 && /reply token/i.test(lineErrorMessage(error));
const isMonthlyLimit = (error: unknown) => error instanceof HTTPFetchError && error.status === 429 && /monthly limit/i.test(lineErrorMessage(error));
const isRateLimit = (error: unknown) => error instanceof HTTPFetchError && error.status === 429 && !isMonthlyLimit(error);
const isRetryable = (error: unknown) => isRateLimit(error) || (error instanceof HTTPFetchError ? error.status >= 500 : error instanceof Error);

/** A UUID made from the message and reply (LINE wants a UUID): the same push, tried again, carries the same key. */
export function retryKeyFor(seed: string): string {
  const hex = createHash('sha256').update(seed).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export interface SendOptions {
  client: messagingApi.MessagingApiClient;
  logger: Logger;
  sleep: Sleep;
  /** Told when LINE says the monthly message quota is used up (for /status). */
  onQuotaExhausted(): void;
  /** Counts reply/push calls that went out, retries and 429s (src/metrics.ts). */
  observeDelivery?: DeliveryObserver | undefined;
}

export interface Destination {
  chatId: string;
  replyToken: string | undefined;
  /** The reply token is still worth trying (inside LINE_REPLY_WINDOW_MS). */
  replyTokenFresh: boolean;
  /** Seeds the push's retry key: the stored message and reply index. */
  retrySeed: string;
}

const attempts = 3;

async function withRetries<Result>(call: () => Promise<Result>, options: SendOptions): Promise<Result> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await call();
    } catch (error) {
      // The monthly quota's 429 is no rate limit (failure() reports it): not counted as one.
      if (isRateLimit(error)) options.observeDelivery?.('rate-limited');
      if (!isRetryable(error) || attempt >= attempts) throw error;
      options.logger.info({ attempt, problem: lineErrorMessage(error) }, 'line: sending failed, trying again');
      await options.sleep(1000 * attempt);
      options.observeDelivery?.('retried');
    }
  }
}

function failure(error: unknown, options: SendOptions): LineSendError {
  if (isMonthlyLimit(error)) {
    options.onQuotaExhausted();
    options.logger.error(
      'line: the monthly message quota is used up (push refused with "You have reached your monthly limit"): answers can only go out as replies until it resets or the plan is upgraded',
    );
    return new LineSendError('quota-exhausted', 429, lineErrorMessage(error));
  }
  if (error instanceof HTTPFetchError) return new LineSendError('rejected', error.status, lineErrorMessage(error));
  return new LineSendError('network', undefined, lineErrorMessage(error));
}

/** Sends the bubbles (1–5) as the reply to `replyToken`; undefined when LINE refused the token (nothing went out). */
export async function replyBubbles(replyToken: string, bubbles: Bubble[], options: SendOptions): Promise<string[] | undefined> {
  try {
    const replied = await withRetries(() => options.client.replyMessage({ replyToken, messages: bubbles }), options);
    options.observeDelivery?.('sent');
    return (replied.sentMessages ?? []).map((sent) => sent.id);
  } catch (error) {
    if (isInvalidReplyToken(error)) return undefined;
    throw failure(error, options);
  }
}

/** Sends the bubbles (1–5) as one reply, else one push; the ids LINE gave the sent messages. */
export async function sendBubbles(destination: Destination, bubbles: Bubble[], options: SendOptions): Promise<string[]> {
  const { client } = options;
  if (destination.replyToken && destination.replyTokenFresh) {
    const replied = await replyBubbles(destination.replyToken, bubbles, options);
    if (replied) return replied;
    options.logger.info({ chatId: destination.chatId }, 'line: reply token no longer valid; pushing the answer');
  }
  // A quote token belongs to a reply; a push quotes just as well, so it stays.
  try {
    const retryKey = retryKeyFor(destination.retrySeed);
    const pushed = await withRetries(() => client.pushMessage({ to: destination.chatId, messages: bubbles }, retryKey), options);
    options.observeDelivery?.('sent');
    return (pushed.sentMessages ?? []).map((sent) => sent.id);
  } catch (error) {
    // 409: this retry key was accepted before (the push went out before a crash): nothing to send again.
    if (error instanceof HTTPFetchError && error.status === 409) return [];
    throw failure(error, options);
  }
}
