import {
  Client,
  Events,
  GatewayIntentBits,
  MessageFlags,
  Partials,
  REST,
  Routes,
  type APIRequest,
  type Interaction,
  type Message,
  type RateLimitData,
  type ResponseLike,
} from 'discord.js';
import type { AdapterIdentity, DeliveryObserver, InboundHandler, PlatformAdapter } from '../../src/shared/channel.js';
import { discordCapabilities } from './capabilities.js';
import { describeError } from '../../src/shared/describe-error.js';
import { PlatformConfigError } from '../../src/shared/platform-config-error.js';
import { say, type Localized } from '../../src/shared/i18n.js';
import type { Logger } from '../../src/shared/log.js';
import type { Language } from '../../src/shared/types.js';
import { DiscordDelivery } from './delivery.js';
import { downloadDiscordAttachment } from './download.js';
import { normalizeDiscordMessage } from './inbound.js';
import { quotedOf } from './quoted.js';
import { ChatQueue } from '../common/chat-queue.js';
import { answerAutocomplete, takeCommand } from './interactions.js';
import { previewRest } from './preview-rest.js';
import { discordResponder } from './responder.js';
import { registerSlashCommands, slashCommands } from './slash-commands.js';
import { ServerAdminStatus } from './server-admin-status.js';
import type { Scheduler } from '../common/scheduler.js';
import { discordMessageLink } from './message-link.js';

// The Discord adapter's face (docs/architecture.md, "Adding a platform"): discord.js 14 on the gateway for events,
// a REST client of its own for everything sent (it outlives the gateway during a shutdown's grace period), slash
// commands registered at start, messages and commands stored through the core's durable queue.

export interface DiscordAdapterOptions {
  token: string;
  /** DISCORD_API_BASE_URL: discord.js's `rest.api` (the gateway URL comes from it too); default Discord's. */
  apiBaseUrl?: string;
  /** DISCORD_GUILD_IDS: commands registered in these guilds (instantly); none = globally. */
  guildIds: readonly string[];
  logger: Logger;
  language: Language;
  searchConfigured: boolean;
  scheduler?: Scheduler;
  /** Counts messages posted, retries and 429s (src/metrics.ts). */
  observeDelivery?: DeliveryObserver;
  /**
   * DISCORD_SHARD_IDS / DISCORD_SHARD_COUNT: the gateway shards this process runs (discord.js `shards`,
   * `shardCount`); default one shard. Discord itself keeps a conversation on one shard: a guild's events go to shard
   * (guild_id >> 22) % shard_count, DMs to shard 0, so every message of a channel reaches the same process.
   */
  shards?: readonly number[] | 'auto';
  shardCount?: number;
}

const shardLines: Localized = {
  th: 'Discord: โปรเซสนี้ดูแลชาร์ด {shards} จากทั้งหมด {count}',
  en: 'Discord: this process runs shard(s) {shards} of {count}',
};

const baseIntents = [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.DirectMessages];

const notTaken: Localized = {
  th: 'ขออภัย รับข้อความนี้ไว้ไม่สำเร็จ (ระบบจัดเก็บขัดข้อง) กรุณาส่งใหม่อีกครั้ง',
  en: 'Sorry, this message could not be taken (storage failed). Please send it again.',
};

/** Meant for the person reading `npm run logs`: in BOT_LANGUAGE. */
const messageContentWarning: Localized = {
  th: 'Discord ปฏิเสธ Message Content intent (4014): บอทยังตอบเมื่อถูก @mention เมื่อมีคนตอบกลับข้อความของบอท ใน DM และคำสั่ง slash แต่จะไม่เห็นข้อความอื่น (ไม่มีบริบทของกลุ่ม ไม่เห็นรูปที่ส่งก่อนเรียกบอท) — เปิดได้ที่ Developer Portal → แอปของคุณ → Bot → Privileged Gateway Intents → Message Content Intent แล้วเริ่มบอทใหม่',
  en: 'Discord refused the Message Content intent (4014): the bot still answers mentions, replies to it, DMs and slash commands, but does not see other messages (no group context, no image before the mention). Enable it in the Developer Portal → your application → Bot → Privileged Gateway Intents → Message Content Intent, then restart',
};

/** discord.js rejects login with a plain Error on close 4014 (the fake's test shows it); its text is all there is. */
function isDisallowedIntents(error: unknown): boolean {
  return error instanceof Error && /disallowed intents/i.test(error.message);
}

/**
 * @discordjs/rest waits out every 429 and tries again, and retries a 5xx up to `retries` times, all inside one
 * call: its 'response' event is where they show. (Its 'rateLimited' event also fires for waits it takes before
 * sending, when no 429 came, so it is no count of them.)
 */
function observeRestResponses(rest: REST, observe: DeliveryObserver): void {
  rest.on('response', (request: APIRequest, response: ResponseLike) => {
    if (response.status === 429) {
      observe('rate-limited');
      observe('retried');
    } else if (response.status >= 500 && request.retries < rest.options.retries) observe('retried');
  });
}

function isTokenRefused(error: unknown): boolean {
  return error instanceof Error && (('code' in error && error.code === 'TokenInvalid') || ('status' in error && error.status === 401));
}

class DiscordAdapter implements PlatformAdapter {
  readonly platform = 'discord';
  readonly capabilities = discordCapabilities;
  private readonly rest: REST;
  /** Live answers' edits: a long rate-limit wait is skipped, not taken (preview-rest.ts). */
  private readonly previewRest: REST;
  private readonly delivery: DiscordDelivery;
  private readonly serverAdmins: ServerAdminStatus;
  private client: Client | undefined;
  private applicationId: string | undefined;
  private botUserId = '';
  private handler: InboundHandler | undefined;
  private stopped = false;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly intake = new ChatQueue<string>();

  constructor(private readonly options: DiscordAdapterOptions) {
    this.rest = new REST(options.apiBaseUrl ? { api: options.apiBaseUrl } : {}).setToken(options.token);
    this.rest.on('rateLimited', (limit: RateLimitData) =>
      options.logger.info({ route: limit.route, retryAfterMs: limit.retryAfter, global: limit.global, scope: limit.scope }, 'discord rate limit: waiting'),
    );
    if (options.observeDelivery) observeRestResponses(this.rest, options.observeDelivery);
    this.previewRest = previewRest({ token: options.token, apiBaseUrl: options.apiBaseUrl, observeDelivery: options.observeDelivery });
    this.delivery = new DiscordDelivery(this.rest, options.logger, { scheduler: options.scheduler, observeDelivery: options.observeDelivery });
    this.serverAdmins = new ServerAdminStatus({ rest: this.rest, logger: options.logger, ttlMs: 60_000 });
  }

  async start(handler: InboundHandler): Promise<AdapterIdentity> {
    this.handler = handler;
    // A later attempt after a failed one: the last attempt's client must not keep a gateway (and its handlers) open.
    await this.client?.destroy();
    this.client = undefined;
    let readsAll = true;
    let client: Client;
    try {
      client = await this.connect(true);
    } catch (error) {
      if (!isDisallowedIntents(error)) throw this.startFailure(error);
      this.options.logger.warn({ warning: 'discord-message-content-intent' }, say(messageContentWarning, this.options.language));
      readsAll = false;
      client = await this.connect(false).catch((second: unknown) => Promise.reject(this.startFailure(second)));
    }
    this.client = client;
    const user = client.user;
    const applicationId = client.application?.id;
    if (!user || !applicationId) throw new Error('discord: the gateway was ready without the bot user or application');
    this.botUserId = user.id;
    this.applicationId = applicationId;
    await registerSlashCommands(
      this.rest,
      applicationId,
      this.options.guildIds,
      slashCommands({ language: this.options.language, searchConfigured: this.options.searchConfigured }),
    );
    this.options.logger.info(
      {
        username: user.username,
        guilds: client.guilds.cache.size,
        commandsIn: this.options.guildIds.length || 'global',
        shards: client.options.shards,
        shardCount: client.options.shardCount,
      },
      'discord bot started',
    );
    return { username: user.username, readsAllGroupMessages: readsAll };
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    await Promise.allSettled([...this.inFlight]);
    // The gateway only: answers still go out through this.rest during the shutdown's grace period.
    await this.client?.destroy();
  }

  messageLink: NonNullable<PlatformAdapter['messageLink']> = (message) => discordMessageLink(message);

  responderFor: PlatformAdapter['responderFor'] = (message) =>
    discordResponder(message, {
      delivery: this.delivery,
      rest: this.rest,
      previewRest: this.previewRest,
      applicationId: () => this.applicationId,
      logger: this.options.logger,
      language: this.options.language,
      ...(this.options.scheduler ? { scheduler: this.options.scheduler } : {}),
    });

  /** The user's DM channel with the bot (opened if needed), then the text: no embeds (the link is a one-time credential), no pings. */
  sendPrivately: NonNullable<PlatformAdapter['sendPrivately']> = async (userId, text) => {
    const channel = (await this.rest.post(Routes.userChannels(), { body: { recipient_id: userId } })) as { id?: unknown };
    if (typeof channel.id !== 'string') throw new Error('discord: no DM channel id in the answer');
    await this.rest.post(Routes.channelMessages(channel.id), { body: { content: text, flags: MessageFlags.SuppressEmbeds, allowed_mentions: { parse: [] } } });
  };

  /** A server's space (`discord:<guild id>`): Manage Server, Administrator or owner, asked of Discord (cached a minute). */
  isSpaceAdmin: NonNullable<PlatformAdapter['isSpaceAdmin']> = async (spaceKey, userId) => {
    const guildId = spaceKey.startsWith('discord:') ? spaceKey.slice('discord:'.length) : '';
    return /^\d{1,20}$/.test(guildId) ? this.serverAdmins.managesServer(guildId, userId) : undefined;
  };

  download: PlatformAdapter['download'] = (attachment, maxBytes) => downloadDiscordAttachment(this.rest, attachment, maxBytes);

  /** /status (admins), when sharded: the shards of this process, as discord.js resolved them at login. */
  statusLines: NonNullable<PlatformAdapter['statusLines']> = async (language, forAdmin) => {
    const sharded = this.options.shards !== undefined || this.options.shardCount !== undefined;
    const { shards, shardCount } = this.client?.options ?? {};
    if (!forAdmin || !sharded || !Array.isArray(shards)) return [];
    return [say(shardLines, language, { shards: shards.join(', '), count: shardCount ?? shards.length })];
  };

  /** Logs in and resolves once the gateway is ready (every guild created), or rejects with why it closed. */
  private async connect(messageContent: boolean): Promise<Client> {
    const client = new Client({
      intents: [...baseIntents, ...(messageContent ? [GatewayIntentBits.MessageContent] : [])],
      partials: [Partials.Channel],
      rest: this.options.apiBaseUrl ? { api: this.options.apiBaseUrl } : {},
      allowedMentions: { parse: [], repliedUser: false },
      ...(this.options.shards === undefined ? {} : { shards: this.options.shards === 'auto' ? ('auto' as const) : [...this.options.shards] }),
      ...(this.options.shardCount === undefined ? {} : { shardCount: this.options.shardCount }),
    });
    // One channel's messages are stored in the order they came, also when one waits for the message it replies to.
    client.on(Events.MessageCreate, (message) => this.track(this.intake.run(message.channelId, () => this.takeMessage(message))));
    client.on(Events.InteractionCreate, (interaction) => this.track(this.takeInteraction(interaction)));
    client.on(Events.Error, (error) => this.options.logger.warn({ error: describeError(error) }, 'discord client error'));
    const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
    try {
      await client.login(this.options.token);
      await ready;
    } catch (error) {
      // Not retried by this client: its websocket manager and handlers go, the next attempt makes a new one.
      await client.destroy().catch(() => undefined);
      throw error;
    }
    return client;
  }

  private startFailure(error: unknown): Error {
    if (isTokenRefused(error)) {
      return new PlatformConfigError(
        'DISCORD_TOKEN',
        {
          th: 'DISCORD_TOKEN ถูก Discord ปฏิเสธ (401): คัดลอกโทเค็นของบอทใหม่จาก Developer Portal → Bot → Reset Token แล้วเริ่มบอทอีกครั้ง',
          en: 'DISCORD_TOKEN was refused by Discord (401): copy the bot token again from the Developer Portal → Bot → Reset Token, then start the bot again',
        },
        { cause: error },
      );
    }
    if (isDisallowedIntents(error)) {
      return new PlatformConfigError(
        'DISCORD_TOKEN',
        {
          th: 'Discord ไม่อนุญาต intents ที่บอทของ DISCORD_TOKEN ขอ (4014): เปิด Privileged Gateway Intents ใน Developer Portal → Bot แล้วเริ่มบอทอีกครั้ง',
          en: "Discord refused the intents DISCORD_TOKEN's bot asked for (4014): enable them in the Developer Portal → Bot → Privileged Gateway Intents, then start the bot again",
        },
        { cause: error },
      );
    }
    return new Error(`discord: could not connect to the gateway: ${describeError(error)}`, { cause: error });
  }

  private async takeMessage(message: Message): Promise<void> {
    if (this.stopped || !this.handler) return;
    const normalized = normalizeDiscordMessage(message, this.botUserId);
    if (!normalized) return;
    // Only a question the bot will answer needs what it replies to (it may cost a fetch).
    if (normalized.mentionsBot || normalized.repliesToBot || normalized.chatKind === 'direct') {
      const quoted = await quotedOf(message, this.botUserId);
      if (quoted) normalized.quoted = quoted;
    }
    this.delivery.markReachable(message.channelId);
    try {
      await this.handler.accept(normalized);
    } catch (error) {
      // The gateway never sends an event again: say so where the user is waiting, if they asked the bot.
      this.options.logger.error({ channelId: message.channelId, error: describeError(error) }, 'discord message not stored');
      if (normalized.mentionsBot || normalized.repliesToBot || normalized.chatKind === 'direct') {
        await this.delivery.sendParts(message.channelId, [say(notTaken, this.options.language)]).catch(() => undefined);
      }
    }
  }

  private async takeInteraction(interaction: Interaction): Promise<void> {
    if (this.stopped || !this.handler) return;
    try {
      if (interaction.isChatInputCommand())
        await takeCommand(interaction, { handler: this.handler, logger: this.options.logger, language: this.options.language });
      else if (interaction.isAutocomplete()) await answerAutocomplete(interaction, this.handler);
    } catch (error) {
      this.options.logger.warn({ error: describeError(error) }, 'discord interaction not answered');
    }
  }

  /** Tracks a message being stored, so stop() waits for it. */
  private track(handling: Promise<void>): void {
    this.inFlight.add(handling);
    const forget = (): void => void this.inFlight.delete(handling);
    void handling.then(forget, forget);
  }
}

export function createDiscordAdapter(options: DiscordAdapterOptions): PlatformAdapter {
  return new DiscordAdapter(options);
}
