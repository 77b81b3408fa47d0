import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { APIApplicationCommand, APIAttachment, APIMessage, APIUser } from 'discord.js';
import type { FailureResponse } from './api-error.js';
import { AttachmentStore, type AttachmentOptions } from './cdn.js';
import { CallLog, type CallPredicate, type DiscordCall } from './call-log.js';
import type { CallPattern } from '../common/call-pattern.js';
import { SwitchedFailures } from '../common/switched-failures.js';
import { discordUser, guildCreatePayload, resolveGuild, type FakeGuild, type GuildSpec, type WireChannel } from './fixtures.js';
import { FakeGateway, shardOfGuild, type GatewayClose, type IdentifyRecord, type Shard } from './gateway.js';
import { fakeBotToken, snowflake } from './ids.js';
import { interactionCreatePayload, type IncomingInteractionSpec } from './interaction-create.js';
import { messageCreatePayload, type IncomingMessageSpec } from './message-create.js';
import { RateLimiter, type RouteLimit } from './rate-limits.js';
import { handleRest } from './rest-handler.js';
import { applicationRoutes } from './routes-application.js';
import { channelRoutes } from './routes-channels.js';
import { guildRoutes } from './routes-guilds.js';
import { interactionRoutes } from './routes-interactions.js';
import { defaultBotPermissions, FakeDiscordState, type DmChannel, type InteractionRecord } from './state.js';

// A fake Discord on 127.0.0.1 for the real discord.js: REST under /api/v10, the gateway (a `ws` server on the same
// port, whose url GET /gateway/bot hands out), and signed attachment URLs under /cdn and /media.

export interface FakeDiscordOptions {
  token?: string;
  applicationId?: string;
  bot?: { id?: string; username?: string; globalName?: string };
  /** The application's owner (GET /applications/@me). */
  owner?: APIUser;
  /** Default: one guild with a `general` text channel. */
  guilds?: GuildSpec[];
  /** Intent bits the Developer Portal has not enabled: an IDENTIFY asking for any of them is closed with 4014. */
  disallowedIntents?: number;
  heartbeatIntervalMs?: number;
  /** Default 3000 (Discord's); later callbacks get 10062. */
  interactionDeadlineMs?: number;
  /** Default 15 minutes; later webhook calls get 50027. */
  interactionTokenLifetimeMs?: number;
  /** Default 50 requests per bucket and major parameter per second. */
  routeLimit?: RouteLimit;
  /** The clock of interaction deadlines, message timestamps and CDN expiry (ms). Default Date.now. */
  clock?: () => number;
}

export interface FakeDiscord {
  /** `rest.api` for discord.js: `http://127.0.0.1:P/api`. */
  apiUrl: string;
  /** `rest.cdn` for discord.js. */
  cdnUrl: string;
  gatewayUrl: string;
  token: string;
  applicationId: string;
  botUser: APIUser;
  guilds: FakeGuild[];
  /** A guild channel or thread by name or id, in any guild. */
  channel(nameOrId: string): WireChannel;
  dmChannel(user: APIUser): DmChannel;
  addAttachment(bytes: Buffer, options: AttachmentOptions): APIAttachment;
  expireAttachment(url: string): void;
  /** Dispatches MESSAGE_CREATE; resolves with the payload once written, or undefined when the intents filter it out. */
  dispatchMessage(spec: IncomingMessageSpec): Promise<Record<string, unknown> | undefined>;
  dispatchInteraction(spec: IncomingInteractionSpec): Promise<{ id: string; token: string; payload: Record<string, unknown> }>;
  /** Any dispatch (THREAD_CREATE, GUILD_MEMBER_UPDATE, …). */
  dispatch(type: string, data: unknown): Promise<void>;
  interaction(id: string): InteractionRecord | undefined;
  /** The callback deadline has passed: callbacks get 10062. */
  expireInteraction(id: string): void;
  /** The 15-minute token has run out: webhook calls get 50027. */
  expireInteractionToken(id: string): void;
  failNext(pattern: CallPattern, failure: FailureResponse, times?: number): void;
  disconnectNext(pattern: CallPattern, times?: number): void;
  /** After `skip` more calls matching pass, the next is recorded but not answered until releaseHeld() (or its client is killed). */
  holdNext(pattern: CallPattern, skip?: number): void;
  releaseHeld(): void;
  calls: readonly DiscordCall[];
  callsOf(pattern: CallPattern): DiscordCall[];
  waitForCall(pattern: CallPattern, predicate?: CallPredicate): Promise<DiscordCall>;
  /** Messages the bot sent (channel messages, interaction responses, follow-ups), as they are after edits. */
  sentMessages(channelId?: string): APIMessage[];
  /** Registered commands, global or of a guild. */
  commands(guildId?: string): APIApplicationCommand[] | undefined;
  identifies: readonly IdentifyRecord[];
  gatewayCloses: readonly GatewayClose[];
  gatewayQueries: readonly string[];
  waitForGatewayClose(predicate?: (close: GatewayClose) => boolean): Promise<GatewayClose>;
  /** The fake closes the gateway connection with `code` (4000: discord.js resumes). */
  closeGateway(code: number, reason?: string): Promise<GatewayClose>;
  close(): Promise<void>;
}

export async function startFakeDiscord(options: FakeDiscordOptions = {}): Promise<FakeDiscord> {
  const clock = options.clock ?? Date.now;
  const botId = options.bot?.id ?? snowflake();
  const bot = { ...discordUser(options.bot?.username ?? 'saeng', { id: botId, globalName: options.bot?.globalName ?? 'แสง', bot: true }), bot: true };
  const token = options.token ?? fakeBotToken(botId);
  const applicationId = options.applicationId ?? botId;
  const guilds = (options.guilds ?? [{}]).map((spec) => resolveGuild(spec, bot, defaultBotPermissions));
  const sockets = new Set<Socket>();
  const log = new CallLog();
  const failures = new SwitchedFailures<FailureResponse>();
  const limiter = new RateLimiter(options.routeLimit ?? { limit: 50, resetAfterSeconds: 1 });
  const server = createServer();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  const gatewayUrl = `ws://127.0.0.1:${port}`;
  const owner = options.owner ?? discordUser('owner');
  const known = new FakeDiscordState(
    bot,
    { id: applicationId, name: bot.username, flags: 0, owner },
    guilds,
    new AttachmentStore(`${origin}/cdn`, `${origin}/media`, clock),
    clock,
  );
  const routes = [...applicationRoutes, ...channelRoutes, ...guildRoutes, ...interactionRoutes];
  const context = {
    gatewayUrl,
    interactionDeadlineMs: options.interactionDeadlineMs ?? 3000,
    interactionTokenLifetimeMs: options.interactionTokenLifetimeMs ?? 15 * 60 * 1000,
  };
  server.on('request', (request, response) => {
    void handleRest({ state: known, log, failures, limiter, routes, token, context }, request, response).catch(() => {
      if (!response.headersSent)
        response.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ message: '500: Internal Server Error', code: 0 }));
    });
  });
  const guildsOf = ([id, count]: Shard) => guilds.filter((guild) => shardOfGuild(guild.id, count) === id);
  const gateway = new FakeGateway(server, gatewayUrl, {
    token,
    heartbeatIntervalMs: options.heartbeatIntervalMs ?? 45_000,
    disallowedIntents: options.disallowedIntents ?? 0,
    ready: (shard) => ({
      v: 10,
      user: { ...bot, verified: true, mfa_enabled: false, flags: 0 },
      guilds: guildsOf(shard).map((guild) => ({ id: guild.id, unavailable: true })),
      shard,
      application: { id: applicationId, flags: 0 },
      private_channels: [],
      presences: [],
      relationships: [],
      user_settings: {},
      guild_join_requests: [],
      geo_ordered_rtc_regions: [],
      session_type: 'normal',
      auth: {},
    }),
    guildCreates: (shard) => guildsOf(shard).map(guildCreatePayload),
  });
  const expect = (id: string): InteractionRecord => {
    const interaction = known.interactions.get(id);
    if (!interaction) throw new Error(`no interaction ${id} was dispatched`);
    return interaction;
  };

  return {
    apiUrl: `${origin}/api`,
    cdnUrl: `${origin}/cdn`,
    gatewayUrl,
    token,
    applicationId,
    botUser: bot,
    guilds,
    channel: (nameOrId) => {
      const found = guilds.flatMap((guild) => [...guild.channels, ...guild.threads]).find((channel) => channel.id === nameOrId || channel.name === nameOrId);
      if (!found) throw new Error(`the fake has no channel ${nameOrId}`);
      return found;
    },
    dmChannel: (user) => known.dmChannel(user),
    addAttachment: (bytes, attachmentOptions) => known.attachments.add(bytes, attachmentOptions),
    expireAttachment: (url) => known.attachments.expire(url),
    dispatchMessage: async (spec) => {
      const payload = messageCreatePayload(known, spec, gateway.intents(known.guildOf(spec.channelId)?.id) ?? 0);
      if (payload) await gateway.dispatch('MESSAGE_CREATE', payload);
      return payload;
    },
    dispatchInteraction: async (spec) => {
      const payload = interactionCreatePayload(known, spec);
      await gateway.dispatch('INTERACTION_CREATE', payload);
      return { id: String(payload.id), token: String(payload.token), payload };
    },
    dispatch: (type, data) => gateway.dispatch(type, data),
    interaction: (id) => known.interactions.get(id),
    expireInteraction: (id) => void (expect(id).expired = true),
    expireInteractionToken: (id) => void (expect(id).tokenExpired = true),
    failNext: (pattern, failure, times) => failures.failNext(pattern, failure, times),
    disconnectNext: (pattern, times) => failures.disconnectNext(pattern, times),
    holdNext: (pattern, skip) => failures.holdNext(pattern, skip),
    releaseHeld: () => failures.releaseHeld(),
    calls: log.calls,
    callsOf: (pattern) => log.callsOf(pattern),
    waitForCall: (pattern, predicate) => log.waitFor(pattern, predicate),
    sentMessages: (channelId) => known.sent.filter((message) => channelId === undefined || message.channel_id === channelId),
    commands: (guildId) => known.commands.get(guildId ?? 'global'),
    identifies: gateway.identifies,
    gatewayCloses: gateway.closes,
    gatewayQueries: gateway.connectionQueries,
    waitForGatewayClose: (predicate) => gateway.waitForClose(predicate),
    closeGateway: (code, reason) => gateway.closeConnection(code, reason),
    close: async () => {
      failures.releaseHeld();
      await gateway.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        for (const socket of sockets) socket.destroy();
      });
    },
  };
}
