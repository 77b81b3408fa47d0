import path from 'node:path';
import { Agent } from '../agent/agent.js';
import { ConversationHistory, type HistoryLimits } from '../agent/history.js';
import { createModelClient, DetectedCapabilities, type ModelClient } from '../agent/model/index.js';
import { renderSourceList } from '../agent/guards/sources.js';
import { createFileTools } from '../agent/tools/files/index.js';
import { createReadImageTool } from '../agent/tools/read-image/index.js';
import { createQueryKnowledgeTool, knowledgePolicy } from '../agent/tools/query-knowledge/index.js';
import type { AnyTool } from '../agent/tools/tool.js';
import { createWebTools } from '../agent/tools/web-search/index.js';
import { CommandDispatcher } from './commands/dispatcher.js';
import { createHelpCommand } from './commands/help.js';
import { createWhoamiCommand } from './commands/whoami.js';
import { createKnowledgeCommand } from './commands/kb.js';
import { createResearchCommand, createResearchUnavailableCommand } from './commands/research.js';
import { createResetCommand } from './commands/reset.js';
import { createStatusCommand, type StatusReport } from './commands/status.js';
import { createUsageCommand } from './commands/usage.js';
import { createSettingsCommand } from './commands/settings.js';
import { SpaceSettingsStore } from './settings/space-settings-store.js';
import { defaultCallNames } from './settings/space-settings.js';
import { usageRecorder } from './storage/usage-recorder.js';
import { configSecrets, type Config } from './config.js';
import type { Localized } from './shared/i18n.js';
import { defaultOcrLimits, naiveRagContext, openKnowledgeStore, type KnowledgeStore } from './knowledge/index.js';
import { FileLinks } from './files/file-links.js';
import { createImageReader, createOcr } from './ocr/image-reader.js';
import type { OcrObservation } from './ocr/ocr-engine.js';
import { appVersion } from './backup/app-version.js';
import type { QueueStats } from './queue/inbound-queue.js';
import type { PlatformProblem, PlatformState } from './shared/channel.js';
import type { OcrStatus } from './shared/image-reading.js';
import { InboundWorker } from './pipeline/inbound-worker.js';
import type { Logger } from './shared/log.js';
import { scanForCredentials } from './dlp/scan.js';
import type { HandledMessage, MessageRouter } from './pipeline/router.js';
import { wirePipeline } from './app-pipeline.js';
import { wireReminders } from './app-reminders.js';
import { wireCatchUp } from './app-catchup.js';
import { wireWeb, type WebWiring } from './app-web.js';
import type { ReminderDelivery } from './reminders/reminder-delivery.js';
import type { Scheduler } from '../adapters/common/scheduler.js';
import type { AdapterIdentity, PlatformAdapter } from './shared/channel.js';
import type { InboundMessage, Platform } from './shared/types.js';
import { openStorage, type Storage } from './storage/storage.js';
import { openCheckedDatabase } from './storage/damaged-database.js';
import { openRedisStorage } from './storage/redis-storage.js';
import type { RedisClient } from './redis/redis-client.js';
import { createRedisSearchLimiter } from './limits/redis-search-limiter.js';

/** The console's own user: a global admin without being listed in ADMIN_IDS. */
export const consoleOwnerId = 'owner';

export interface AppOptions {
  config: Config;
  log: Logger;
  /** Told about every handled message (metrics). */
  observe?: (handled: HandledMessage, message: InboundMessage) => void;
  /** Told about every image read (metrics). */
  observeOcr?: (observation: OcrObservation) => void;
  /** Each platform's state (src/platforms.ts), for admins' /status. */
  platformStates?: () => Partial<Record<Platform, PlatformState>>;
  /** Why platforms are down and when they are tried again (src/platforms.ts), for admins' /status. */
  platformProblems?: () => Partial<Record<Platform, PlatformProblem>>;
  /**
   * False while a platform's start has not finished (its bot username unknown): its stored messages wait, and are
   * answered once it has started (src/service.ts wakes them). Every platform counts as started without it.
   */
  platformStarted?: (platform: Platform) => boolean;
  /** History bounds (the turn benchmark compares trimming policies). */
  historyLimits?: HistoryLimits;
  /** Extra tools (tests register their own). */
  extraTools?: readonly AnyTool[];
  now?: () => Date;
  /** The wait of a burst (BURST_WINDOW_MS) for its next message; a timer unless a test resolves it itself. */
  wait?: (ms: number) => Promise<void>;
  /** When reminders are looked at again (tests move time by hand); timers by default. */
  reminderScheduler?: Scheduler;
  /** The adapters whose messages this app handles: attachments are downloaded through them. */
  adapters?: readonly PlatformAdapter[];
  /**
   * REDIS_URL's connection (src/shared-servers.ts), made by the caller: the queue, the quota, the search limiter
   * and the keyv stores then live in Redis, shared with the other processes. The caller closes it after close().
   */
  redis?: RedisClient;
}

export interface App {
  config: Config;
  router: MessageRouter;
  agent: Agent;
  model: ModelClient;
  capabilities: DetectedCapabilities;
  storage: Storage;
  knowledge: KnowledgeStore;
  tools: readonly AnyTool[];
  /** The inbound queue's depth (one indexed query): /readyz, /status, /metrics. */
  queueStats(): Promise<QueueStats>;
  /** Whether tesseract and its languages are there, as last checked (no tesseract run once known). */
  ocrStatus(): Promise<OcrStatus>;
  status(message: Pick<InboundMessage, 'conversationKey' | 'platform'>, forAdmin?: boolean): Promise<StatusReport>;
  /** Records who the bot is on a platform (its adapter reports it on start), for `/cmd@username`. */
  identify(platform: Platform, identity: AdapterIdentity): void;
  /**
   * The adapters' handler: the durable inbound queue (`DATA_DIR/inbound.db`) and its worker. It processes nothing
   * until `inbound.resume()`, called once the adapters have started (their usernames are known then).
   */
  inbound: InboundWorker;
  /** Sends reminders when due; started once the adapters have (src/service.ts), like `inbound.resume()`. */
  reminders: ReminderDelivery;
  /** The admin web page: `/web`'s sessions, and the site src/service.ts serves under /admin. */
  web: WebWiring;
  /** Signed download links for written files, served on HTTP_PORT (PUBLIC_BASE_URL set). */
  fileLinks: FileLinks | undefined;
  /**
   * Starts no new message, lets running turns finish (at most `graceMs`, default: as long as they take), then
   * closes the stores; what did not finish stays queued for the next start. Resolves with whether all finished.
   */
  close(graceMs?: number): Promise<boolean>;
}

/** The composition root shared by `npm start`, the console chat, the one-shot CLI, tests and benchmarks. */
export function createApp(options: AppOptions): App {
  const { config, log } = options;
  const dataDir = path.resolve(config.DATA_DIR);
  const { redis } = options;
  const secrets = configSecrets(config);
  const redisStorage = redis ? openRedisStorage(redis) : undefined;
  // Each SQLite file is looked at before its store opens it: a damaged one stops the start naming it (DamagedDatabaseError).
  const storage: Storage = redisStorage ?? openCheckedDatabase(path.join(dataDir, 'state.db'), () => openStorage(dataDir));
  const searchLimiter = redis ? createRedisSearchLimiter({ client: redis }) : undefined;
  const ocr = createOcr(
    {
      languages: config.OCR_LANGS,
      timeoutMs: config.OCR_TIMEOUT_MS,
      concurrency: config.OCR_CONCURRENCY,
      executable: config.TESSERACT_PATH,
      visionMaxEdge: config.VISION_MAX_EDGE,
      maxPixels: config.MAX_IMAGE_PIXELS,
    },
    log,
    options.observeOcr,
  );
  const knowledgeFile = path.join(dataDir, 'knowledge.db');
  const openKnowledge = () =>
    openKnowledgeStore({
      ...(config.DATABASE_URL ? { databaseUrl: config.DATABASE_URL } : { path: knowledgeFile }),
      embeddings: config.EMBEDDINGS_BASE_URL
        ? { baseUrl: config.EMBEDDINGS_BASE_URL, model: config.EMBEDDINGS_MODEL, apiKey: config.MODEL_API_KEY }
        : undefined,
      log,
      secrets,
      maxDocumentBytes: config.MAX_ATTACHMENT_BYTES,
      // Images and scanned PDF pages are read by the same engine as chat images (one concurrency bound for both).
      ocr,
      ocrLimits: { ...defaultOcrLimits, maxOcrPages: config.OCR_MAX_PAGES },
    });
  const knowledge = config.DATABASE_URL ? openKnowledge() : openCheckedDatabase(knowledgeFile, openKnowledge);
  const model = createModelClient({
    baseUrl: config.MODEL_BASE_URL,
    apiKey: config.MODEL_API_KEY,
    model: config.MODEL_NAME,
    timeoutMs: config.MODEL_TIMEOUT_MS,
    retries: config.MODEL_RETRIES,
    maxTokens: config.MODEL_MAX_TOKENS,
    outputLimits: { answerChars: config.MODEL_MAX_ANSWER_CHARS, reasoningChars: config.MODEL_MAX_REASONING_CHARS, stepMs: config.MODEL_STEP_MAX_MS },
    log,
    // Read at call time: detection runs before a turn's first call.
    server: () => capabilities.server(),
  });
  const capabilities = new DetectedCapabilities({
    settings: { baseUrl: config.MODEL_BASE_URL, apiKey: config.MODEL_API_KEY, tools: config.MODEL_TOOLS, vision: config.MODEL_VISION },
    model: () => model.model(),
    cache: storage.cache,
    log,
    timeoutMs: config.MODEL_TIMEOUT_MS,
  });
  const web = createWebTools({
    settings: {
      provider: config.SEARCH_PROVIDER,
      searxngUrl: config.SEARXNG_URL,
      braveApiKey: config.BRAVE_API_KEY,
      braveBaseUrl: config.BRAVE_API_BASE_URL,
      tavilyApiKey: config.TAVILY_API_KEY,
      tavilyBaseUrl: config.TAVILY_API_BASE_URL,
      llmFilter: config.SEARCH_LLM_FILTER,
      timeoutMs: config.SEARCH_TIMEOUT_MS,
      cacheTtlSeconds: config.SEARCH_CACHE_TTL_SECONDS,
    },
    cache: storage.cache,
    log,
    secrets,
    timeZone: config.BOT_TIMEZONE,
    ...(searchLimiter ? { limiter: searchLimiter.factory } : {}),
  });
  const images = createImageReader(ocr, { visionMaxEdge: config.VISION_MAX_EDGE, maxPixels: config.MAX_IMAGE_PIXELS });
  const tools: AnyTool[] = [createQueryKnowledgeTool(knowledge), ...web.tools, createReadImageTool(), ...createFileTools(), ...(options.extraTools ?? [])];
  const toolPolicies: Localized[] = [knowledgePolicy];
  const history = new ConversationHistory(storage.history, options.historyLimits);
  const agent = new Agent({
    model,
    tools,
    toolPolicies,
    capabilities,
    history,
    knowledge: {
      boundKnowledgeBaseIds: (conversationKey) => knowledge.boundKnowledgeBaseIds(conversationKey),
      naiveContext: (conversationKey, question, language, alreadySent) => naiveRagContext(knowledge, conversationKey, question, { language, alreadySent }),
    },
    images,
    settings: {
      botName: config.BOT_NAME,
      language: config.BOT_LANGUAGE,
      timeZone: config.BOT_TIMEZONE,
      maxSteps: config.MODEL_MAX_STEPS,
      dataDir,
      secrets,
    },
    log,
    now: options.now,
  });

  const identities = new Map<Platform, AdapterIdentity>();
  const spaceSettings = new SpaceSettingsStore(storage.settings);
  /** The outbound DLP's scanner, for texts a command keeps or sends on (/research's answer, /settings instructions). */
  const credentialKinds = (text: string): string[] => {
    const scan = scanForCredentials(text, { secrets });
    return scan.found ? scan.kinds : [];
  };
  const settingsDefaults = {
    language: config.BOT_LANGUAGE,
    names: defaultCallNames(config.BOT_NAME),
    groupContext: config.GROUP_CONTEXT_MESSAGES,
    quotaPerMinute: config.USER_MESSAGES_PER_MINUTE,
    streams: (platform: Platform) => config.STREAM_PLATFORMS.includes(platform),
  };
  const status = async (message: Pick<InboundMessage, 'conversationKey' | 'platform' | 'spaceKey'>, forAdmin = false): Promise<StatusReport> => {
    const { conversationKey } = message;
    const report = await capabilities.detailed();
    const current = { tools: report.tools, vision: report.vision };
    return {
      // An internal address: members never see it (the command shows it to admins only, and it is not here for them).
      ...(forAdmin ? { baseUrl: config.MODEL_BASE_URL } : {}),
      model: await model.model(),
      server: report.server,
      healthy: report.server !== 'unreachable',
      capabilities: current,
      capabilitySources: { tools: report.toolsSource, vision: report.visionSource },
      rag: await agent.ragMode(current, conversationKey),
      tools: current.tools ? tools.map((tool) => tool.name) : [],
      readsAllGroupMessages: identities.get(message.platform)?.readsAllGroupMessages,
      ocr: await ocr.recheck(),
      // A store that cannot be read leaves the line out: /status must answer while Redis is down.
      spaceSettings: await spaceSettings.get(message.spaceKey).catch(() => undefined),
      webSearch: web.research !== null,
      ...(forAdmin ? { admin: await adminStatus() } : {}),
      platformLines: (await options.adapters?.find((adapter) => adapter.platform === message.platform)?.statusLines?.(config.BOT_LANGUAGE, forAdmin)) ?? [],
    };
  };

  const adminStatus = async () => ({
    uptimeSeconds: Math.round(process.uptime()),
    version: appVersion(),
    queue: await inboundQueue.stats(),
    platforms: options.platformStates?.() ?? {},
    platformProblems: options.platformProblems?.() ?? {},
  });

  const commands = new CommandDispatcher([], {
    adminIds: [...config.ADMIN_IDS, `console:${consoleOwnerId}`],
    language: config.BOT_LANGUAGE,
    log,
    now: options.now,
  });
  const readsAllGroupMessages = (platform: Platform) => identities.get(platform)?.readsAllGroupMessages;
  commands.add(createHelpCommand(() => commands.list()));
  commands.add(createStatusCommand(status, settingsDefaults));
  commands.add(createResetCommand((conversationKey) => history.clear(conversationKey)));
  commands.add(createWhoamiCommand());
  commands.add(createKnowledgeCommand(knowledge, { maxAttachmentBytes: config.MAX_ATTACHMENT_BYTES, confirmationStore: storage.cache }));
  commands.add(createUsageCommand(storage.usage, { timeZone: config.BOT_TIMEZONE }));
  commands.add(
    createSettingsCommand({
      store: spaceSettings,
      defaults: settingsDefaults,
      credentialKinds,
      timeZone: config.BOT_TIMEZONE,
      readsAllGroupMessages,
    }),
  );
  const catchUp = wireCatchUp(options, { storage, commands, spaceSettings, secrets, complete: model.complete, readsAllGroupMessages });
  const reminders = wireReminders(options, { storage, commands, credentialKinds, compose: catchUp.composeDigest });
  const webPage = wireWeb({
    config,
    log,
    storage,
    redis: redisStorage?.redis,
    commands,
    knowledge,
    spaceSettings,
    adapters: options.adapters ?? [],
    now: options.now ?? (() => new Date()),
    settingsDefaults,
    credentialKinds,
  });
  const research = web.research;
  if (!research) commands.add(createResearchUnavailableCommand());
  if (research) {
    commands.add(
      createResearchCommand(
        (question, context) =>
          research(question, {
            complete: model.complete,
            language: context.language,
            signal: new AbortController().signal,
            progress: context.progress,
            now: context.now,
            log: context.log,
          }),
        renderSourceList,
        credentialKinds,
      ),
    );
  }

  // Every turn that ends (answered, failed or cancelled) is counted for /usage, then told to the caller (metrics).
  const recordUsage = usageRecorder({ store: storage.usage, timeZone: config.BOT_TIMEZONE, now: options.now ?? (() => new Date()), log });
  const observe: AppOptions['observe'] = (handled, message) => {
    if (handled.turn) void recordUsage(handled.turn, message);
    options.observe?.(handled, message);
  };
  const { turns, inboundQueue, quotas, fileLinks, router, inbound, botUsernames, outbound } = wirePipeline(
    { ...options, observe },
    {
      dataDir,
      secrets,
      storage,
      redisStorage,
      knowledge,
      agent,
      commands,
      spaceSettings,
      catchUp: catchUp.router,
    },
  );

  reminders.sendThrough(outbound);

  return {
    config,
    web: webPage,
    fileLinks,
    router,
    agent,
    model,
    capabilities,
    storage,
    knowledge,
    tools,
    queueStats: () => inboundQueue.stats(),
    ocrStatus: () => ocr.status(),
    status,
    identify: (platform, identity) => {
      identities.set(platform, identity);
      if (identity.username) botUsernames.set(platform, identity.username);
      else botUsernames.delete(platform);
    },
    inbound,
    reminders: reminders.delivery,
    close: async (graceMs) => {
      const finished = await within(Promise.all([inbound.stop(), turns.drain(), reminders.delivery.stop()]), graceMs);
      await quotas.close();
      await searchLimiter?.close();
      await knowledge.close();
      await inboundQueue.close();
      storage.close();
      return finished;
    },
  };
}

/** True when `work` settles within `ms` (no limit when undefined); false when the time ran out first. */
async function within(work: Promise<unknown>, ms: number | undefined): Promise<boolean> {
  if (ms === undefined) {
    await work;
    return true;
  }
  let timer: NodeJS.Timeout | undefined;
  const timeUp = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([work.then(() => true as const), timeUp]);
  } finally {
    clearTimeout(timer);
  }
}
