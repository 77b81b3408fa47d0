import { createConsoleAdapter, type ConsoleAdapter } from '../adapters/console/index.js';
import { consoleOwnerId, createApp } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { startHttpServer } from './http.js';
import { createLogger } from './shared/log.js';
import { Metrics } from './metrics.js';
import { loadDotEnv } from './dotenv.js';
import { waitForModelServer } from './model-server-wait.js';
import { adapterRoutes, createPlatformAdapters, startAdapters, stopAdapters } from './platforms.js';
import type { PlatformAdapter } from './shared/channel.js';

// `npm start`: every platform whose credentials are set, plus the console chat when there is a terminal (without
// one, e.g. under pm2, the health/metrics server keeps the process up). `npm run chat`: the console chat only.

async function main(): Promise<void> {
  loadDotEnv();
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\nSee .env.example and the configuration table in README.md.\n`);
      process.exit(1);
    }
    throw error;
  }
  const consoleOnly = process.argv.includes('--console');
  const interactive = consoleOnly || Boolean(process.stdin.isTTY);
  // In the console chat, routine info lines would bury the conversation: warnings only unless LOG_LEVEL is set.
  const level = interactive && !process.env.LOG_LEVEL ? 'warn' : config.LOG_LEVEL;
  const log = createLogger({ level, pretty: interactive, destination: process.stderr });
  const metrics = new Metrics();
  const consoleAdapter: ConsoleAdapter | undefined = interactive ? createConsoleAdapter({ userId: consoleOwnerId, language: config.BOT_LANGUAGE }) : undefined;
  const adapters: PlatformAdapter[] = [...(consoleOnly ? [] : createPlatformAdapters(config, log)), ...(consoleAdapter ? [consoleAdapter] : [])];
  const app = createApp({ config, log, observe: (handled) => metrics.record(handled), adapters });
  const server = await startHttpServer({
    port: config.HTTP_PORT,
    metrics,
    log,
    routes: adapterRoutes(adapters),
    health: async () => {
      const report = await app.capabilities.detailed();
      return { ok: report.server !== 'unreachable', detail: { modelServer: report.server, tools: report.tools, vision: report.vision } };
    },
  }).catch((error: unknown) => {
    log.warn({ port: config.HTTP_PORT, error: String(error) }, 'health/metrics server not started');
    return undefined;
  });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down: finishing queued turns');
    await stopAdapters(adapters, log);
    server?.close();
    await app.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  if (config.REDIS_URL || config.DATABASE_URL) {
    // Multi-machine storage (shared queue, quota and stores) is not built yet; say so instead of silently ignoring it.
    log.warn('REDIS_URL / DATABASE_URL are not supported yet: state stays in SQLite files under DATA_DIR');
  }
  if (process.env.SAENG_WAIT_FOR_MODEL === '1') await waitForModelServer(config.MODEL_BASE_URL, { timeoutMs: 120_000, log });
  await startAdapters(adapters, app);
  process.send?.('ready'); // pm2 wait_ready

  if (consoleAdapter) {
    await consoleAdapter.closed;
    await shutdown('console closed');
    return;
  }
  if (adapters.length === 0) log.info('no terminal and no platform adapter: serving /healthz and /metrics only');
}

await main();
