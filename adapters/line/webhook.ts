import type { IncomingMessage, ServerResponse } from 'node:http';
import { validateSignature, type webhook } from '@line/bot-sdk';
import type { WebhookRoute } from '../../src/shared/channel.js';
import { isRecord } from '../../src/shared/is-record.js';
import { gateRefusal, type GateState } from '../common/webhook-gate.js';

// LINE's webhook (platforms.md §3.1): `x-line-signature` is the base64 HMAC-SHA256 of the raw body with the channel
// secret, checked (constant time, the SDK's validateSignature) before anything is parsed or stored; 401 without a
// valid one. A body over the cap is refused with 413 as soon as it passes it. The 200 comes only once every event
// of the batch is stored — well under a second, since storing never waits for a turn.

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
}

async function readCapped(request: IncomingMessage): Promise<Buffer | 'too-large'> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxWebhookBodyBytes) return 'too-large';
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of request) {
    const bytes = chunk as Buffer;
    total += bytes.length;
    if (total > maxWebhookBodyBytes) return 'too-large';
    chunks.push(bytes);
  }
  return Buffer.concat(chunks);
}

function answer(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...(status === 413 ? { connection: 'close' } : {}) });
  response.end(text);
}

function eventsOf(body: Buffer): webhook.Event[] | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
  if (!isRecord(parsed) || !Array.isArray(parsed.events)) return undefined;
  return parsed.events.filter((event): event is webhook.Event => isRecord(event) && typeof event.type === 'string');
}

export function lineWebhookRoute(options: LineWebhookOptions): WebhookRoute {
  return {
    method: 'POST',
    path: lineWebhookPath,
    handle: async (request, response) => {
      const signature = request.headers['x-line-signature'];
      if (typeof signature !== 'string' || signature === '') return answer(response, 401, 'signature missing');
      const body = await readCapped(request);
      if (body === 'too-large') return answer(response, 413, 'body too large');
      if (!validateSignature(body, options.channelSecret, signature)) return answer(response, 401, 'signature invalid');
      const gate = await options.accepting();
      if (gate !== 'open') return answer(response, 503, gateRefusal[gate]);
      const events = eventsOf(body);
      if (!events) return answer(response, 400, 'not a LINE webhook body');
      await options.handleEvents(events);
      answer(response, 200, 'ok');
    },
  };
}
