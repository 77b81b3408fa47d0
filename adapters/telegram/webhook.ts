import { createHash, timingSafeEqual } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Update } from 'telegraf/types';
import type { WebhookRoute } from '../../src/shared/channel.js';
import type { Logger } from '../../src/shared/log.js';
import { readRequestBody } from '../common/read-request-body.js';
import { gateRefusal, type GateState } from '../common/webhook-gate.js';
import { checkUpdateShape, type UpdateCheck } from './update-shape.js';

// Telegram's webhook (docs/platforms.md §2.1): every POST carries the secret given to setWebhook in
// X-Telegram-Bot-Api-Secret-Token, checked before the body is read; the answer is 200 only once the update is stored,
// so anything else (a failed store, a shutdown, a start that has not reached Telegram yet) makes Telegram deliver it
// again. A body over the cap is 413; an update with the secret that the adapter cannot read (update-shape.ts) is
// dropped with a log line and answered 200.

export const telegramWebhookPath = '/webhooks/telegram';

/** Telegram's own rule for secret_token. */
export const webhookSecretPattern = /^[A-Za-z0-9_-]{1,256}$/;

/** An update is a few kilobytes; anything this large is not one. */
export const maxBodyBytes = 1024 * 1024;

export interface TelegramWebhookOptions {
  secret: string;
  /** Stores the update; rejects when it could not be (the 500 makes Telegram retry). */
  handleUpdate(update: Update): Promise<void>;
  /**
   * Whether updates are stored: `open` once the bot's identity is known (getMe), `starting` before (a 503 after a
   * short wait: Telegram delivers it again), `closed` once the adapter stops (503, Telegram keeps it).
   */
  accepting(): Promise<GateState>;
  log: Logger;
}

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/** Equal-length digests, so the comparison takes the same time whatever the guess. */
function secretMatches(given: string | string[] | undefined, secret: string): boolean {
  return typeof given === 'string' && timingSafeEqual(digest(given), digest(secret));
}

function parseUpdate(body: Buffer): UpdateCheck {
  try {
    return checkUpdateShape(JSON.parse(body.toString('utf8')));
  } catch {
    return { ok: false, updateId: undefined, problem: 'not JSON' };
  }
}

function answer(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  response.end(text);
}

export function telegramWebhookRoute(options: TelegramWebhookOptions): WebhookRoute {
  return {
    method: 'POST',
    path: telegramWebhookPath,
    maxBodyBytes,
    handle: async (request, response) => {
      if (!secretMatches(request.headers['x-telegram-bot-api-secret-token'], options.secret)) return answer(response, 401, 'unauthorized');
      const gate = await options.accepting();
      if (gate !== 'open') return answer(response, 503, gateRefusal[gate]);
      const body = await readRequestBody(request, maxBodyBytes);
      if (body.kind === 'aborted') return;
      if (body.kind === 'too-large') return answer(response, 413, 'body too large');
      const update = parseUpdate(body.bytes());
      // Sent with our secret yet unreadable: any answer but 200 would have Telegram send it again, for ever.
      if (!update.ok) {
        options.log.warn({ updateId: update.updateId, problem: update.problem, bytes: body.length }, 'telegram: webhook update cannot be read; dropped');
        return answer(response, 200, 'ok');
      }
      await options.handleUpdate(update.update);
      answer(response, 200, 'ok');
    },
  };
}
