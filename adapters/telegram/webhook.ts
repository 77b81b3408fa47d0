import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Update } from 'telegraf/types';
import type { WebhookRoute } from '../../src/shared/channel.js';
import { isRecord } from '../../src/shared/is-record.js';
import { gateRefusal, type GateState } from '../common/webhook-gate.js';

// Telegram's webhook (platforms.md §2.1): every POST carries the secret given to setWebhook in
// X-Telegram-Bot-Api-Secret-Token; the answer is 200 only once the update is stored, so anything else (a failed
// store, a shutdown, a start that has not reached Telegram yet) makes Telegram deliver it again.

export const telegramWebhookPath = '/webhooks/telegram';

/** Telegram's own rule for secret_token. */
export const webhookSecretPattern = /^[A-Za-z0-9_-]{1,256}$/;

/** An update is a few kilobytes; anything this large is not one. */
const maxBodyBytes = 1024 * 1024;

export interface TelegramWebhookOptions {
  secret: string;
  /** Stores the update; rejects when it could not be (the 500 makes Telegram retry). */
  handleUpdate(update: Update): Promise<void>;
  /**
   * Whether updates are stored: `open` once the bot's identity is known (getMe), `starting` before (a 503 after a
   * short wait: Telegram delivers it again), `closed` once the adapter stops (503, Telegram keeps it).
   */
  accepting(): Promise<GateState>;
}

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/** Equal-length digests, so the comparison takes the same time whatever the guess. */
function secretMatches(given: string | string[] | undefined, secret: string): boolean {
  return typeof given === 'string' && timingSafeEqual(digest(given), digest(secret));
}

async function readBody(request: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of request) {
    const bytes = chunk as Buffer;
    total += bytes.length;
    if (total > maxBodyBytes) return undefined;
    chunks.push(bytes);
  }
  return Buffer.concat(chunks);
}

function parseUpdate(body: Buffer): Update | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
  if (!isRecord(parsed) || typeof parsed.update_id !== 'number' || !Number.isInteger(parsed.update_id)) return undefined;
  return parsed as unknown as Update;
}

function answer(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  response.end(text);
}

export function telegramWebhookRoute(options: TelegramWebhookOptions): WebhookRoute {
  return {
    method: 'POST',
    path: telegramWebhookPath,
    handle: async (request, response) => {
      if (!secretMatches(request.headers['x-telegram-bot-api-secret-token'], options.secret)) return answer(response, 401, 'unauthorized');
      const gate = await options.accepting();
      if (gate !== 'open') return answer(response, 503, gateRefusal[gate]);
      const body = await readBody(request);
      const update = body && parseUpdate(body);
      if (!update) return answer(response, 400, 'not a Telegram update');
      await options.handleUpdate(update);
      answer(response, 200, 'ok');
    },
  };
}
