import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { messagingApi } from '@line/bot-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { createLineAdapter } from '../../../adapters/line/index.js';
import { checkLineWebhook, describeWebhookCheck } from '../../../adapters/line/webhook-check.js';
import { startHttpServer } from '../../../src/http.js';
import { Metrics } from '../../../src/metrics.js';
import type { PlatformAdapter } from '../../../src/shared/channel.js';
import type { Language } from '../../../src/shared/types.js';
import { startLineHarness, type LineHarness } from '../../e2e/line/line-harness.js';
import { lineUserId, startFakeLine, userSource, type FakeLine } from '../../fakes/line/index.js';
import { testInboundHandler } from '../../support/inbound-handler.js';
import { memoryLog, type LogRecord } from '../../support/memory-log.js';

// Can LINE reach the bot? The adapter asks LINE's webhook-endpoint API at start (one log line) and for an admin's
// /status: the URL on file, "Use webhook", whether it is the bot's route (PUBLIC_BASE_URL), and a test delivery the
// fake LINE really makes — a signed empty event batch POSTed to that URL, reported as LINE reports it.

const warn = 40;
let line: FakeLine | undefined;
let server: Server | undefined;
let adapter: PlatformAdapter | undefined;
let harness: LineHarness | undefined;

afterEach(async () => {
  await adapter?.stop();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  await line?.close();
  await harness?.close();
  [line, server, adapter, harness] = [undefined, undefined, undefined, undefined];
});

/** The bot's webhook on a real HTTP server, then the adapter's start, and its start-up check. */
async function startBot(options: { language?: Language; publicBaseUrl?: (base: string) => string; endpoint?: (base: string) => string; active?: boolean }) {
  const fake = (line = await startFakeLine());
  const { log, records } = memoryLog('info', [fake.channelSecret, fake.channelAccessToken]);
  const pending = { publicBaseUrl: undefined as string | undefined };
  adapter = createLineAdapter({
    channelSecret: fake.channelSecret,
    channelAccessToken: fake.channelAccessToken,
    apiBaseUrl: fake.url,
    dataApiBaseUrl: fake.url,
    replyWindowMs: 50_000,
    dedupeTtlMs: 3_600_000,
    logger: log,
    language: options.language ?? 'th',
    timeZone: 'Asia/Bangkok',
    get publicBaseUrl() {
      return pending.publicBaseUrl;
    },
  });
  server = await startHttpServer({ port: 0, metrics: new Metrics(), log, routes: adapter.routes ?? [] });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  pending.publicBaseUrl = options.publicBaseUrl?.(base);
  if (options.endpoint) fake.setWebhookEndpoint(options.endpoint(base), options.active ?? true);
  await adapter.start(testInboundHandler());
  // Stopping closes the webhook: first LINE's last call of the check is answered (stop() then waits for the log line).
  const last = options.endpoint ? 'POST /v2/bot/channel/webhook/test' : 'GET /v2/bot/channel/webhook/endpoint';
  await fake.waitForCall(last, (call) => call.outcome !== undefined);
  await adapter.stop();
  return { fake, records, base, check: records.filter((record) => record.msg.startsWith('LINE webhook')) };
}

const levels = (records: LogRecord[]) => records.map((record) => record.level);

describe('LINE webhook check at start', () => {
  it('logs the URL on file, that it is the bot’s route, and LINE’s test delivery reaching it (signed, empty events)', async () => {
    const { fake, check, base } = await startBot({ publicBaseUrl: (url) => `${url}/`, endpoint: (url) => `${url}/webhooks/line` });
    expect(check).toHaveLength(1);
    expect(check[0]?.msg).toBe(`LINE webhook: URL ที่ LINE ใช้คือ ${base}/webhooks/line; เปิด "Use webhook" แล้ว; ตรงกับ PUBLIC_BASE_URL; ทดสอบส่งถึงบอทแล้ว (HTTP 200)`);
    expect(levels(check)).not.toContain(warn);
    const test = fake.callsOf('POST /v2/bot/channel/webhook/test')[0];
    expect(test?.outcome).toMatchObject({ status: 200, body: { success: true, statusCode: 200, reason: 'OK', detail: '200' } });
  });

  it('warns in English when the URL is another one, "Use webhook" is off, and nothing answers there', async () => {
    const { check } = await startBot({ language: 'en', publicBaseUrl: (url) => url, endpoint: () => 'http://127.0.0.1:9/webhooks/line', active: false });
    expect(check[0]?.level).toBe(warn);
    expect(check[0]?.msg).toContain('but "Use webhook" is off');
    expect(check[0]?.msg).toMatch(/differs from the bot’s own route \(http:\/\/127\.0\.0\.1:\d+\/webhooks\/line\)/);
    expect(check[0]?.msg).toContain('test delivery failed: COULD_NOT_CONNECT Connection failed: http://127.0.0.1:9/webhooks/line (HTTP 0)');
  });

  it('reports the status the bot’s route answered when LINE’s delivery is refused (a route that is not the webhook)', async () => {
    const { check } = await startBot({ endpoint: (url) => `${url}/webhooks/telegram` });
    expect(check[0]?.level).toBe(warn);
    expect(check[0]?.msg).toContain('ทดสอบส่งไม่ผ่าน: ERROR_STATUS_CODE 404 (HTTP 404)');
  });

  it('says no URL is set, with the one to set, and makes no test delivery', async () => {
    const { fake, check, base } = await startBot({ publicBaseUrl: (url) => url });
    expect(check[0]?.msg).toContain(`ยังไม่ได้ตั้ง Webhook URL ใน LINE Developers console (แท็บ Messaging API) — ตั้งเป็น ${base}/webhooks/line`);
    expect(fake.callsOf('POST /v2/bot/channel/webhook/test')).toEqual([]);
  });
});

describe('checkLineWebhook', () => {
  it('turns a refused token and a LINE that does not answer into one line each, never a throw', async () => {
    const fake = (line = await startFakeLine());
    fake.setWebhookEndpoint('https://bot.example.com/webhooks/line');
    const refused = new messagingApi.MessagingApiClient({ channelAccessToken: 'not-the-token', baseURL: fake.url });
    const badToken = await checkLineWebhook(refused, undefined);
    expect(describeWebhookCheck(badToken, 'en')).toBe(
      'LINE webhook: could not ask LINE which webhook URL it has (HTTP 401: Authentication failed. Confirm that the access token in the authorization header is valid.)',
    );
    fake.holdNext('GET /v2/bot/channel/webhook/endpoint');
    const client = new messagingApi.MessagingApiClient({ channelAccessToken: fake.channelAccessToken, baseURL: fake.url });
    const silent = await checkLineWebhook(client, undefined, 100);
    expect(describeWebhookCheck(silent, 'th')).toBe('LINE webhook: ถาม LINE ไม่ได้ว่าตั้ง webhook URL ไว้อย่างไร (no answer from LINE within 0.1 s)');
    fake.releaseHeld();
  });

  it('reports REQUEST_TIMEOUT when the bot takes longer than LINE waits', async () => {
    const fake = (line = await startFakeLine());
    const neverAnswers = createServer(() => undefined);
    server = neverAnswers;
    await new Promise<void>((resolve) => neverAnswers.listen(0, '127.0.0.1', resolve));
    fake.setWebhookEndpoint(`http://127.0.0.1:${(neverAnswers.address() as AddressInfo).port}/webhooks/line`);
    fake.setWebhookTestTimeout(100);
    const client = new messagingApi.MessagingApiClient({ channelAccessToken: fake.channelAccessToken, baseURL: fake.url });
    const check = await checkLineWebhook(client, undefined);
    expect(check).toMatchObject({ kind: 'checked', active: true, delivery: { ok: false, statusCode: 0, reason: 'REQUEST_TIMEOUT' } });
    neverAnswers.closeAllConnections();
  });
});

describe('/status for an admin', () => {
  it('has the webhook line; a user’s /status does not', async () => {
    const admin = lineUserId('somchai');
    const user = lineUserId('malee');
    harness = await startLineHarness({ environment: { ADMIN_IDS: `line:${admin}` } });
    harness.line.setWebhookEndpoint(harness.webhookUrl);
    await harness.deliver(harness.line.textEvent({ source: userSource(admin), text: '/status' }));
    expect(harness.sentTexts(admin).at(-1)).toContain(`LINE webhook: URL ที่ LINE ใช้คือ ${harness.webhookUrl}; เปิด "Use webhook" แล้ว; ทดสอบส่งถึงบอทแล้ว (HTTP 200)`);
    await harness.deliver(harness.line.textEvent({ source: userSource(user), text: '/status' }));
    expect(harness.sentTexts(user).at(-1)).not.toContain('LINE webhook');
  });
});
