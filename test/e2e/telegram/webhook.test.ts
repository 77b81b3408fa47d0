import type { AddressInfo } from 'node:net';
import type http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { startHttpServer } from '../../../src/http.js';
import { Metrics } from '../../../src/metrics.js';
import { adapterRoutes, createPlatformAdapters } from '../../../src/platforms.js';
import { silentLogger } from '../../../src/shared/log.js';
import { privateChat, startFakeTelegram, textMessageUpdate, user } from '../../fakes/telegram/index.js';
import { startTelegramHarness, type TelegramHarness } from './telegram-harness.js';
import { testInboundHandler } from '../../support/inbound-handler.js';
import { rawRequest } from '../../support/raw-http.js';

// Webhook mode through the real HTTP server (src/http.ts): setWebhook with the secret at start, 401 without the
// secret header, 413 for a body too large (read whole, no reset), 200 with a log line for an unreadable update with
// the secret (a poison update would be redelivered for ever), 200 once the update is stored, and the answer after.

const somchai = user(501, 'สมชาย', 'somchai');
const direct = privateChat(somchai);
const secret = 'webhook-secret_0123456789';
const webhookUrl = 'https://bot.example.com/webhooks/telegram';

let harness: TelegramHarness | undefined;
let server: http.Server | undefined;
afterEach(async () => {
  server?.close();
  await harness?.close();
  harness = undefined;
  server = undefined;
});

function port(): number {
  if (!server) throw new Error('no server');
  return (server.address() as AddressInfo).port;
}

async function post(body: string, headers: Record<string, string>): Promise<number> {
  const response = await fetch(`http://127.0.0.1:${port()}/webhooks/telegram`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', ...headers },
  });
  await response.text();
  return response.status;
}

describe('Telegram webhook', () => {
  it('sets the webhook with its secret, refuses forged and malformed posts, and stores an update before the 200', async () => {
    harness = await startTelegramHarness({ environment: { TELEGRAM_WEBHOOK_URL: webhookUrl, TELEGRAM_WEBHOOK_SECRET: secret } });
    const { telegram, adapter, test } = harness;
    expect(telegram.webhook()).toMatchObject({ url: webhookUrl, secret_token: secret, allowed_updates: ['message'] });
    expect(telegram.callsOf('getUpdates')).toEqual([]);
    server = await startHttpServer({
      port: 0,
      metrics: new Metrics(),
      log: silentLogger(),
      routes: adapterRoutes([adapter]),
    });

    const update = { ...textMessageUpdate({ chat: direct, from: somchai, text: 'สวัสดีทางเว็บฮุก' }), update_id: 900_000_001 };
    telegram.rememberUpdate(update);
    const body = JSON.stringify(update);
    expect(await post(body, {})).toBe(401);
    expect(await post(body, { 'x-telegram-bot-api-secret-token': `${secret}x` })).toBe(401);
    // With the secret yet unreadable: dropped with a log line and 200, or Telegram would send it again for ever.
    expect(await post('{"message":{}}', { 'x-telegram-bot-api-secret-token': secret })).toBe(200);
    expect(await post('not json', { 'x-telegram-bot-api-secret-token': secret })).toBe(200);
    const poison = { update_id: 900_000_000, message: { message_id: 1, date: 1, chat: 'not a chat', text: 'x' } };
    expect(await post(JSON.stringify(poison), { 'x-telegram-bot-api-secret-token': secret })).toBe(200);
    expect(harness.adapterLog.filter((record) => record.msg === 'telegram: webhook update cannot be read; dropped')).toMatchObject([
      { problem: 'update_id: invalid_type' },
      { problem: 'not JSON' },
      { updateId: 900_000_000, problem: 'message.chat: invalid_type' },
    ]);
    // Too large for an update: 413, and the answer is read whole (no reset).
    const huge = await rawRequest(
      port(),
      [`POST /webhooks/telegram HTTP/1.1\r\nHost: x\r\nX-Telegram-Bot-Api-Secret-Token: ${secret}\r\nTransfer-Encoding: chunked\r\n\r\n`],
      { keepSending: { chunk: Buffer.from(`4000\r\n${'z'.repeat(0x4000)}\r\n`), max: 2 * 1024 * 1024 } },
    );
    expect([huge.status, huge.end]).toEqual([413, 'answered']);
    const declared = await rawRequest(port(), [
      `POST /webhooks/telegram HTTP/1.1\r\nHost: x\r\nX-Telegram-Bot-Api-Secret-Token: ${secret}\r\nContent-Length: 2000000\r\n\r\n`,
    ]);
    expect([declared.status, declared.end]).toEqual([413, 'answered']);
    expect(harness.handled).toEqual([]);

    harness.model.script({ text: 'สวัสดีครับ' });
    expect(await post(body, { 'x-telegram-bot-api-secret-token': secret })).toBe(200);
    await test.app.inbound.idle();
    expect(harness.sentTexts(direct.id)).toEqual(['สวัสดีครับ']);
    // Telegram delivers again when it missed the 200: the stored message is not answered twice.
    expect(await post(body, { 'x-telegram-bot-api-secret-token': secret })).toBe(200);
    await test.app.inbound.idle();
    expect(harness.sentTexts(direct.id)).toEqual(['สวัสดีครับ']);
  });

  it('stores an update that arrives while the start is under way (after getMe), and says "shutting down" once stopped', async () => {
    const telegram = await startFakeTelegram();
    try {
      const config = loadConfig({
        TELEGRAM_BOT_TOKEN: telegram.token,
        TELEGRAM_API_ROOT: telegram.url,
        TELEGRAM_WEBHOOK_URL: webhookUrl,
        TELEGRAM_WEBHOOK_SECRET: secret,
      });
      const [adapter] = createPlatformAdapters(config, silentLogger());
      if (!adapter) throw new Error('no adapter');
      server = await startHttpServer({ port: 0, metrics: new Metrics(), log: silentLogger(), routes: adapterRoutes([adapter]) });
      const stored: string[] = [];
      // getMe answered, the start held at the command menu: still under way when the update comes.
      telegram.holdNext('setMyCommands');
      const starting = adapter.start(testInboundHandler(async (message) => (stored.push(message.text), 'stored')));
      await telegram.waitForCall('setMyCommands');
      const update = { ...textMessageUpdate({ chat: direct, from: somchai, text: 'มาก่อนบอทพร้อม' }), update_id: 900_000_010 };
      telegram.rememberUpdate(update);
      // Stored before its 200, not refused with 503 because start() has not returned yet.
      expect(await post(JSON.stringify(update), { 'x-telegram-bot-api-secret-token': secret })).toBe(200);
      expect(stored).toEqual(['มาก่อนบอทพร้อม']);
      telegram.releaseHeld();
      await starting;

      await adapter.stop();
      const late = { ...update, update_id: 900_000_011 };
      if (!server) throw new Error('no server');
      const { port } = server.address() as AddressInfo;
      const refused = await fetch(`http://127.0.0.1:${port}/webhooks/telegram`, {
        method: 'POST',
        body: JSON.stringify(late),
        headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': secret },
      });
      expect(refused.status).toBe(503);
      expect(await refused.text()).toBe('shutting down: deliver again later');
    } finally {
      await telegram.close();
    }
  });

  it('refuses to start in webhook mode without TELEGRAM_WEBHOOK_SECRET, naming the variable', async () => {
    const telegram = await startFakeTelegram();
    try {
      const config = loadConfig({ TELEGRAM_BOT_TOKEN: telegram.token, TELEGRAM_API_ROOT: telegram.url, TELEGRAM_WEBHOOK_URL: webhookUrl });
      const [adapter] = createPlatformAdapters(config, silentLogger());
      expect(adapter?.routes).toBeUndefined();
      await expect(adapter?.start(testInboundHandler())).rejects.toThrow('TELEGRAM_WEBHOOK_SECRET is required when TELEGRAM_WEBHOOK_URL is set');
      expect(telegram.calls).toEqual([]);
    } finally {
      await telegram.close();
    }
  });
});
