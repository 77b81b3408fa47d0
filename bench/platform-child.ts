import { Writable } from 'node:stream';
import { performance } from 'node:perf_hooks';
import { consoleMessage, consoleResponder } from '../adapters/console/index.js';
import { loadConfig } from '../src/config.js';
import { createPlatformAdapters, startAdapters, stopAdapters } from '../src/platforms.js';
import type { PlatformAdapter } from '../src/shared/channel.js';
import { silentLogger } from '../src/shared/log.js';
import type { Reply } from '../src/shared/types.js';
import { createTestApp } from '../test/support/test-app.js';
import { closeServer, lineEnvironment, rateLimitCounter, startWebhookServer, type RateLimitWaits } from './platform-bots.js';
import { markerOf, markersIn, questionText } from './platform-measure.js';

// The measured process of the concurrency run, started with the shipped V8 flags. `telegram`: the whole bot (the
// Telegram adapter as src/platforms.ts builds it, real telegraf, long polling against the fake Bot API of the parent,
// the app with its durable queue). `both`: the same with the Discord adapter beside it (real discord.js on the
// parent's fake gateway and REST). `all`: the same with the LINE adapter too (real @line/bot-sdk against the parent's
// fake LINE API, its webhook on the real HTTP server, whose URL goes to the parent with `ready`). `cli`: the same app
// without any adapter, answering through router.handle.
// The fakes run in the parent, so this process's RSS is the bot's own (plus the tsx loader).

export type ParentMessage = { kind: 'stop' } | { kind: 'run'; conversations: number; per: number };

export interface MemoryReport {
  /** RSS once started, before any message. */
  startedRssMb: number;
  /** Highest RSS sampled every 10 ms. */
  peakRssMb: number;
  /** The kernel's high-water mark (getrusage ru_maxrss), start-up and tsx compilation included. */
  maxRssMb: number;
  peakHeapUsedMb: number;
}

export interface CliLoadReport {
  elapsedMs: number;
  answered: number;
  lost: number;
  duplicated: number;
}

export type ChildMode = 'telegram' | 'both' | 'all' | 'cli';

export const childModes: readonly ChildMode[] = ['telegram', 'both', 'all', 'cli'];

export type ChildMessage =
  { kind: 'ready'; lineWebhookUrl?: string } | { kind: 'done'; memory: MemoryReport; cli?: CliLoadReport; discordRateLimits?: RateLimitWaits };

const megabytes = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

function tell(message: ChildMessage): void {
  process.send?.(message);
}

function nextMessage(): Promise<ParentMessage> {
  return new Promise((resolve) => process.once('message', (message) => resolve(message as ParentMessage)));
}

/** All messages at once through router.handle, the way `npm run cli` answers one. */
async function runCliLoad(test: ReturnType<typeof createTestApp>, conversations: number, per: number): Promise<CliLoadReport> {
  const discard = new Writable({ write: (_chunk, _encoding, done) => done() });
  const answers = new Map<string, number>();
  const count = (reply: Reply) => {
    for (const marker of markersIn(reply.text)) answers.set(marker, (answers.get(marker) ?? 0) + 1);
  };
  const messages = [];
  for (let round = 0; round < per; round++) {
    for (let conversation = 0; conversation < conversations; conversation++) {
      const marker = markerOf(round * conversations + conversation);
      messages.push(await consoleMessage({ text: questionText(marker), conversation: `load-${conversation}`, userId: `load-user-${conversation}` }));
    }
  }
  const started = performance.now();
  await Promise.all(
    messages.map((message) => {
      const console = consoleResponder(discard, () => undefined);
      return test.app.router.handle(message, { ...console, send: async (reply, journal) => (await console.send(reply, journal), count(reply)) });
    }),
  );
  const elapsedMs = performance.now() - started;
  const sent = [...answers.values()];
  return { elapsedMs, answered: answers.size, lost: messages.length - answers.size, duplicated: sent.filter((times) => times > 1).length };
}

export async function runChild(mode: ChildMode): Promise<void> {
  const modelUrl = process.env.BENCH_MODEL_URL ?? '';
  // The whole-reply path: a live message would be one more message per answer to count (first-text measures streaming).
  const environment: Record<string, string> = { MODEL_BASE_URL: modelUrl, MODEL_TOOLS: 'off', MODEL_VISION: 'off', STREAM_PLATFORMS: 'off' };
  let adapters: PlatformAdapter[] = [];
  const rateLimits = rateLimitCounter();
  if (mode !== 'cli') {
    environment.TELEGRAM_BOT_TOKEN = process.env.BENCH_TELEGRAM_TOKEN ?? '';
    environment.TELEGRAM_API_ROOT = process.env.BENCH_TELEGRAM_URL ?? '';
  }
  if (mode === 'both' || mode === 'all') {
    environment.DISCORD_TOKEN = process.env.BENCH_DISCORD_TOKEN ?? '';
    environment.DISCORD_API_BASE_URL = process.env.BENCH_DISCORD_URL ?? '';
  }
  if (mode === 'all') {
    const line = {
      channelSecret: process.env.BENCH_LINE_SECRET ?? '',
      channelAccessToken: process.env.BENCH_LINE_TOKEN ?? '',
      url: process.env.BENCH_LINE_URL ?? '',
    };
    Object.assign(environment, lineEnvironment(line));
  }
  const withDiscord = mode === 'both' || mode === 'all';
  if (mode !== 'cli') adapters = createPlatformAdapters(loadConfig(environment), withDiscord ? rateLimits.log : silentLogger());
  const test = createTestApp({ modelUrl, environment, adapters });
  await startAdapters(adapters, test.app);
  const webhooks = mode === 'all' ? await startWebhookServer(adapters, silentLogger()) : undefined;
  await test.app.inbound.resume();
  const startedRss = process.memoryUsage().rss;
  let peakRss = startedRss;
  let peakHeap = process.memoryUsage().heapUsed;
  const sampler = setInterval(() => {
    const usage = process.memoryUsage();
    peakRss = Math.max(peakRss, usage.rss);
    peakHeap = Math.max(peakHeap, usage.heapUsed);
  }, 10);
  tell({ kind: 'ready', ...(webhooks ? { lineWebhookUrl: webhooks.lineWebhookUrl } : {}) });
  let cli: CliLoadReport | undefined;
  for (let message = await nextMessage(); message.kind !== 'stop'; message = await nextMessage()) {
    cli = await runCliLoad(test, message.conversations, message.per);
    tell({ kind: 'ready' });
  }
  await stopAdapters(adapters, silentLogger());
  if (webhooks) await closeServer(webhooks.server);
  await test.close();
  clearInterval(sampler);
  const memory: MemoryReport = {
    startedRssMb: megabytes(startedRss),
    peakRssMb: megabytes(peakRss),
    maxRssMb: megabytes(process.resourceUsage().maxRSS * 1024),
    peakHeapUsedMb: megabytes(peakHeap),
  };
  tell({ kind: 'done', memory, ...(cli ? { cli } : {}), ...(withDiscord ? { discordRateLimits: rateLimits.waits } : {}) });
  process.disconnect();
}
