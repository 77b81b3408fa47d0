import { loadConfig } from '../../../src/config.js';
import { createPlatformAdapters, startAdapters, stopAdapters } from '../../../src/platforms.js';
import type { HandledMessage } from '../../../src/pipeline/router.js';
import type { DeliveryEvent, InboundHandler, PlatformAdapter } from '../../../src/shared/channel.js';
import {
  startFakeDiscord,
  type FakeDiscord,
  type FakeDiscordOptions,
  type IncomingInteractionSpec,
  type IncomingMessageSpec,
} from '../../fakes/discord/index.js';
import { startFakeModelServer, type FakeModelServer } from '../../fakes/model-server.js';
import { memoryLog, type LogRecord } from '../../support/memory-log.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

// One whole bot for a Discord end-to-end test: the fake Discord (REST + gateway), the fake model server, the
// Discord adapter as src/platforms.ts builds it from the environment (real discord.js), and the real app with its
// durable queue.

export interface DiscordHarness {
  discord: FakeDiscord;
  model: FakeModelServer;
  test: TestApp;
  adapter: PlatformAdapter;
  /** What the adapter logged (info and above), through production's redaction. */
  adapterLog: LogRecord[];
  handled: HandledMessage[];
  /** What the adapter reported of its sending (the /metrics counters), in order. */
  deliveryEvents: DeliveryEvent[];
  /** Dispatches a message and waits until the adapter stored it and the queue is idle (answered, ignored or failed). */
  /** Dispatches the message and waits until the app handled it; the message as the gateway sent it. */
  deliver(spec: IncomingMessageSpec): Promise<Record<string, unknown>>;
  /** Dispatches a slash command or autocomplete and waits until the core is idle again. */
  interact(spec: IncomingInteractionSpec): Promise<{ id: string; token: string }>;
  /** Contents of what the bot posted in a channel (interaction replies included), in order. */
  sentContents(channelId: string): string[];
  close(): Promise<void>;
}

export interface DiscordHarnessOptions {
  discord?: FakeDiscordOptions;
  environment?: Record<string, string>;
}

export async function startDiscordHarness(options: DiscordHarnessOptions = {}): Promise<DiscordHarness> {
  const discord = await startFakeDiscord(options.discord);
  const model = await startFakeModelServer({ modelId: 'test-model' });
  const environment = {
    MODEL_BASE_URL: model.url,
    MODEL_TOOLS: 'off',
    MODEL_VISION: 'off',
    DISCORD_TOKEN: discord.token,
    DISCORD_API_BASE_URL: discord.apiUrl,
    ...options.environment,
  };
  const { log, records } = memoryLog('info', [discord.token]);
  const deliveryEvents: DeliveryEvent[] = [];
  const [adapter] = createPlatformAdapters(loadConfig(environment), log, () => (event) => void deliveryEvents.push(event));
  if (!adapter) throw new Error('no Discord adapter was built');
  const handled: HandledMessage[] = [];
  const test = createTestApp({ modelUrl: model.url, environment, adapters: [adapter], observe: (message) => void handled.push(message) });
  // The gateway has no acknowledgement to wait for: the harness counts what the adapter hands to the queue.
  let accepted = 0;
  const waiters = new Set<() => void>();
  const acceptedCount = (count: number) =>
    new Promise<void>((resolve) => {
      const check = (): void => {
        if (accepted < count) return;
        waiters.delete(check);
        resolve();
      };
      waiters.add(check);
      check();
    });
  const inbound: InboundHandler = {
    accept: async (message) => {
      const result = await test.app.inbound.accept(message);
      accepted += 1;
      for (const wake of [...waiters]) wake();
      return result;
    },
    moveSpace: (move) => test.app.inbound.moveSpace(move),
    knowledgeBaseNames: (spaceKey) => test.app.inbound.knowledgeBaseNames(spaceKey),
    rememberRecord: (key, ttlSeconds, value) => test.app.inbound.rememberRecord(key, ttlSeconds, value),
    hasRecord: (key) => test.app.inbound.hasRecord(key),
    readRecord: (key) => test.app.inbound.readRecord(key),
  };
  try {
    await startAdapters([adapter], { inbound, identify: (platform, identity) => test.app.identify(platform, identity) });
  } catch (error) {
    await test.close();
    await model.close();
    await discord.close();
    throw error;
  }
  await test.app.inbound.resume();
  let closed = false;
  return {
    discord,
    model,
    test,
    adapter,
    adapterLog: records,
    handled,
    deliveryEvents,
    deliver: async (spec) => {
      const before = accepted;
      const dispatched = await discord.dispatchMessage(spec);
      if (!dispatched) throw new Error('the fake would not send this message to the bot');
      await acceptedCount(before + 1);
      await test.app.inbound.idle();
      return dispatched;
    },
    interact: async (spec) => {
      const before = accepted;
      const dispatched = await discord.dispatchInteraction(spec);
      if (!spec.autocomplete) await acceptedCount(before + 1);
      await test.app.inbound.idle();
      return dispatched;
    },
    sentContents: (channelId) => discord.sentMessages(channelId).map((message) => message.content),
    close: async () => {
      if (closed) return;
      closed = true;
      await stopAdapters([adapter], log);
      await test.close();
      await model.close();
      await discord.close();
    },
  };
}
