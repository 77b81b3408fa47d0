import path from 'node:path';
import { createConsoleAdapter, type ConsoleAdapter } from '../adapters/console/index.js';
import { consoleOwnerId } from './app.js';
import { configSecrets } from './config.js';
import { createLogRedactor } from './dlp/redact-credentials.js';
import { createLogger } from './shared/log.js';
import { loadDotEnv } from './dotenv.js';
import { installLastResort } from './last-resort.js';
import { Metrics } from './metrics.js';
import { createPlatformAdapters } from './platforms.js';
import { startService } from './service.js';
import { connectSharedServers, SharedServerError } from './shared-servers.js';
import { ensureDataDirOrExit, loadConfigOrExit, stopAtStart } from './startup-checks.js';
import { DamagedDatabaseError } from './storage/damaged-database.js';
import { claimDataDir, DataDirInUseError } from './backup/index.js';
import type { PlatformAdapter } from './shared/channel.js';

// `npm start`: every platform whose credentials are set, plus the console chat when there is a terminal (without
// one, e.g. under pm2, the health/metrics server keeps the process up). `npm run chat`: the console chat only.

async function main(): Promise<void> {
  loadDotEnv();
  const config = loadConfigOrExit();
  ensureDataDirOrExit(config);
  // One bot per DATA_DIR (`npm start` beside `npm run chat`, two pm2 instances), and `npm run restore` refuses while
  // it is held. A kill -9 leaves a stale file, which the next start takes over.
  try {
    process.once('exit', claimDataDir(path.resolve(config.DATA_DIR)));
  } catch (error) {
    if (error instanceof DataDirInUseError) stopAtStart(error.describe(config.BOT_LANGUAGE));
    throw error;
  }
  const consoleOnly = process.argv.includes('--console');
  const interactive = consoleOnly || Boolean(process.stdin.isTTY);
  // In the console chat, routine info lines would bury the conversation: warnings only unless LOG_LEVEL is set.
  const level = interactive && !process.env.LOG_LEVEL ? 'warn' : config.LOG_LEVEL;
  const consoleAdapter: ConsoleAdapter | undefined = interactive
    ? createConsoleAdapter({ userId: consoleOwnerId, language: config.BOT_LANGUAGE, maxAttachmentBytes: config.MAX_ATTACHMENT_BYTES })
    : undefined;
  // In the console chat log lines are printed above the prompt, never across what the user is typing.
  const log = createLogger({
    level,
    pretty: interactive,
    colorize: Boolean(process.stderr.isTTY),
    destination: consoleAdapter?.logOutput ?? process.stderr,
    ...(interactive ? {} : { byLevel: { info: process.stdout, problems: process.stderr } }),
    redact: createLogRedactor(configSecrets(config)),
  });
  // From here an error nothing caught is logged (redacted) and ends the process for pm2 to restart (src/last-resort.ts).
  let started = false;
  // Filled in once the app exists (the worker and its messages in flight).
  const inFlight: { strike?: () => void | Promise<void> } = {};
  installLastResort({
    log,
    started: () => started,
    environment: process.env,
    exit: (code) => process.exit(code),
    strikeInFlight: () => inFlight.strike?.(),
  });
  // Redis and PostgreSQL when configured: checked now, so a wrong address is one plain line and exit 1.
  const shared = await connectSharedServers(config, log).catch((error: unknown) => {
    if (error instanceof SharedServerError) stopAtStart(error.describe(config.BOT_LANGUAGE));
    throw error;
  });
  // Made before the adapters, which count their sends, retries and rate limits into it.
  const metrics = new Metrics();
  const adapters: PlatformAdapter[] = [
    ...(consoleOnly ? [] : createPlatformAdapters(config, log, (platform) => metrics.deliveryObserver(platform), shared.redis)),
    ...(consoleAdapter ? [consoleAdapter] : []),
  ];
  // A damaged SQLite file in DATA_DIR stops the start with one line naming it and the way out.
  const { app, shutdown } = await startService({
    config,
    log,
    adapters,
    metrics,
    shared,
    waitForModel: process.env.SAENG_WAIT_FOR_MODEL === '1',
    httpServerRequired: !interactive,
  }).catch((error: unknown) => {
    if (error instanceof DamagedDatabaseError) stopAtStart(error.describe(config.BOT_LANGUAGE));
    throw error;
  });
  // A crash from here on sets the messages it interrupted aside on their next start (poison messages).
  inFlight.strike = () => app.inbound.markInFlightCrashed();
  process.send?.('ready'); // pm2 wait_ready
  started = true;

  if (consoleAdapter) {
    await consoleAdapter.closed;
    await shutdown('console closed');
    return;
  }
  if (adapters.length === 0) log.info('no terminal and no platform adapter: serving /healthz and /metrics only');
}

await main();
