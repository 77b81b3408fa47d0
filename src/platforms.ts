import { createDiscordAdapter } from '../adapters/discord/index.js';
import { createLineAdapter } from '../adapters/line/index.js';
import { createTelegramAdapter, type CommandMenu } from '../adapters/telegram/index.js';
import { createRedisLease } from './redis/redis-lease.js';
import type { RedisClient } from './redis/redis-client.js';
import type { Config } from './config.js';
import type { AdapterIdentity, DeliveryObserver, InboundHandler, PlatformAdapter, PlatformProblem, PlatformState, WebhookRoute } from './shared/channel.js';
import { commandTable, type CommandSpec } from './shared/command-table.js';
import { pick } from './shared/i18n.js';
import type { Logger } from './shared/log.js';
import type { Platform } from './shared/types.js';

type CredentialedPlatform = Exclude<Platform, 'console'>;

/** Which platforms have their credentials set. */
const credentialsSet: Record<CredentialedPlatform, (config: Config) => boolean> = {
  discord: (config) => Boolean(config.DISCORD_TOKEN),
  telegram: (config) => Boolean(config.TELEGRAM_BOT_TOKEN),
  line: (config) => Boolean(config.LINE_CHANNEL_SECRET && config.LINE_CHANNEL_ACCESS_TOKEN),
};

/** Whether a web search provider is configured, as the web tools choose one (/research exists only then). */
export function searchConfigured(config: Config): boolean {
  const configured = { searxng: Boolean(config.SEARXNG_URL), brave: Boolean(config.BRAVE_API_KEY), tavily: Boolean(config.TAVILY_API_KEY) };
  if (config.SEARCH_PROVIDER === 'none') return false;
  if (config.SEARCH_PROVIDER === 'auto') return Object.values(configured).some(Boolean);
  return configured[config.SEARCH_PROVIDER];
}

/** The Telegram "/" menu from the command table (src/shared/command-table.ts), described in BOT_LANGUAGE. */
export function telegramCommandMenu(config: Config): CommandMenu {
  const shown = commandTable.filter((command) => !command.needsSearch || searchConfigured(config));
  const entry = (command: CommandSpec) => ({ command: command.name, description: pick(command.description, config.BOT_LANGUAGE) });
  return {
    everyone: shown.filter((command) => !command.administrators).map(entry),
    administrators: shown.filter((command) => command.administrators).map(entry),
  };
}

/** How each platform's adapter is built; `observeDelivery` counts its sends (src/metrics.ts). */
type AdapterFactory = (config: Config, log: Logger, observeDelivery: DeliveryObserver | undefined, redis: RedisClient | undefined) => PlatformAdapter;

const adapterFactories: Record<CredentialedPlatform, AdapterFactory> = {
  discord: (config, log, observeDelivery) =>
    createDiscordAdapter({
      token: config.DISCORD_TOKEN ?? '',
      ...(config.DISCORD_API_BASE_URL ? { apiBaseUrl: config.DISCORD_API_BASE_URL } : {}),
      guildIds: config.DISCORD_GUILD_IDS,
      // Several processes: each runs its shards (Discord routes a guild to shard (guild_id >> 22) % count).
      ...(config.DISCORD_SHARD_IDS ? { shards: config.DISCORD_SHARD_IDS } : {}),
      ...(config.DISCORD_SHARD_COUNT ? { shardCount: config.DISCORD_SHARD_COUNT } : {}),
      logger: log.child({ platform: 'discord' }),
      language: config.BOT_LANGUAGE,
      searchConfigured: searchConfigured(config),
      ...(observeDelivery ? { observeDelivery } : {}),
    }),
  line: (config, log, observeDelivery) =>
    createLineAdapter({
      channelSecret: config.LINE_CHANNEL_SECRET ?? '',
      channelAccessToken: config.LINE_CHANNEL_ACCESS_TOKEN ?? '',
      ...(config.LINE_API_BASE_URL ? { apiBaseUrl: config.LINE_API_BASE_URL } : {}),
      ...(config.LINE_DATA_API_BASE_URL ? { dataApiBaseUrl: config.LINE_DATA_API_BASE_URL } : {}),
      replyWindowMs: config.LINE_REPLY_WINDOW_MS,
      dedupeTtlMs: config.DEDUPE_TTL_SECONDS * 1000,
      logger: log.child({ platform: 'line' }),
      language: config.BOT_LANGUAGE,
      timeZone: config.BOT_TIMEZONE,
      ...(config.PUBLIC_BASE_URL ? { publicBaseUrl: config.PUBLIC_BASE_URL } : {}),
      ...(observeDelivery ? { observeDelivery } : {}),
    }),
  telegram: (config, log, observeDelivery, redis) =>
    createTelegramAdapter({
      token: config.TELEGRAM_BOT_TOKEN ?? '',
      ...(config.TELEGRAM_API_ROOT ? { apiRoot: config.TELEGRAM_API_ROOT } : {}),
      ...(config.TELEGRAM_WEBHOOK_URL ? { webhook: { url: config.TELEGRAM_WEBHOOK_URL, secret: config.TELEGRAM_WEBHOOK_SECRET } } : {}),
      logger: log.child({ platform: 'telegram' }),
      language: config.BOT_LANGUAGE,
      maxImageBytes: config.MAX_ATTACHMENT_BYTES,
      commandMenu: telegramCommandMenu(config),
      ...(observeDelivery ? { observeDelivery } : {}),
      // Several processes on one Redis: one long-polls (a second getUpdates gets 409), the others stand by.
      ...(redis && !config.TELEGRAM_WEBHOOK_URL
        ? {
            pollingLease: createRedisLease({
              client: redis,
              name: 'telegram-polling',
              ttlMs: config.REDIS_LEASE_SECONDS * 1000,
              log: log.child({ platform: 'telegram' }),
            }),
          }
        : {}),
    }),
};

/** An adapter for every platform whose credentials are set, each counting its sends through `observeDelivery(platform)`. */
export function createPlatformAdapters(
  config: Config,
  log: Logger,
  observeDelivery?: (platform: CredentialedPlatform) => DeliveryObserver,
  redis?: RedisClient,
): PlatformAdapter[] {
  if (Boolean(config.LINE_CHANNEL_SECRET) !== Boolean(config.LINE_CHANNEL_ACCESS_TOKEN)) {
    log.warn('LINE needs both LINE_CHANNEL_SECRET and LINE_CHANNEL_ACCESS_TOKEN: LINE stays off until both are set');
  }
  const configured = (Object.keys(credentialsSet) as CredentialedPlatform[]).filter((platform) => credentialsSet[platform](config));
  return configured.map((platform) => adapterFactories[platform](config, log, observeDelivery?.(platform), redis));
}

export type { PlatformProblem, PlatformState };

/** Each adapter's state, for /readyz and admins' /status. */
export class PlatformStates {
  private readonly states = new Map<Platform, PlatformState>();
  /** Running adapters that can say they are on standby, asked at each report. */
  private readonly runningStates = new Map<Platform, () => 'running' | 'standby'>();
  private readonly problems = new Map<Platform, PlatformProblem>();
  /** Platforms whose start finished at some point (a stopped one that never ran still has no username). */
  private readonly ran = new Set<Platform>();

  set(platform: Platform, state: PlatformState, runningState?: () => 'running' | 'standby'): void {
    this.states.set(platform, state);
    if (state === 'running') this.ran.add(platform);
    this.problems.delete(platform);
    if (state === 'running' && runningState) this.runningStates.set(platform, runningState);
    else this.runningStates.delete(platform);
  }

  /** Its start failed: `retrying` (tried again at `problem.nextAttemptAt`) or `failed` (not tried again). */
  down(platform: Platform, state: 'retrying' | 'failed', problem: PlatformProblem): void {
    this.set(platform, state);
    this.problems.set(platform, problem);
  }

  private current(platform: Platform, state: PlatformState): PlatformState {
    return state === 'running' ? (this.runningStates.get(platform)?.() ?? state) : state;
  }

  /** Every platform by name, e.g. `{ telegram: 'running' }` or `{ telegram: 'standby' }`. */
  report(): Partial<Record<Platform, PlatformState>> {
    return Object.fromEntries([...this.states].map(([platform, state]) => [platform, this.current(platform, state)]));
  }

  /** The platforms that are down, with why and when they are tried again. */
  downReport(): Partial<Record<Platform, PlatformProblem>> {
    return Object.fromEntries(this.problems);
  }

  /** Healthy only when every adapter is running or on standby (none configured is healthy too). */
  allRunning(): boolean {
    return [...this.states.values()].every((state) => state === 'running');
  }

  /**
   * Whether the platform's start has finished (its identity is known): its stored messages may be answered. True for
   * a platform never registered here (tests that drive an app without a service) and for one that ran and stopped
   * (answers of running turns still go out during the shutdown).
   */
  started(platform: Platform): boolean {
    const state = this.states.get(platform);
    return state === undefined || state === 'running' || (state === 'stopped' && this.ran.has(platform));
  }
}

/** Starts every adapter with the inbound queue as its handler and records who the bot is on each platform; the first failure rejects (tests, benchmarks: src/service.ts retries through src/platform-starter.ts). */
export async function startAdapters(
  adapters: readonly PlatformAdapter[],
  core: { inbound: InboundHandler; identify(platform: Platform, identity: AdapterIdentity): void },
  states = new PlatformStates(),
): Promise<void> {
  for (const adapter of adapters) {
    states.set(adapter.platform, 'starting');
    adapter.attach?.(core.inbound);
  }
  await Promise.all(
    adapters.map(async (adapter) => {
      try {
        core.identify(adapter.platform, await adapter.start(core.inbound));
        states.set(adapter.platform, 'running', adapter.runningState?.bind(adapter));
      } catch (error) {
        states.set(adapter.platform, 'failed');
        throw error;
      }
    }),
  );
}

/** Stops every adapter; one that fails to stop does not keep the others running. */
export async function stopAdapters(adapters: readonly PlatformAdapter[], log: Logger, states = new PlatformStates()): Promise<void> {
  const results = await Promise.allSettled(adapters.map((adapter) => adapter.stop()));
  for (const adapter of adapters) states.set(adapter.platform, 'stopped');
  results.forEach((result, index) => {
    if (result.status === 'rejected') log.warn({ platform: adapters[index]?.platform, error: String(result.reason) }, 'adapter did not stop cleanly');
  });
}

/** The webhook endpoints of every adapter, for the HTTP server. */
export function adapterRoutes(adapters: readonly PlatformAdapter[]): WebhookRoute[] {
  return adapters.flatMap((adapter) => adapter.routes ?? []);
}
