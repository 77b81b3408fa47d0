import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import type { APIUser } from 'discord.js';
import { loadConfig } from '../src/config.js';
import { startHttpServer } from '../src/http.js';
import { Metrics } from '../src/metrics.js';
import { createPlatformAdapters, startAdapters, stopAdapters } from '../src/platforms.js';
import type { PlatformAdapter } from '../src/shared/channel.js';
import { createLogger, type Logger } from '../src/shared/log.js';
import { discordUser, startFakeDiscord, type FakeDiscord, type GuildSpec } from '../test/fakes/discord/index.js';
import { lineUserId, startFakeLine, type FakeLine } from '../test/fakes/line/index.js';
import { startFakeModelServer, type FakeModelServer } from '../test/fakes/model-server.js';
import { startFakeTelegram, type FakeTelegram } from '../test/fakes/telegram/index.js';
import { createTestApp, type TestApp } from '../test/support/test-app.js';

// The bot of the latency run: the fakes of the chosen platforms (Telegram's Bot API, Discord's REST + gateway, LINE's
// Messaging API and webhook sender), the fake model server, the adapters as src/platforms.ts builds them from the
// environment (real telegraf, real discord.js, real @line/bot-sdk), the real HTTP server with the adapters' webhook
// routes (src/http.ts, as the service mounts them), and one real app with its durable queue, which the direct (CLI)
// path uses too.

export const benchPlatforms = ['telegram', 'discord', 'line'] as const;
export type BenchPlatform = (typeof benchPlatforms)[number];

/** `--platforms telegram,discord,line` (the default: all three). */
export function platformsOption(argv: readonly string[]): BenchPlatform[] {
  const index = argv.indexOf('--platforms');
  if (index < 0) return [...benchPlatforms];
  const named = (argv[index + 1] ?? '').split(',').map((name) => name.trim());
  const unknown = named.filter((name) => !(benchPlatforms as readonly string[]).includes(name));
  if (unknown.length > 0 || named.length === 0) throw new Error(`--platforms takes a comma-separated list of ${benchPlatforms.join(', ')}`);
  return benchPlatforms.filter((platform) => named.includes(platform));
}

/** The waits @discordjs/rest announced (the adapter logs each as "discord rate limit: waiting"). */
export interface RateLimitWaits {
  waits: number;
  /** Of those, waits for the client's own global limit (50 requests per second, Discord's). */
  global: number;
  /** The announced waits added up (requests wait side by side, so this is not wall time). */
  announcedMs: number;
}

/** A real pino logger at info that keeps nothing but a count of the rate-limit waits. */
export function rateLimitCounter(): { log: Logger; waits: RateLimitWaits } {
  const waits: RateLimitWaits = { waits: 0, global: 0, announcedMs: 0 };
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (!line.includes('discord rate limit: waiting')) continue;
        const record = JSON.parse(line) as { global?: unknown; retryAfterMs?: unknown };
        waits.waits += 1;
        if (record.global === true) waits.global += 1;
        if (typeof record.retryAfterMs === 'number') waits.announcedMs += record.retryAfterMs;
      }
      done();
    },
  });
  return { log: createLogger({ level: 'info', destination }), waits };
}

/** `channels` guild text channels, 50 to a guild (a bot is in many servers), named as Thai shops name them. */
export function benchGuilds(channels: number, perGuild = 50): GuildSpec[] {
  const guilds: GuildSpec[] = [];
  for (let first = 0; first < channels; first += perGuild) {
    const count = Math.min(perGuild, channels - first);
    guilds.push({
      name: `ร้านกาแฟ ${guilds.length + 1}`,
      channels: Array.from({ length: count }, (_, index) => ({ name: `สาขา-${first + index + 1}` })),
    });
  }
  return guilds;
}

/** The guild text channels of the fake, in guild order. */
export function textChannelIds(discord: FakeDiscord): string[] {
  return discord.guilds.flatMap((guild) => guild.channels.map((channel) => channel.id));
}

/** One author per channel (a customer who is not a member with roles: the default member). */
export function benchAuthors(count: number, prefix: string): APIUser[] {
  return Array.from({ length: count }, (_, index) => discordUser(`${prefix}_${index}`, { globalName: `ลูกค้า ${index}` }));
}

/** One LINE user per 1:1 chat (ids as LINE's, the same every run). */
export function lineUsers(count: number, prefix: string): string[] {
  return Array.from({ length: count }, (_, index) => lineUserId(`${prefix}-${index}`));
}

/** The environment src/platforms.ts builds the LINE adapter from, against the fake (API and data API on one port). */
export function lineEnvironment(line: Pick<FakeLine, 'channelSecret' | 'channelAccessToken' | 'url'>): Record<string, string> {
  return {
    LINE_CHANNEL_SECRET: line.channelSecret,
    LINE_CHANNEL_ACCESS_TOKEN: line.channelAccessToken,
    LINE_API_BASE_URL: line.url,
    LINE_DATA_API_BASE_URL: line.url,
  };
}

/** The adapters' webhook routes on the real HTTP server, port 0 on loopback; the URL of LINE's route. */
export async function startWebhookServer(adapters: readonly PlatformAdapter[], log: Logger): Promise<{ server: Server; lineWebhookUrl: string }> {
  const routes = adapters.flatMap((adapter) => adapter.routes ?? []);
  const server = await startHttpServer({ port: 0, metrics: new Metrics(), log, routes });
  return { server, lineWebhookUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/line` };
}

export const closeServer = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

export interface BenchBots {
  model: FakeModelServer;
  test: TestApp;
  telegram?: FakeTelegram;
  discord?: FakeDiscord;
  discordChannels: string[];
  discordAuthors: APIUser[];
  line?: FakeLine;
  lineUsers: string[];
  lineWebhookUrl: string;
  rateLimits: RateLimitWaits;
  close(): Promise<void>;
}

/** For runs other than the instant latency one: a model server of their own (kept open), settings, a fixed clock. */
export interface BenchBotOptions {
  model?: FakeModelServer;
  environment?: Record<string, string>;
  now?: () => Date;
}

export async function startBenchBots(platforms: readonly BenchPlatform[], chatCount: number, options: BenchBotOptions = {}): Promise<BenchBots> {
  const model = options.model ?? (await startFakeModelServer({ modelId: 'test-model' }));
  const telegram = platforms.includes('telegram') ? await startFakeTelegram() : undefined;
  const discord = platforms.includes('discord') ? await startFakeDiscord({ guilds: benchGuilds(chatCount) }) : undefined;
  const line = platforms.includes('line') ? await startFakeLine() : undefined;
  const environment: Record<string, string> = {
    MODEL_BASE_URL: model.url,
    MODEL_TOOLS: 'off',
    MODEL_VISION: 'off',
    // The load and latency figures are of the whole-reply path; streaming is measured by first-text (which sets it).
    STREAM_PLATFORMS: 'off',
    ...(telegram ? { TELEGRAM_BOT_TOKEN: telegram.token, TELEGRAM_API_ROOT: telegram.url } : {}),
    ...(discord ? { DISCORD_TOKEN: discord.token, DISCORD_API_BASE_URL: discord.apiUrl } : {}),
    ...(line ? lineEnvironment(line) : {}),
    ...options.environment,
  };
  const { log, waits } = rateLimitCounter();
  const adapters = createPlatformAdapters(loadConfig(environment), log);
  const test = createTestApp({ modelUrl: model.url, environment, adapters, ...(options.now ? { now: options.now } : {}) });
  await startAdapters(adapters, test.app);
  const { server, lineWebhookUrl } = await startWebhookServer(adapters, log);
  await test.app.inbound.resume();
  const discordChannels = discord ? textChannelIds(discord) : [];
  return {
    model,
    test,
    ...(telegram ? { telegram } : {}),
    ...(discord ? { discord } : {}),
    discordChannels,
    discordAuthors: benchAuthors(discordChannels.length, 'customer'),
    ...(line ? { line } : {}),
    lineUsers: line ? lineUsers(chatCount, 'customer') : [],
    lineWebhookUrl,
    rateLimits: waits,
    close: async () => {
      // The adapters first: telegraf's next poll and discord.js's reconnect would find the fakes' ports closed.
      await stopAdapters(adapters, log);
      await closeServer(server);
      await test.close();
      if (!options.model) await model.close();
      await telegram?.close();
      await discord?.close();
      await line?.close();
    },
  };
}
