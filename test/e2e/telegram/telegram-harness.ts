import type { Update } from 'telegraf/types';
import type { AppOptions } from '../../../src/app.js';
import { loadConfig } from '../../../src/config.js';
import { createPlatformAdapters, startAdapters, stopAdapters } from '../../../src/platforms.js';
import type { HandledMessage } from '../../../src/pipeline/router.js';
import type { DeliveryEvent, PlatformAdapter } from '../../../src/shared/channel.js';
import { startFakeModelServer, type FakeModelServer } from '../../fakes/model-server.js';
import { startFakeTelegram, type FakeTelegram, type FakeTelegramOptions, type NewUpdate } from '../../fakes/telegram/index.js';
import { memoryLog, type LogRecord } from '../../support/memory-log.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

// One whole bot for a Telegram end-to-end test: the fake Bot API, the fake model server, the Telegram adapter as
// src/platforms.ts builds it from the environment (real telegraf), and the real app with its durable queue.

export interface TelegramHarness {
  telegram: FakeTelegram;
  model: FakeModelServer;
  test: TestApp;
  adapter: PlatformAdapter;
  /** What the adapter logged (warn and above), through production's redaction. */
  adapterLog: LogRecord[];
  handled: HandledMessage[];
  /** What the adapter reported of its sending (the /metrics counters), in order. */
  deliveryEvents: DeliveryEvent[];
  /** The texts the bot sent to a chat, in order (documents and photos left out). */
  sentTexts(chatId: number): string[];
  /** Pushes an update for polling and waits until it is stored and every message in the queue is handled. */
  deliver(update: NewUpdate): Promise<Update>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  telegram?: FakeTelegramOptions;
  environment?: Record<string, string>;
  /** The app's clock (dates of /usage, late answers) and a burst's wait (BURST_WINDOW_MS), for a test that drives them. */
  now?: () => Date;
  wait?: (ms: number) => Promise<void>;
  /** When reminders are looked at again; the app's delivery loop is started only when this is given. */
  reminderScheduler?: AppOptions['reminderScheduler'];
}

export async function startTelegramHarness(options: HarnessOptions = {}): Promise<TelegramHarness> {
  const telegram = await startFakeTelegram(options.telegram);
  const model = await startFakeModelServer({ modelId: 'test-model' });
  const environment = {
    MODEL_BASE_URL: model.url,
    MODEL_TOOLS: 'off',
    MODEL_VISION: 'off',
    TELEGRAM_BOT_TOKEN: telegram.token,
    TELEGRAM_API_ROOT: telegram.url,
    ...options.environment,
  };
  const { log, records } = memoryLog('warn', [telegram.token]);
  const deliveryEvents: DeliveryEvent[] = [];
  const [adapter] = createPlatformAdapters(loadConfig(environment), log, () => (event) => void deliveryEvents.push(event));
  if (!adapter) throw new Error('no Telegram adapter was built');
  const handled: HandledMessage[] = [];
  const test = createTestApp({
    modelUrl: model.url,
    environment,
    adapters: [adapter],
    observe: (message) => void handled.push(message),
    now: options.now,
    wait: options.wait,
    reminderScheduler: options.reminderScheduler,
  });
  await startAdapters([adapter], test.app);
  await test.app.inbound.resume();
  if (options.reminderScheduler) test.app.reminders.start();
  let closed = false;
  return {
    telegram,
    model,
    test,
    adapter,
    adapterLog: records,
    handled,
    deliveryEvents,
    sentTexts: (chatId) => telegram.sentMessages(chatId).flatMap((message) => ('text' in message ? [message.text] : [])),
    deliver: async (update) => {
      const queued = telegram.pushUpdate(update);
      if (!queued) throw new Error('the fake would not deliver this update to the bot');
      // telegraf asks for the next updates only once the handlers of this batch resolved (= accept resolved).
      await telegram.waitForCall('getUpdates', (call) => Number(call.params.offset) > queued.update_id);
      await test.app.inbound.idle();
      return queued;
    },
    close: async () => {
      if (closed) return;
      closed = true;
      // telegraf first: its next poll would find the fake's port closed.
      await stopAdapters([adapter], log);
      await test.close();
      await model.close();
      await telegram.close();
    },
  };
}
