import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { consoleMessage, createConsoleAdapter } from '../../adapters/console/index.js';
import type { HistoryLimits } from '../../agent/history.js';
import { defineTool, type AnyTool } from '../../agent/tools/tool.js';
import { consoleOwnerId, createApp, type App, type AppOptions } from '../../src/app.js';
import { configSecrets, loadConfig } from '../../src/config.js';
import { silentLogger, type Logger } from '../../src/shared/log.js';
import type { HandledMessage } from '../../src/pipeline/router.js';
import type { PlatformAdapter } from '../../src/shared/channel.js';
import type { InboundMessage, Reply } from '../../src/shared/types.js';
import { memoryLog, type LogRecord } from './memory-log.js';

export interface TestApp {
  app: App;
  dataDir: string;
  /** With `logLevel`: what the app logged, redacted as in production (its configured secrets included). */
  logRecords: LogRecord[];
  logLines: string[];
  /** Sends one console message through the full pipeline and returns what happened. */
  ask(text: string, options?: Partial<AskOptions>): Promise<HandledMessage>;
  send(message: InboundMessage): Promise<HandledMessage>;
  close(): Promise<void>;
}

export interface AskOptions {
  conversation: string;
  userId: string;
  group: boolean;
  mention: boolean;
  attachmentPaths: string[];
}

/** A whole Saeng app on a temporary DATA_DIR, pointed at a fake model server. */
export function createTestApp(options: {
  modelUrl: string;
  environment?: Record<string, string>;
  extraTools?: readonly AnyTool[];
  now?: () => Date;
  /** A burst's wait for its next message (BURST_WINDOW_MS, off here unless the environment sets it). */
  wait?: (ms: number) => Promise<void>;
  log?: Logger;
  /** Record the app's log lines at this level, through production's redaction built from this app's config. */
  logLevel?: string;
  historyLimits?: HistoryLimits;
  /** Platform adapters besides the console's (their attachments download through them and the queue answers through them). */
  adapters?: readonly PlatformAdapter[];
  /** Told about every handled message, on the direct and the queued path. */
  observe?: (handled: HandledMessage, message: InboundMessage) => void;
  /** When reminders are looked at again (a test that drives them by `app.reminders.wake()` gives one that never fires). */
  reminderScheduler?: AppOptions['reminderScheduler'];
}): TestApp {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'saeng-test-'));
  const config = loadConfig({
    MODEL_BASE_URL: options.modelUrl,
    MODEL_NAME: 'test-model',
    MODEL_RETRIES: '0',
    MODEL_TIMEOUT_MS: '5000',
    DATA_DIR: dataDir,
    SEARCH_PROVIDER: 'none',
    USER_MESSAGES_PER_MINUTE: '10000',
    // Tests send several messages in a row and expect an answer each; the burst tests turn it on.
    BURST_WINDOW_MS: '0',
    ...options.environment,
  });
  // The console adapter is never started here: it reads attached files for the router, as in `npm run cli`.
  const adapters = [createConsoleAdapter({ userId: consoleOwnerId, language: config.BOT_LANGUAGE }), ...(options.adapters ?? [])];
  const memory = options.logLevel ? memoryLog(options.logLevel, configSecrets(config)) : undefined;
  const app = createApp({
    config,
    log: options.log ?? memory?.log ?? silentLogger(),
    extraTools: options.extraTools,
    now: options.now,
    wait: options.wait,
    historyLimits: options.historyLimits,
    adapters,
    observe: options.observe,
    reminderScheduler: options.reminderScheduler,
  });
  const send = (message: InboundMessage) => app.router.handle(message, { send: async (_reply: Reply) => undefined });
  return {
    app,
    dataDir,
    logRecords: memory?.records ?? [],
    logLines: memory?.lines ?? [],
    send,
    ask: async (text, askOptions = {}) =>
      send(
        await consoleMessage({
          text,
          conversation: askOptions.conversation,
          userId: askOptions.userId ?? consoleOwnerId,
          group: askOptions.group,
          mention: askOptions.mention,
          attachmentPaths: askOptions.attachmentPaths,
        }),
      ),
    close: async () => {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A deterministic tool for loop tests: returns a fixed fact about its query. */
export function lookupTool(result = (query: string) => `ผลการค้นหา "${query}": ร้านเปิด 08:00–20:00 ทุกวัน`): AnyTool {
  return defineTool({
    name: 'lookup',
    description: 'Look up a fact about the shop.',
    input: z.object({ query: z.string().min(1).max(200) }),
    execute: async (input) => ({ ok: true, content: result(input.query) }),
  });
}
