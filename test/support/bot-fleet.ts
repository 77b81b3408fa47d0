import path from 'node:path';
import type { Update } from 'telegraf/types';
import type { FakeLine } from '../fakes/line/index.js';
import type { FakeTelegram } from '../fakes/telegram/index.js';
import { botEnvironment, startBotProcess, type BotProcess } from './bot-process.js';

// Several real bot processes (src/main.ts) sharing one Redis and one PostgreSQL, each with its own DATA_DIR and
// HTTP port, taking LINE and Telegram webhooks as a load balancer spreads them: the scale-out test and
// `npm run bench -- scale` both start them this way.

export interface FleetServers {
  model: { url: string };
  line: FakeLine;
  telegram: FakeTelegram;
  redisUrl: string;
  databaseUrl: string;
}

export interface FleetBot {
  name: string;
  process: BotProcess;
  origin: string;
  alive: boolean;
}

export const telegramWebhookSecret = 'fleet-webhook-secret';

export async function startFleetBot(servers: FleetServers, workDir: string, name: string, extra: Record<string, string> = {}): Promise<FleetBot> {
  const bot = await startBotProcess(
    {
      ...botEnvironment(servers.model.url, path.join(workDir, name), 'info'),
      LINE_CHANNEL_SECRET: servers.line.channelSecret,
      LINE_CHANNEL_ACCESS_TOKEN: servers.line.channelAccessToken,
      LINE_API_BASE_URL: servers.line.url,
      LINE_DATA_API_BASE_URL: servers.line.url,
      TELEGRAM_BOT_TOKEN: servers.telegram.token,
      TELEGRAM_API_ROOT: servers.telegram.url,
      // Telegram only needs to be told an HTTPS address; the test posts the updates itself, as Telegram would.
      TELEGRAM_WEBHOOK_URL: 'https://saeng.example/webhooks/telegram',
      TELEGRAM_WEBHOOK_SECRET: telegramWebhookSecret,
      REDIS_URL: servers.redisUrl,
      DATABASE_URL: servers.databaseUrl,
      ...extra,
    },
    workDir,
  );
  // The port the system gave HTTP_PORT=0, from the bot's own log line.
  const listening = await bot.stdoutLine('"http server listening"');
  const port = (JSON.parse(listening) as { port?: number }).port;
  if (!port) throw new Error(`no listening port in the log of ${name}:\n${bot.stderr()}`);
  return { name, process: bot, origin: `http://127.0.0.1:${port}`, alive: true };
}

/** SIGKILL, marked first so the balancer stops choosing it (a health check would). */
export async function killFleetBot(bot: FleetBot): Promise<void> {
  bot.alive = false;
  await bot.process.kill('SIGKILL');
}

/** One webhook delivery: `first` is the process the balancer picks; an event a dead or failing process did not take goes to the next. */
async function deliver(bots: readonly FleetBot[], first: number, post: (bot: FleetBot, again: boolean) => Promise<number | string>): Promise<void> {
  const answers: string[] = [];
  for (let attempt = 0; attempt < 20 * bots.length; attempt += 1) {
    const bot = bots[(first + attempt) % bots.length];
    if (!bot?.alive) continue;
    const status = await post(bot, attempt > 0).catch((error: unknown) => String(error));
    if (status === 200) return;
    answers.push(`${bot.name}: ${status}`);
  }
  throw new Error(`no process took the webhook (${answers.slice(0, 4).join('; ')})`);
}

/** A LINE text event, POSTed signed as LINE does; a failed delivery is redelivered as LINE redelivers. */
export function deliverLineText(line: FakeLine, bots: readonly FleetBot[], first: number, userId: string, text: string): Promise<void> {
  const event = line.textEvent({ source: { type: 'user', userId }, text });
  return deliver(
    bots,
    first,
    async (bot, again) => (await line.postWebhook(`${bot.origin}/webhooks/line`, line.webhookBody(again ? line.redeliver(event) : event))).status,
  );
}

let lastUpdateId = 500_000;

/** A Telegram update (numbered here, as Telegram numbers them), POSTed with the webhook's secret token; Telegram resends the same update until it gets a 200. */
export function deliverTelegramUpdate(telegram: FakeTelegram, bots: readonly FleetBot[], first: number, newUpdate: Omit<Update, 'update_id'>): Promise<void> {
  lastUpdateId += 1;
  const update = { ...newUpdate, update_id: lastUpdateId } as Update;
  telegram.rememberUpdate(update);
  return deliver(bots, first, async (bot) => {
    const response = await fetch(`${bot.origin}/webhooks/telegram`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': telegramWebhookSecret },
      body: JSON.stringify(update),
    });
    await response.text();
    return response.status;
  });
}

/** The text of the last user message in a chat request (the fake model's standing answer echoes it). */
export function lastUserText(body: Record<string, unknown>): string {
  const messages = Array.isArray(body.messages) ? (body.messages as { role?: unknown; content?: unknown }[]) : [];
  const last = messages.filter((message) => message.role === 'user').at(-1);
  if (typeof last?.content === 'string') return last.content;
  if (Array.isArray(last?.content))
    return (last.content as { type?: unknown; text?: unknown }[]).map((part) => (typeof part.text === 'string' ? part.text : '')).join('');
  return '';
}

/** Letters for a number (a, b, …, z, ba, …): ids in messages without digits, which the number guard would weigh. */
export function letters(value: number): string {
  let text = '';
  let rest = value;
  do {
    text = String.fromCharCode(97 + (rest % 26)) + text;
    rest = Math.floor(rest / 26);
  } while (rest > 0);
  return text;
}
