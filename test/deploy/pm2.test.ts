import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { privateChat, startFakeTelegram, textMessageUpdate, user, type FakeTelegram } from '../fakes/telegram/index.js';
import { freePort } from '../support/free-port.js';
import { botReady, createPm2Scratch, fakeLlamaServer, poll, type Pm2App, type Pm2Scratch } from './pm2-harness.js';

// The ecosystem as a user runs it: `pm2 start ecosystem.config.cjs` with a .env, the `model` app being the fake
// llama-server through LLAMA_SERVER_BIN, the bot on the fake Telegram Bot API (long polling). kill -9 of the bot
// during a model call: pm2 starts it again and every message Telegram saw confirmed is answered exactly once.

const somchai = user(7101, 'Somchai');
const chat = privateChat(somchai);

let telegram: FakeTelegram;
let scratch: Pm2Scratch;
let botPort: number;
let modelPort: number;

beforeAll(async () => {
  telegram = await startFakeTelegram({ chats: [chat] });
  scratch = await createPm2Scratch();
  botPort = await freePort();
  modelPort = await freePort();
  writeFileSync(path.join(scratch.directory, 'tiny.gguf'), 'GGUF');
}, 60_000);
afterAll(async () => {
  await scratch?.dispose();
  await telegram?.close();
});

function settings(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    MODEL_SERVER: 'llama-server',
    LLAMA_SERVER_BIN: fakeLlamaServer,
    LLAMA_MODEL: 'tiny.gguf',
    LLAMA_PORT: String(modelPort),
    MODEL_BASE_URL: `http://127.0.0.1:${modelPort}/v1`,
    MODEL_NAME: 'fake-llama',
    MODEL_TOOLS: 'off',
    MODEL_VISION: 'off',
    MODEL_RETRIES: '0',
    SEARCH_PROVIDER: 'none',
    TELEGRAM_BOT_TOKEN: telegram.token,
    TELEGRAM_API_ROOT: telegram.url,
    DATA_DIR: './data',
    HTTP_PORT: String(botPort),
    LOG_LEVEL: 'info',
    ...overrides,
  };
}

const app = async (name: string): Promise<Pm2App | undefined> => (await scratch.apps()).find((entry) => entry.name === name);
const online = async (name: string, restarts = 0): Promise<Pm2App | undefined> => {
  const found = await app(name);
  return found?.pm2_env.status === 'online' && found.pm2_env.restart_time >= restarts && found.pid > 0 ? found : undefined;
};
const sentTexts = () => telegram.sentMessages(chat.id).flatMap((message) => ('text' in message ? [message.text] : []));

/** Pushes a question and resolves once the bot confirmed it (its next getUpdates offset is past it). */
async function askAndConfirm(text: string): Promise<void> {
  const pushed = telegram.pushUpdate(textMessageUpdate({ chat, from: somchai, text }));
  if (!pushed) throw new Error('not delivered');
  await telegram.waitForCall('getUpdates', (call) => Number(call.params.offset) > pushed.update_id);
}
const answered = (count: number) => telegram.waitForCall('sendMessage', () => telegram.sentMessages(chat.id).length >= count);
const modelStats = async () => (await (await fetch(`http://127.0.0.1:${modelPort}/fake/stats`)).json()) as { chatRequests: number; held: number };

describe('pm2 start ecosystem.config.cjs', { timeout: 90_000 }, () => {
  it('runs model and bot, and restarts the bot after kill -9 without losing or repeating a message', async () => {
    scratch.writeDotEnv(settings());
    await scratch.pm2('start', 'ecosystem.config.cjs');
    await poll('model online', () => online('model'));
    const bot = await poll('saeng online', () => online('saeng'));
    await poll('the bot ready', async () => ((await botReady(botPort)) ? true : undefined));

    await askAndConfirm('สวัสดี #1');
    await answered(1);
    expect(sentTexts()).toEqual(['ได้รับข้อความแล้วค่ะ (#1)']);

    // The model call of #2 is held open; #3 waits behind it in the same chat.
    await askAndConfirm('ร้านเปิดกี่โมง [hold] #2');
    await poll('the model call of #2', async () => ((await modelStats()).held === 1 ? true : undefined));
    await askAndConfirm('แล้วปิดกี่โมง #3');
    process.kill(bot.pid, 'SIGKILL');

    const restarted = await poll('saeng restarted', async () => {
      const found = await online('saeng', 1);
      return found && found.pid !== bot.pid ? found : undefined;
    });
    expect(restarted.pm2_env.restart_time).toBe(1);
    // Sent while the new bot may still be starting: waits in Telegram's queue like any message.
    await askAndConfirm('ขอบคุณ #4');
    await answered(4);
    expect(sentTexts()).toEqual(['ได้รับข้อความแล้วค่ะ (#1)', 'ได้รับข้อความแล้วค่ะ (#2)', 'ได้รับข้อความแล้วค่ะ (#3)', 'ได้รับข้อความแล้วค่ะ (#4)']);
    // The model app was not touched by the bot's crash.
    expect((await online('model'))?.pm2_env.restart_time).toBe(0);
    const log = readFileSync(path.join(scratch.directory, 'logs/saeng.out.log'), 'utf8');
    expect(log).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d\d:\d\d: \{/m);
    await scratch.pm2('delete', 'all');
  });

  it('stops a bot that cannot start (exit 1 with the message) instead of restarting it forever', async () => {
    scratch.writeDotEnv(settings({ MODEL_SERVER: 'none', BOT_LANGUAGE: 'en', HTTP_PORT: 'port-three-thousand' }));
    // The client waits for a 'ready' that never comes (up to listen_timeout); the daemon decides without it.
    const client = new AbortController();
    const starting = scratch.pm2Until(client.signal, 'start', 'ecosystem.config.cjs').catch(() => undefined);
    try {
      await poll('pm2 giving up on saeng', async () => (scratch.daemonLog().includes('had too many unstable restarts (3). Stopped.') ? true : undefined));
    } finally {
      client.abort();
      await starting;
    }
    const stopped = await app('saeng');
    expect(stopped?.pid).toBe(0);
    expect(stopped?.pm2_env.exit_code).toBe(1);
    expect(stopped?.pm2_env.restart_time).toBe(2);
    const errors = readFileSync(path.join(scratch.directory, 'logs/saeng.err.log'), 'utf8');
    expect(errors.match(/HTTP_PORT/g)).toHaveLength(3);
  });
});
