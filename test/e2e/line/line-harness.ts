import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { webhook } from '@line/bot-sdk';
import type { AppOptions } from '../../../src/app.js';
import { loadConfig } from '../../../src/config.js';
import { startHttpServer } from '../../../src/http.js';
import { Metrics } from '../../../src/metrics.js';
import { createPlatformAdapters, startAdapters, stopAdapters } from '../../../src/platforms.js';
import type { HandledMessage } from '../../../src/pipeline/router.js';
import type { DeliveryEvent, InboundHandler, PlatformAdapter } from '../../../src/shared/channel.js';
import { startFakeLine, type FakeLine, type FakeLineOptions, type PostWebhookOptions, type WebhookAnswer } from '../../fakes/line/index.js';
import { startFakeModelServer, type FakeModelServer } from '../../fakes/model-server.js';
import { memoryLog, type LogRecord } from '../../support/memory-log.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

// One whole bot for a LINE end-to-end test: the fake LINE platform (API + data API), the fake model server, the
// LINE adapter as src/platforms.ts builds it from the environment (real @line/bot-sdk), its webhook mounted on the
// real HTTP server, and the real app with its durable queue.

export interface LineHarness {
  line: FakeLine;
  model: FakeModelServer;
  test: TestApp;
  adapter: PlatformAdapter;
  adapterLog: LogRecord[];
  handled: HandledMessage[];
  /** What the adapter reported of its sending (the /metrics counters), in order. */
  deliveryEvents: DeliveryEvent[];
  webhookUrl: string;
  /** Posts the events signed, and waits until the queue is idle again (every stored event answered or ignored). */
  deliver(...events: webhook.Event[]): Promise<WebhookAnswer>;
  post(body: unknown, options?: PostWebhookOptions): Promise<WebhookAnswer>;
  /** Texts the bot sent to a chat, in order. */
  sentTexts(chatId: string): string[];
  close(): Promise<void>;
}

export interface LineHarnessOptions {
  line?: FakeLineOptions;
  environment?: Record<string, string>;
  /** The app's clock (reminder times, dates of /usage, late answers), for a test that drives it. */
  now?: () => Date;
  /** When reminders are looked at again; the app's delivery loop is started only when this is given. */
  reminderScheduler?: AppOptions['reminderScheduler'];
}

export async function startLineHarness(options: LineHarnessOptions = {}): Promise<LineHarness> {
  const line = await startFakeLine(options.line);
  const model = await startFakeModelServer({ modelId: 'test-model' });
  const environment = {
    MODEL_BASE_URL: model.url,
    MODEL_TOOLS: 'off',
    MODEL_VISION: 'off',
    LINE_CHANNEL_SECRET: line.channelSecret,
    LINE_CHANNEL_ACCESS_TOKEN: line.channelAccessToken,
    LINE_API_BASE_URL: line.url,
    LINE_DATA_API_BASE_URL: line.url,
    ...options.environment,
  };
  const { log, records } = memoryLog('info', [line.channelSecret, line.channelAccessToken]);
  const deliveryEvents: DeliveryEvent[] = [];
  const [adapter] = createPlatformAdapters(loadConfig(environment), log, () => (event) => void deliveryEvents.push(event));
  if (!adapter) throw new Error('no LINE adapter was built');
  const handled: HandledMessage[] = [];
  const test = createTestApp({
    modelUrl: model.url,
    environment,
    adapters: [adapter],
    observe: (message) => void handled.push(message),
    now: options.now,
    reminderScheduler: options.reminderScheduler,
  });
  const inbound: InboundHandler = test.app.inbound;
  let server: Server | undefined;
  try {
    await startAdapters([adapter], { inbound, identify: (platform, identity) => test.app.identify(platform, identity) });
    server = await startHttpServer({ port: 0, metrics: new Metrics(), log, routes: adapter.routes ?? [] });
  } catch (error) {
    await test.close();
    await model.close();
    await line.close();
    throw error;
  }
  await test.app.inbound.resume();
  if (options.reminderScheduler) test.app.reminders.start();
  const webhookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/line`;
  let closed = false;
  return {
    line,
    model,
    test,
    adapter,
    adapterLog: records,
    handled,
    deliveryEvents,
    webhookUrl,
    deliver: async (...events) => {
      const answer = await line.postWebhook(webhookUrl, line.webhookBody(...events));
      await test.app.inbound.idle();
      return answer;
    },
    post: (body, postOptions) => line.postWebhook(webhookUrl, body, postOptions),
    sentTexts: (chatId) => line.sentMessages(chatId).flatMap((message) => (message.text === undefined ? [] : [message.text])),
    close: async () => {
      if (closed) return;
      closed = true;
      await stopAdapters([adapter], log);
      await new Promise<void>((resolve) => server?.close(() => resolve()));
      await test.close();
      await model.close();
      await line.close();
    },
  };
}
