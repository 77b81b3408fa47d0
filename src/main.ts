import { runConsoleChat } from '../adapters/console/chat.js';
import { consoleOwnerId, createApp } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { startHttpServer } from './http.js';
import { createLogger } from './shared/log.js';
import { Metrics } from './metrics.js';
import { loadDotEnv } from './dotenv.js';
import { waitForModelServer } from './model-server-wait.js';

// `npm start`: every platform whose credentials are set; with none, the console chat (or, without a terminal,
// e.g. under pm2, just the health/metrics server so the process stays up). `npm run chat`: the console chat.

function configuredPlatforms(config: Config): string[] {
  const platforms: string[] = [];
  if (config.DISCORD_TOKEN) platforms.push('discord');
  if (config.TELEGRAM_BOT_TOKEN) platforms.push('telegram');
  if (config.LINE_CHANNEL_SECRET && config.LINE_CHANNEL_ACCESS_TOKEN) platforms.push('line');
  return platforms;
}

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
  const app = createApp({ config, log, observe: (handled) => metrics.record(handled) });
  const server = await startHttpServer({
    port: config.HTTP_PORT,
    metrics,
    log,
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
    server?.close();
    await app.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  if (config.REDIS_URL || config.DATABASE_URL) {
    // Multi-machine storage is planned (DESIGN §11); until then say so instead of silently ignoring it.
    log.warn('REDIS_URL / DATABASE_URL are not supported yet: state stays in SQLite files under DATA_DIR');
  }
  const platforms = configuredPlatforms(config);
  if (platforms.length > 0 && !consoleOnly) {
    // The platform adapters are the next piece of work; say so plainly instead of pretending.
    log.warn({ platforms }, 'platform credentials are set, but this version has no platform adapters yet; only the console chat is available');
  }
  if (process.env.SAENG_WAIT_FOR_MODEL === '1') await waitForModelServer(config.MODEL_BASE_URL, { timeoutMs: 120_000, log });
  process.send?.('ready'); // pm2 wait_ready

  if (interactive) {
    await runConsoleChat({
      router: app.router,
      userId: consoleOwnerId,
      language: config.BOT_LANGUAGE,
      maxAttachmentBytes: config.MAX_ATTACHMENT_BYTES,
    });
    await shutdown('console closed');
    return;
  }
  log.info('no terminal and no platform adapter: serving /healthz and /metrics only');
}

await main();
