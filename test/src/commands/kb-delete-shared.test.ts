import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { consoleMessage, createConsoleAdapter } from '../../../adapters/console/index.js';
import { consoleOwnerId, createApp, type App } from '../../../src/app.js';
import { loadConfig } from '../../../src/config.js';
import { connectRedisClient, type RedisClient } from '../../../src/redis/redis-client.js';
import { silentLogger } from '../../../src/shared/log.js';
import { startRedisServer, type RedisServer } from '../../support/redis-server.js';
import { redisServerProgram, systemProgramPresent } from '../../support/system-programs.js';

const redisInstalled = systemProgramPresent(redisServerProgram);

// `/kb delete` asks in one app and is confirmed in another: a second process on the same DATA_DIR (npm run cli beside
// the bot, or the bot after a restart) or on the same Redis. The pending code is in the shared cache store, not in
// the memory of the process that asked; an expired code is refused there too.

const noModelServer = 'http://127.0.0.1:9/v1';
const folders: string[] = [];
const apps: App[] = [];
let redis: RedisServer;
const clients: RedisClient[] = [];

beforeAll(async () => {
  redis = await startRedisServer({ persistence: 'aof' });
});
afterAll(async () => {
  await redis.close();
});
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
  for (const client of clients.splice(0)) if (client.isOpen) client.destroy();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function dataDir(): string {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'saeng-kb-delete-'));
  folders.push(folder);
  return folder;
}

/** One app (one process's worth) on `folder`, with a clock of its own; on Redis when given a client. */
function openApp(folder: string, options: { redis?: RedisClient; now?: () => Date } = {}): App {
  const config = loadConfig({
    MODEL_BASE_URL: noModelServer,
    DATA_DIR: folder,
    SEARCH_PROVIDER: 'none',
    BOT_LANGUAGE: 'en',
    USER_MESSAGES_PER_MINUTE: '10000',
  });
  const app = createApp({
    config,
    log: silentLogger(),
    adapters: [createConsoleAdapter({ userId: consoleOwnerId, language: 'en' })],
    redis: options.redis,
    now: options.now,
  });
  apps.push(app);
  return app;
}

async function say(app: App, text: string): Promise<string> {
  const handled = await app.router.handle(await consoleMessage({ text, userId: consoleOwnerId }), { send: async () => undefined });
  return handled.replies.map((reply) => reply.text).join('\n');
}

function codeIn(prompt: string): string {
  const code = /`\/kb delete faq ([0-9]{4})`/.exec(prompt)?.[1];
  if (!code) throw new Error(`no code in: ${prompt}`);
  return code;
}

async function closeApp(app: App): Promise<void> {
  apps.splice(apps.indexOf(app), 1);
  await app.close();
}

describe.skipIf(!redisInstalled)('/kb delete confirmation outlives the process that asked', () => {
  it('asked, then the process restarts on the same DATA_DIR: the code confirms there', async () => {
    const folder = dataDir();
    const first = openApp(folder);
    expect(await say(first, '/kb create faq Opening hours')).toContain('faq');
    const code = codeIn(await say(first, '/kb delete faq'));
    await closeApp(first);

    const restarted = openApp(folder);
    expect(await say(restarted, `/kb delete faq ${code}`)).toBe('Deleted the knowledge base **faq**.');
    expect(await say(restarted, '/kb list')).toContain('No knowledge bases yet');
  });

  it('asked in the bot, confirmed from a second app on the same DATA_DIR at the same time (npm run cli); used once only', async () => {
    const folder = dataDir();
    const bot = openApp(folder);
    const cli = openApp(folder);
    await say(bot, '/kb create faq Opening hours');
    const code = codeIn(await say(bot, '/kb delete faq'));
    expect(await say(cli, `/kb delete faq ${code}`)).toBe('Deleted the knowledge base **faq**.');
    await say(bot, '/kb create faq Again');
    expect(await say(bot, `/kb delete faq ${code}`)).toContain('No deletion is waiting');
  });

  it('two processes on one Redis: asked in one, confirmed in the other', async () => {
    const folder = dataDir();
    const [one, two] = await Promise.all([
      connectRedisClient({ url: redis.url, log: silentLogger() }),
      connectRedisClient({ url: redis.url, log: silentLogger() }),
    ]);
    clients.push(one, two);
    // Knowledge bases stay in SQLite without DATABASE_URL: both processes read the same knowledge.db here.
    const first = openApp(folder, { redis: one });
    const second = openApp(folder, { redis: two });
    await say(first, '/kb create faq Opening hours');
    const code = codeIn(await say(first, '/kb delete faq'));
    expect(await say(second, `/kb delete faq ${code}`)).toBe('Deleted the knowledge base **faq**.');
  });

  it('an expired code is refused by the other process too', async () => {
    const folder = dataDir();
    const asked = new Date('2026-03-01T09:00:00Z');
    const first = openApp(folder, { now: () => asked });
    await say(first, '/kb create faq Opening hours');
    const code = codeIn(await say(first, '/kb delete faq'));
    const later = openApp(folder, { now: () => new Date(asked.getTime() + 5 * 60_000 + 1) });
    expect(await say(later, `/kb delete faq ${code}`)).toContain('No deletion is waiting for confirmation (or it expired)');
    expect(await say(later, '/kb list')).toContain('faq');
  });
});
