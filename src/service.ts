import type http from 'node:http';
import { createApp, type App } from './app.js';
import type { Config } from './config.js';
import { startHttpServer } from './http.js';
import { Metrics } from './metrics.js';
import { waitForModelServer } from './model-server-wait.js';
import { PlatformStarter } from './platform-starter.js';
import { adapterRoutes, PlatformStates, stopAdapters } from './platforms.js';
import { healthAnswer, readinessAnswer } from './readiness.js';
import { httpPortProblem } from './startup-checks.js';
import { checkModelServerAtStart } from './startup-checks-model.js';
import type { PlatformAdapter } from './shared/channel.js';
import type { Logger } from './shared/log.js';
import type { SharedServers } from './shared-servers.js';

// The running bot, shared by `npm start` (src/main.ts) and the crash test's child process: the app, the HTTP
// server, the adapters feeding the durable inbound queue, and the graceful shutdown.

export interface ServiceOptions {
  config: Config;
  log: Logger;
  adapters: readonly PlatformAdapter[];
  /** Poll the model server before starting the adapters (pm2 start-up ordering). */
  waitForModel?: boolean;
  /**
   * Without a terminal (npm start under pm2) the health server is the point: a port it cannot bind stops the
   * process (exit 1). Otherwise (the console chat) it is a warning and the bot runs without it.
   */
  httpServerRequired?: boolean;
  /** The /metrics figures; src/main.ts makes them first, so the adapters it builds count their sends into them. */
  metrics?: Metrics;
  /** REDIS_URL/DATABASE_URL, checked and connected by the caller before the adapters were made (src/shared-servers.ts). */
  shared?: SharedServers;
}

export interface RunningService {
  app: App;
  /** Stop taking updates, let running turns finish up to SHUTDOWN_GRACE_MS, leave the rest queued, close stores. */
  shutdown(reason: string): Promise<void>;
}

/** How long 'ready' waits for the platforms' first start attempts (each is retried in the background after it). */
const firstAttemptWaitMs = 60_000;

const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms).unref());

export async function startService(options: ServiceOptions): Promise<RunningService> {
  const { config, log, adapters } = options;
  const metrics = options.metrics ?? new Metrics();
  const platforms = new PlatformStates();
  const app = createApp({
    config,
    log,
    observe: (handled, message) => metrics.record(handled, message),
    observeOcr: (observation) => metrics.recordOcr(observation),
    platformStates: () => platforms.report(),
    platformProblems: () => platforms.downReport(),
    platformStarted: (platform) => platforms.started(platform),
    adapters,
    redis: options.shared?.redis,
  });
  // The webhooks take deliveries from the moment the HTTP server answers, also while a platform's start is still
  // under way or retried: they are stored, and answered once the platform has started.
  for (const adapter of adapters) {
    platforms.set(adapter.platform, 'starting');
    adapter.attach?.(app.inbound);
  }
  metrics.attach({ toolNames: app.tools.map((tool) => tool.name), queueStats: () => app.queueStats() });
  const admin = app.web.site({
    readiness: () => readinessAnswer(app, platforms),
    guardCounts: () => metrics.guardCounts(),
    model: async () => {
      const report = await app.capabilities.detailed();
      return {
        model: await app.model.model(),
        server: report.server,
        tools: report.tools,
        vision: report.vision,
        toolsSource: report.toolsSource,
        visionSource: report.visionSource,
      };
    },
    stillSpaceAdmin: async (adminId, spaceKey) => {
      const platform = adminId.slice(0, adminId.indexOf(':'));
      const adapter = adapters.find((candidate) => candidate.platform === platform);
      return adapter?.isSpaceAdmin?.(spaceKey, adminId.slice(platform.length + 1));
    },
  });
  const server: http.Server | undefined = await startHttpServer({
    port: config.HTTP_PORT,
    metrics,
    log,
    routes: [...adapterRoutes(adapters), ...(app.fileLinks ? [app.fileLinks.route] : [])],
    host: config.HTTP_HOST,
    // /healthz: alive. /readyz: the model server answers, every platform runs, every store takes a query.
    health: healthAnswer,
    readiness: () => readinessAnswer(app, platforms),
    admin,
  }).catch((error: unknown) => {
    const problem = httpPortProblem(error, { port: config.HTTP_PORT, host: config.HTTP_HOST }, config.BOT_LANGUAGE);
    const fields = { variable: 'HTTP_PORT', port: config.HTTP_PORT, host: config.HTTP_HOST, error: String(error) };
    if (options.httpServerRequired) log.error(fields, problem);
    else log.warn(fields, problem);
    return undefined;
  });
  const address = server?.address();
  // `/web` links point at the port bound (HTTP_PORT=0 leaves it to the system), at HTTP_HOST (loopback for a wildcard)
  // unless PUBLIC_BASE_URL says otherwise.
  if (typeof address === 'object' && address) app.web.listening(localAddress(config.HTTP_HOST, address.port));
  if (!server && options.httpServerRequired) {
    await app.close(0);
    process.exit(1);
  }
  // Headless without platforms nothing else holds the event loop; the process must not end on its own (pm2 would
  // restart it in a loop), only by a signal or the console closing, through shutdown() below.
  const keepAlive = setInterval(() => undefined, 2 ** 31 - 1);
  let stopModelWatch: () => void = () => undefined;
  const starter = new PlatformStarter({
    adapters,
    core: app,
    states: platforms,
    log,
    language: config.BOT_LANGUAGE,
    maxDelayMs: config.PLATFORM_RETRY_MAX_SECONDS * 1000,
    // Its messages stored meanwhile (a webhook takes them before the start finishes) are answered now, in order.
    onStarted: () => void app.inbound.wakeOpen(),
    // A refused token or setting: retrying cannot help. Exit 1 with the line naming the variable (pm2 stops after its
    // restarts), not a bot that looks up while a platform never will be.
    onConfigError: (platform, error) => {
      log.error({ platform, variable: error.variable }, error.describe(config.BOT_LANGUAGE));
      void shutdown(`${platform}: ${error.variable} refused`, 1);
    },
  });

  let stopping: Promise<void> | undefined;
  const shutdown = (reason: string, exitCode = 0): Promise<void> => {
    stopping ??= (async () => {
      log.info({ reason, graceMs: config.SHUTDOWN_GRACE_MS }, 'shutting down: finishing running turns');
      stopModelWatch();
      starter.stop();
      // First no new updates (each adapter acknowledges only what is stored), then the turns, then the stores.
      try {
        await stopAdapters(adapters, log, platforms);
        server?.close();
        const finished = await app.close(config.SHUTDOWN_GRACE_MS);
        if (!finished) log.warn({ graceMs: config.SHUTDOWN_GRACE_MS }, 'turns still running at the end of the grace period: they stay queued');
        await options.shared?.close();
      } catch (error) {
        log.error({ error: String(error) }, 'shutdown failed');
        process.exit(1);
      }
      clearInterval(keepAlive);
      process.exit(exitCode);
    })();
    return stopping;
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  if (options.waitForModel) await waitForModelServer(config.MODEL_BASE_URL, { timeoutMs: 120_000, log });
  // Before the adapters start: the console shows the warning before its greeting.
  stopModelWatch = await checkModelServerAtStart({ baseUrl: config.MODEL_BASE_URL, language: config.BOT_LANGUAGE, log, capabilities: app.capabilities });
  // Messages stored by a webhook before its platform's start finished wait for it (app: platformStarted); the
  // console and the platforms already up do not wait for the others.
  await app.inbound.resume();
  app.reminders.start();
  // Each platform's first attempt, so a refused token stops `npm run up` before pm2 hears 'ready'; a platform that
  // cannot be reached is retried in the background. At most a minute: a start that hangs does not hold 'ready'.
  await Promise.race([starter.start(), delay(firstAttemptWaitMs)]);
  if (stopping) await stopping;
  return { app, shutdown };
}

/** The address a browser on this machine reaches the HTTP server at: a wildcard host is reached on loopback. */
export function localAddress(host: string, port: number): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return `http://127.0.0.1:${port}`;
  return host.includes(':') ? `http://[${host}]:${port}` : `http://${host}:${port}`;
}
