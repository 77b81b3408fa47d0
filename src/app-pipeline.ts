import path from 'node:path';
import type { AppOptions } from './app.js';
import type { CommandDispatcher } from './commands/dispatcher.js';
import { FileLinks } from './files/file-links.js';
import type { KnowledgeStore } from './knowledge/index.js';
import { InProcessTurnQueue } from './limits/in-process-turn-queue.js';
import { InProcessUserQuota } from './limits/in-process-user-quota.js';
import { RedisUserQuota } from './limits/redis-user-quota.js';
import type { UserQuota } from './limits/user-quota.js';
import { SpaceQuotas } from './limits/space-quotas.js';
import { ReleasedRecord } from './pipeline/released-record.js';
import { defaultCallNames, spaceSettingsLimits } from './settings/space-settings.js';
import type { SpaceSettingsStore } from './settings/space-settings-store.js';
import { createAttachmentDownloader } from './pipeline/attachment-downloader.js';
import { GroupContext } from './pipeline/group-context.js';
import { InboundWorker } from './pipeline/inbound-worker.js';
import { Outbound } from './pipeline/outbound.js';
import { RecentAttachments } from './pipeline/recent-attachments.js';
import { createRouter, type MessageRouter, type RouterDependencies } from './pipeline/router.js';
import type { InboundQueue } from './queue/inbound-queue.js';
import { RedisInboundQueue } from './queue/redis-inbound-queue.js';
import { SqliteInboundQueue } from './queue/sqlite-inbound-queue.js';
import { reminderRequestText } from './reminders/reminder-call.js';
import type { InboundMessage, Platform } from './shared/types.js';
import type { TurnRunner } from './shared/turn-runner.js';
import { openCheckedDatabase } from './storage/damaged-database.js';
import type { RedisStorage } from './storage/redis-storage.js';
import type { Storage } from './storage/storage.js';
import { defaultDocumentLimits, prepareDocument } from './knowledge/ingest/prepare-document.js';
import { maxQuotedDocumentChars } from './pipeline/quoted-context.js';

/** What the pipeline is built from: the stores, the agent and the commands createApp made before. */
export interface PipelineServices {
  dataDir: string;
  secrets: readonly string[];
  storage: Storage;
  redisStorage: RedisStorage | undefined;
  knowledge: KnowledgeStore;
  agent: TurnRunner;
  commands: CommandDispatcher;
  spaceSettings: SpaceSettingsStore;
  /** Catch-up's log and words (src/app-catchup.ts); absent: off. */
  catchUp?: RouterDependencies['catchUp'];
}

export interface Pipeline {
  /** TURN_CONCURRENCY, shared by the queued and the direct path. */
  turns: InProcessTurnQueue;
  inboundQueue: InboundQueue;
  /** The per-user quotas, bot-wide and per space (closed at shutdown). */
  quotas: SpaceQuotas;
  fileLinks: FileLinks | undefined;
  router: MessageRouter;
  inbound: InboundWorker;
  /** Each platform's bot username, set when its adapter reports it (App.identify), for `/cmd@username`. */
  botUsernames: Map<Platform, string>;
  /** The one choke point of what is sent (the DLP): reminders leave through it too. */
  outbound: Outbound;
}

/**
 * The route of one message (src/pipeline/) on its durable store (src/queue/): the queue chosen by config (Redis
 * when REDIS_URL is set, else DATA_DIR/inbound.db), the router, and the worker handed the router and the adapters.
 */
export function wirePipeline(options: AppOptions, services: PipelineServices): Pipeline {
  const { config, log, redis } = options;
  const { dataDir, secrets, storage, redisStorage, knowledge, agent, commands, spaceSettings } = services;
  const queue = new InProcessTurnQueue(config.TURN_CONCURRENCY);
  const dedupeTtlMs = config.DEDUPE_TTL_SECONDS * 1000;
  const inboundQueue: InboundQueue = redis
    ? new RedisInboundQueue({ client: redis, dedupeTtlMs, leaseMs: config.REDIS_LEASE_SECONDS * 1000, log, language: config.BOT_LANGUAGE })
    : openCheckedDatabase(path.join(dataDir, 'inbound.db'), () => new SqliteInboundQueue({ dataDir, dedupeTtlMs, log }));
  const quotaOf = (perMinute: number): UserQuota => (redis ? new RedisUserQuota({ client: redis, perMinute }) : new InProcessUserQuota(perMinute));
  const quotas = new SpaceQuotas(quotaOf(config.USER_MESSAGES_PER_MINUTE), quotaOf);
  const botUsernames = new Map<Platform, string>();
  const clock = options.now ?? (() => new Date());
  const fileLinks = config.PUBLIC_BASE_URL
    ? new FileLinks({
        baseUrl: config.PUBLIC_BASE_URL,
        dataDir,
        ttlSeconds: config.FILE_LINK_SECONDS,
        ...(options.now ? { now: () => options.now?.().getTime() ?? Date.now() } : {}),
      })
    : undefined;
  const outbound = new Outbound({ secrets, language: config.BOT_LANGUAGE, log, released: new ReleasedRecord(storage.cache) });
  const router = createRouter({
    fileLinks,
    inbound: inboundQueue,
    queue,
    quotas,
    spaceSettings,
    commands,
    agent,
    outbound,
    download: createAttachmentDownloader(options.adapters ?? []),
    // A quoted document's text layer in the extraction worker (no OCR: a quote is read in passing, not ingested).
    readDocument: async (bytes, attachment) => {
      const prepared = await prepareDocument({ fileName: attachment.name, bytes, mime: attachment.mime }, defaultDocumentLimits, { log });
      return prepared.ok ? prepared.text.slice(0, maxQuotedDocumentChars) : undefined;
    },
    recentAttachments: new RecentAttachments({ store: storage.cache, redis: redisStorage?.redis, windowSeconds: config.IMAGE_CONTEXT_SECONDS, now: clock }),
    groupContext: new GroupContext({
      store: storage.cache,
      redis: redisStorage?.redis,
      maxMessages: config.GROUP_CONTEXT_MESSAGES,
      // A space may ask for more than the default (/settings context), up to the setting's own limit.
      keepMessages: config.GROUP_CONTEXT_MESSAGES > 0 ? spaceSettingsLimits.groupContext : 0,
      language: config.BOT_LANGUAGE,
      now: clock,
    }),
    botUsername: (platform) => botUsernames.get(platform),
    settings: {
      language: config.BOT_LANGUAGE,
      botNames: defaultCallNames(config.BOT_NAME),
      maxMessageChars: config.MAX_MESSAGE_CHARS,
      maxAttachmentBytes: config.MAX_ATTACHMENT_BYTES,
      imageLimits: { maxBytes: Math.min(config.MAX_IMAGE_BYTES, config.MAX_ATTACHMENT_BYTES), maxPixels: config.MAX_IMAGE_PIXELS },
      streamPlatforms: new Set(config.STREAM_PLATFORMS),
    },
    // Only with /remind on the dispatcher (createApp adds it; a test's bare router may not).
    ...(commands.list().some((command) => command.name === 'remind')
      ? {
          reminderRequest: (message: InboundMessage, names: readonly string[]) =>
            reminderRequestText(message, { names, now: clock(), timeZone: config.BOT_TIMEZONE }),
        }
      : {}),
    ...(services.catchUp ? { catchUp: services.catchUp } : {}),
    late: {
      maxAgeMs: config.MAX_MESSAGE_AGE_MS,
      missedAgeMs: config.MISSED_MESSAGE_AGE_MS,
      timeZone: config.BOT_TIMEZONE,
      language: config.BOT_LANGUAGE,
      now: () => clock().getTime(),
    },
    burst: {
      windowMs: config.BURST_WINDOW_MS,
      now: () => clock().getTime(),
      wait: options.wait ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
    },
    log,
    observe: options.observe,
  });
  const inbound = new InboundWorker({
    queue: inboundQueue,
    turns: queue,
    router,
    adapters: options.adapters ?? [],
    platformStarted: options.platformStarted,
    spaces: { history: storage.history, knowledge, settings: spaceSettings, reminders: storage.reminders, groupLog: storage.groupLog },
    records: storage.cache,
    // Twice the turn slots: a turn waiting for a slot while another's answer is sent, no more (the rest stay in
    // the shared stream for another process).
    maxConversations: 2 * config.TURN_CONCURRENCY,
    log,
  });

  return { turns: queue, inboundQueue, quotas, fileLinks, router, inbound, botUsernames, outbound };
}
