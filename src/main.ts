import { createConsoleAdapter, type ConsoleAdapter } from '../adapters/console/index.js';
import { consoleOwnerId } from './app.js';
import { ConfigError, configSecrets, loadConfig, type Config } from './config.js';
import { createLogRedactor } from './dlp/redact-credentials.js';
import { createLogger } from './shared/log.js';
import { loadDotEnv } from './dotenv.js';
import { createPlatformAdapters } from './platforms.js';
import { startService } from './service.js';
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
  const log = createLogger({ level, pretty: interactive, destination: process.stderr, redact: createLogRedactor(configSecrets(config)) });
  const consoleAdapter: ConsoleAdapter | undefined = interactive ? createConsoleAdapter({ userId: consoleOwnerId, language: config.BOT_LANGUAGE }) : undefined;
  const adapters: PlatformAdapter[] = [...(consoleOnly ? [] : createPlatformAdapters(config, log)), ...(consoleAdapter ? [consoleAdapter] : [])];
  const { shutdown } = await startService({ config, log, adapters, waitForModel: process.env.SAENG_WAIT_FOR_MODEL === '1' });
  process.send?.('ready'); // pm2 wait_ready

  if (consoleAdapter) {
    await consoleAdapter.closed;
    await shutdown('console closed');
    return;
  }
  if (adapters.length === 0) log.info('no terminal and no platform adapter: serving /healthz and /metrics only');
}

await main();
