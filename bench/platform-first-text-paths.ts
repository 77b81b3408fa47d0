import { Writable } from 'node:stream';
import { performance } from 'node:perf_hooks';
import { consoleMessage, consoleResponder } from '../adapters/console/index.js';
import { dispatchWrittenTime } from '../test/fakes/discord/gateway.js';
import { groupChat, privateChat, textMessageUpdate, user } from '../test/fakes/telegram/index.js';
import { userSource } from '../test/fakes/line/index.js';
import type { BenchBots } from './platform-bots.js';
import { contentOf } from './platform-discord-latency.js';
import { carrierOf } from './platform-latency.js';
import { textsOf } from './platform-line-latency.js';
import { modelCallsPerTurn, question } from './platform-first-text-scenario.js';

/** Fewer tokens than the scripted answer has, more than any other call of the turn writes. */
const answerTokensAtLeast = 100;

// One timed turn per path of the first-text run: the question delivered to the bot, then everything the user could
// see, read from the fakes' call logs (performance.now() stamps as each request was read): Telegram's
// sendChatAction / sendMessage / sendMessageDraft / editMessageText, Discord's typing / POST / PATCH of messages,
// LINE's loading and reply / push, and what the console responder printed.

export const firstTextPaths = ['telegramPrivate', 'telegramGroup', 'discord', 'line', 'console'] as const;
export type FirstTextPath = (typeof firstTextPaths)[number];

/** Something that reached the user: `text` when it shows text, none for an indicator (typing, loading). */
export interface Shown {
  at: number;
  what: string;
  text?: string;
  /** The fake refused the call (an error answer): nothing was shown. */
  refused?: boolean;
}

export interface Observed {
  /** The message handed to the bot: getUpdates answered / gateway frame written / webhook POST sent / handle called. */
  deliveredAt: number;
  shown: Shown[];
}

const accepted = (outcome: { status: number } | object | undefined): boolean => outcome !== undefined && 'status' in outcome && outcome.status < 300;

const telegramTextMethods = new Set(['sendMessage', 'sendMessageDraft', 'editMessageText']);

async function viaTelegram(bots: BenchBots, done: () => Promise<void>, turn: number, inGroup: boolean): Promise<Observed> {
  const telegram = bots.telegram;
  if (!telegram) throw new Error('no fake Telegram');
  const from = user(720_000 + turn, `ลูกค้า ${turn}`, `first_text_${turn}`);
  const chat = inGroup ? groupChat(-1_001_720_000_000 - turn, `ร้านทอง ${turn}`) : privateChat(from);
  const firstCall = telegram.calls.length;
  const text = inGroup ? `@${telegram.bot.username} ${question}` : question;
  const pushed = telegram.pushUpdate(textMessageUpdate({ chat, from, text }));
  if (!pushed) throw new Error('the fake did not queue the update');
  await done();
  const carrier = carrierOf(telegram, pushed.update_id);
  if (carrier?.answeredTime === undefined) throw new Error(`no getUpdates answer carried update ${pushed.update_id}`);
  const shown = telegram.calls
    .slice(firstCall)
    .filter((call) => call.params.chat_id === chat.id || String(call.params.chat_id) === String(chat.id))
    .flatMap((call): Shown[] => {
      if (call.method === 'sendChatAction') return [{ at: call.receivedTime, what: `sendChatAction ${String(call.params.action)}` }];
      if (!telegramTextMethods.has(call.method)) return [];
      return [{ at: call.receivedTime, what: call.method, text: String(call.params.text ?? ''), refused: call.outcome?.ok !== true }];
    });
  return { deliveredAt: carrier.answeredTime, shown };
}

async function viaDiscord(bots: BenchBots, done: () => Promise<void>, turn: number): Promise<Observed> {
  const discord = bots.discord;
  const channelId = bots.discordChannels[turn % bots.discordChannels.length];
  const author = bots.discordAuthors[turn % bots.discordAuthors.length];
  if (!discord || !channelId || !author) throw new Error('no fake Discord channel');
  const firstCall = discord.calls.length;
  const payload = await discord.dispatchMessage({ channelId, author, content: `<@${discord.botUser.id}> ${question}` });
  const deliveredAt = payload ? dispatchWrittenTime(payload) : undefined;
  if (deliveredAt === undefined) throw new Error('the fake gateway did not send the message');
  await done();
  const messages = new RegExp(`^/channels/${channelId}/messages(/\\d+)?$`);
  const shown = discord.calls.slice(firstCall).flatMap((call): Shown[] => {
    if (call.path === `/channels/${channelId}/typing`) return [{ at: call.receivedTime, what: 'typing' }];
    if (!messages.test(call.path) || (call.method !== 'POST' && call.method !== 'PATCH')) return [];
    return [{ at: call.receivedTime, what: `${call.method} message`, text: contentOf(call), refused: !accepted(call.outcome) }];
  });
  return { deliveredAt, shown };
}

async function viaLine(bots: BenchBots, done: () => Promise<void>, turn: number): Promise<Observed> {
  const line = bots.line;
  const userId = bots.lineUsers[turn % bots.lineUsers.length];
  if (!line || !userId) throw new Error('no fake LINE user');
  const firstCall = line.calls.length;
  const rawBody = JSON.stringify(line.webhookBody(line.textEvent({ source: userSource(userId), text: question })));
  const deliveredAt = performance.now();
  const answer = await line.postWebhook(bots.lineWebhookUrl, rawBody);
  if (answer.status !== 200) throw new Error(`the LINE webhook answered ${answer.status}`);
  await done();
  const shown = line.calls.slice(firstCall).flatMap((call): Shown[] => {
    if (call.path.endsWith('/chat/loading/start')) return [{ at: call.receivedTime, what: 'loading' }];
    if (call.path !== '/v2/bot/message/reply' && call.path !== '/v2/bot/message/push') return [];
    return [{ at: call.receivedTime, what: call.path.slice('/v2/bot/message/'.length), text: textsOf(call).join('\n'), refused: !accepted(call.outcome) }];
  });
  return { deliveredAt, shown };
}

// eslint-disable-next-line no-control-regex -- ANSI escape sequences and carriage returns, removed on purpose.
const terminalControls = /\x1b\[[0-9;?]*[A-Za-z]|\r/g;

/** The direct path `npm run cli` uses: router.handle with the console responder, its output stamped as written. */
async function viaConsole(bots: BenchBots, turn: number): Promise<Observed> {
  const shown: Shown[] = [];
  const output = new Writable({
    write: (chunk: Buffer, _encoding, done) => {
      // Terminal controls (a status line redrawn in place) are not text the user reads.
      const text = chunk.toString('utf8').replace(terminalControls, '').replace(/^\n+/, '');
      shown.push({ at: performance.now(), what: 'console', text });
      done();
    },
  });
  const message = await consoleMessage({ text: question, conversation: `first-text-${turn}`, userId: `first-text-user-${turn}` });
  const deliveredAt = performance.now();
  await bots.test.app.router.handle(
    message,
    consoleResponder(output, () => undefined),
  );
  return { deliveredAt, shown };
}

/**
 * Waits until the model wrote the turn's last answer (every scripted step taken), then until the queue is idle: the
 * reply was sent. Before the answer idle() would not do: the message may not be queued yet.
 */
async function turnDone(bots: BenchBots, pacedBefore: number): Promise<void> {
  const deadline = performance.now() + 300_000;
  // The answer is the call that wrote answer text (the tool call and the relevance check write none of it).
  const answered = () =>
    bots.model.paced
      .slice(pacedBefore, pacedBefore + modelCallsPerTurn)
      .some((call) => call.endAt !== undefined && call.generatedTokens >= answerTokensAtLeast);
  while (!answered()) {
    if (performance.now() > deadline || bots.model.unexpected.length > 0) throw new Error(`the turn did not end: ${bots.model.unexpected.join('; ')}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await bots.test.app.inbound.idle();
}

export function observe(path: FirstTextPath, bots: BenchBots, turn: number): Promise<Observed> {
  const pacedBefore = bots.model.paced.length;
  const done = () => turnDone(bots, pacedBefore);
  switch (path) {
    case 'telegramPrivate':
      return viaTelegram(bots, done, turn, false);
    case 'telegramGroup':
      return viaTelegram(bots, done, turn, true);
    case 'discord':
      return viaDiscord(bots, done, turn);
    case 'line':
      return viaLine(bots, done, turn);
    case 'console':
      return viaConsole(bots, turn);
  }
}
