import { DiscordAPIError, RateLimitError, RESTJSONErrorCodes, REST, type RateLimitData } from 'discord.js';
import type { LiveCallOutcome } from '../common/live-message.js';
import type { DeliveryObserver } from '../../src/shared/channel.js';

// The REST client of live answers (docs/architecture.md, "Streaming answers"). The answers' client waits out every
// 429 and tries again, however long Discord asks: right for an answer, wrong for a preview, which a newer one
// replaces anyway. This one gives up on a wait longer than a live message's pace and tells the live message to pause
// (adapters/common/live-message.ts); a short wait for the bucket to reset it still takes. Its own client, because
// @discordjs/rest decides this per client, not per request.

/** Longer waits are not taken: the live message pauses and its next update tries again. */
export const previewMaxWaitMs = 1_000;

/** A preview that takes longer is dropped; the next update tries again (an answer's own client waits 15 s). */
const previewTimeoutMs = 5_000;

export interface PreviewRestOptions {
  token: string;
  apiBaseUrl?: string | undefined;
  observeDelivery?: DeliveryObserver | undefined;
}

export function previewRest(options: PreviewRestOptions): REST {
  const rest = new REST({
    ...(options.apiBaseUrl ? { api: options.apiBaseUrl } : {}),
    rejectOnRateLimit: (limit: RateLimitData) => limit.retryAfter > previewMaxWaitMs,
    // A 5xx or a timeout is not tried again here: the next update is.
    retries: 0,
    timeout: previewTimeoutMs,
  }).setToken(options.token);
  const observe = options.observeDelivery;
  // A 429 Discord gave is counted; nothing is retried by this client, so no 'retried'.
  if (observe) rest.on('response', (_request, response) => void (response.status === 429 && observe('rate-limited')));
  return rest;
}

/** A preview call's failure as a live message reads it: a rate limit pauses, a deleted message is 'gone'. */
export function previewFailure(error: unknown): LiveCallOutcome {
  if (error instanceof RateLimitError) return { retryAfterMs: error.retryAfter };
  if (error instanceof DiscordAPIError && error.code === RESTJSONErrorCodes.UnknownMessage) return 'gone';
  throw error;
}
