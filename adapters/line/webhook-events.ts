import type { webhook } from '@line/bot-sdk';
import { isRecord } from '../../src/shared/is-record.js';

// The events of a signed LINE webhook body that are taken (docs/architecture.md, "Data flow of one message", step 2).
// Signed means LINE sent it once, not that it is new or well formed: an event older than the dedupe window may be a
// replay the queue no longer remembers, and an event the adapter cannot read would fail the whole batch on every
// redelivery. Both are left out with a reason; the batch is still answered 200, so LINE stops sending them.

/**
 * LINE's clock and ours may differ: an event is refused this much before its id leaves the dedupe window, and the
 * window is at least halved, so a redelivery the queue could have forgotten is never taken as new.
 */
export const lineClockSkewMarginMs = 5 * 60_000;

/** The oldest event taken, from the dedupe window (DEDUPE_TTL_SECONDS): within it a redelivery is a known duplicate. */
export function lineMaxEventAgeMs(dedupeTtlMs: number): number {
  return Math.max(dedupeTtlMs - lineClockSkewMarginMs, dedupeTtlMs / 2);
}

export type LineEventRefusal = 'malformed' | 'too-old';

export interface LineWebhookEvents {
  events: webhook.Event[];
  refused: { webhookEventId: string | undefined; reason: LineEventRefusal; ageSeconds?: number }[];
}

function mentionWellFormed(mention: unknown): boolean {
  if (!isRecord(mention)) return false;
  const { mentionees } = mention;
  if (mentionees === undefined) return true;
  return Array.isArray(mentionees) && mentionees.every((mentionee) => isRecord(mentionee) && typeof mentionee.type === 'string');
}

/** What the adapter reads of every event (adapters/line/inbound.ts, addressing.ts, index.ts). */
function wellFormed(event: Record<string, unknown>): boolean {
  if (typeof event.type !== 'string' || typeof event.webhookEventId !== 'string') return false;
  if (typeof event.timestamp !== 'number' || !Number.isFinite(event.timestamp)) return false;
  if (event.source !== undefined && (!isRecord(event.source) || typeof event.source.type !== 'string')) return false;
  if (event.replyToken !== undefined && typeof event.replyToken !== 'string') return false;
  if (event.type !== 'message') return true;
  const message = event.message;
  if (!isRecord(message) || typeof message.type !== 'string' || typeof message.id !== 'string') return false;
  // Read for text and stickers only (a quote of the bot's message addresses it).
  const quotes = message.type === 'text' || message.type === 'sticker';
  if (quotes && message.quotedMessageId !== undefined && typeof message.quotedMessageId !== 'string') return false;
  if (message.type === 'text') {
    return typeof message.text === 'string' && (message.mention === undefined || mentionWellFormed(message.mention));
  }
  if (message.type === 'image') return isRecord(message.contentProvider) && typeof message.contentProvider.type === 'string';
  if (message.type === 'file') return typeof message.fileName === 'string' && typeof message.fileSize === 'number';
  return true;
}

/** The body's events, or undefined when the body is not a LINE webhook body at all. */
export function lineWebhookEvents(body: Buffer, now: number, maxAgeMs: number): LineWebhookEvents | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
  if (!isRecord(parsed) || !Array.isArray(parsed.events)) return undefined;
  const result: LineWebhookEvents = { events: [], refused: [] };
  for (const event of parsed.events as unknown[]) {
    const webhookEventId = isRecord(event) && typeof event.webhookEventId === 'string' ? event.webhookEventId.slice(0, 64) : undefined;
    if (!isRecord(event) || !wellFormed(event)) {
      result.refused.push({ webhookEventId, reason: 'malformed' });
      continue;
    }
    const age = now - (event.timestamp as number);
    if (age > maxAgeMs) {
      result.refused.push({ webhookEventId, reason: 'too-old', ageSeconds: Math.round(age / 1000) });
      continue;
    }
    result.events.push(event as unknown as webhook.Event);
  }
  return result;
}
