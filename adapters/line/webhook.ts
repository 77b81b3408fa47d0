import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { webhook } from '@line/bot-sdk';
import type { WebhookRoute } from '../../src/shared/channel.js';
import type { Logger } from '../../src/shared/log.js';
import { readRequestBody } from '../common/read-request-body.js';
import { gateRefusal, type GateState } from '../common/webhook-gate.js';
import { lineWebhookEvents } from './webhook-events.js';

// LINE's webhook (docs/platforms.md §3.1): `x-line-signature` is the base64 HMAC-SHA256 of the raw body with the channel
// secret, computed while the body streams in and compared in constant time before anything is parsed or stored;
// 401 without a valid one. A body over the cap is refused with 413 (by its Content-Length before it is read, by
// count as it arrives). The 200 comes only once every event of the batch is stored — well under a second, since
// storing never waits for a turn. Signed events that are too old or unreadable are left out (webhook-events.ts).

export const lineWebhookPath = '/webhooks/line';

/** A batch of LINE events is a few kilobytes; this is far above any real one. */
export const maxWebhookBodyBytes = 256 * 1024;

export interface LineWebhookOptions {
  channelSecret: string;
  /** Stores every event of the batch; rejects when one could not be (500: LINE delivers the batch again). */
  handleEvents(events: webhook.Event[]): Promise<void>;
  /**
   * Whether events are stored: `open` from the moment the adapter has the handler (before its start finished: LINE
   * does not deliver an event again), `closed` once it stops (503).
   */
  accepting(): Promise<GateState>;
  /** The oldest event taken (lineMaxEventAgeMs of DEDUPE_TTL_SECONDS): an older one may be a replay the queue forgot. */
  maxEventAgeMs: number;
  log: Logger;
  now?: () => number;
}

function answer(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  response.end(text);
}

function signatureMatches(given: string, computed: Buffer): boolean {
  const expected = Buffer.from(computed.toString('base64'));
  const received = Buffer.from(given);
  return received.length === expected.length && timingSafeEqual(received, expected);
}

export function lineWebhookRoute(options: LineWebhookOptions): WebhookRoute {
  const now = options.now ?? Date.now;
  return {
    method: 'POST',
    path: lineWebhookPath,
    maxBodyBytes: maxWebhookBodyBytes,
    handle: async (request, response) => {
      const signature = request.headers['x-line-signature'];
      if (typeof signature !== 'string' || signature === '') return answer(response, 401, 'signature missing');
      const hmac = createHmac('sha256', options.channelSecret);
      const body = await readRequestBody(request, maxWebhookBodyBytes, (chunk) => hmac.update(chunk));
      if (body.kind === 'aborted') return;
      if (body.kind === 'too-large') return answer(response, 413, 'body too large');
      if (!signatureMatches(signature, hmac.digest())) return answer(response, 401, 'signature invalid');
      const gate = await options.accepting();
      if (gate !== 'open') return answer(response, 503, gateRefusal[gate]);
      const batch = lineWebhookEvents(body.bytes(), now(), options.maxEventAgeMs);
      // Signed by LINE yet unreadable: a 4xx or 5xx would only have it sent again, for ever.
      if (!batch) {
        options.log.warn({ bytes: body.length }, 'line: signed webhook body is not a LINE event batch; dropped');
        return answer(response, 200, 'ok');
      }
      for (const refused of batch.refused)
        options.log.warn(refused, `line: webhook event ${refused.reason === 'too-old' ? 'older than the dedupe window' : 'malformed'}; dropped`);
      await options.handleEvents(batch.events);
      answer(response, 200, 'ok');
    },
  };
}
