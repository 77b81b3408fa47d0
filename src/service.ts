import { describeError } from './shared/describe-error.js';
import type http from 'node:http';
import { createApp, type App } from './app.js';
import type { Config } from './config.js';
import { startHttpServer } from './http.js';
import { Metrics } from './metrics.js';
import { waitForModelServer } from './model-server-wait.js';
import { adapterRoutes, PlatformStates, startAdapters, stopAdapters } from './platforms.js';
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
    adapters,
    redis: options.shared?.redis,
  });
  metrics.attach({ toolNames: app.tools.map((tool) => tool.name), queueStats: () => app.queueStats() });
  const server: http.Server | undefined = await startHttpServer({
    port: config.HTTP_PORT,
    metrics,
    log,
    routes: [...adapterRoutes(adapters), ...(app.fileLinks ? [app.fileLinks.route] : [])],
    host: config.HTTP_HOST,
    // /healthz: alive. /readyz: the model server answers, every platform runs, every store takes a query.
    health: healthAnswer,
    readiness: () => readinessAnswer(app, platforms),
  }).catch((error: unknown) => {
    const problem = httpPortProblem(error, { port: config.HTTP_PORT, host: config.HTTP_HOST }, config.BOT_LANGUAGE);
    const fields = { variable: 'HTTP_PORT', port: config.HTTP_PORT, host: config.HTTP_HOST, error: String(error) };
    if (options.httpServerRequired) log.error(fields, problem);
    else log.warn(fields, problem);
    return undefined;
  });
  if (!server && options.httpServerRequired) {
    await app.close(0);
    process.exit(1);
  }
  // Headless without platforms nothing else holds the event loop; the process must not end on its own (pm2 would
  // restart it in a loop), only by a signal or the console closing, through shutdown() below.
  const keepAlive = setInterval(() => undefined, 2 ** 31 - 1);
  let stopModelWatch: () => void = () => undefined;

  let stopping: Promise<void> | undefined;
  const shutdown = (reason: string, exitCode = 0): Promise<void> => {
    stopping ??= (async () => {
      log.info({ reason, graceMs: config.SHUTDOWN_GRACE_MS }, 'shutting down: finishing running turns');
      stopModelWatch();
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
  try {
    await startAdapters(adapters, app, platforms);
  } catch (error) {
    // A platform that cannot start (a refused token, a bad setting) stops the process: under pm2 a clear exit with
    // back-off, not a bot that looks up and answers on only some of its platforms.
    log.error({ error: describeError(error) }, 'a platform did not start: stopping');
    await shutdown('a platform did not start', 1);
    throw error;
  }
  // After the adapters: the bots' usernames are known, so `/cmd@bot` in a message left from the last run is ours.
  await app.inbound.resume();
  return { app, shutdown };
}
