import { Writable } from 'node:stream';
import { performance } from 'node:perf_hooks';
import { consoleMessage, consoleResponder } from '../adapters/console/index.js';
import type { Responder } from '../src/shared/channel.js';
import { groupChat, privateChat, textMessageUpdate, user, type FakeTelegram, type TelegramCall } from '../test/fakes/telegram/index.js';
import { startBenchBots, type BenchPlatform, type RateLimitWaits } from './platform-bots.js';
import { DiscordLatencyStep, type DiscordDetail } from './platform-discord-latency.js';
import { LineLatencyStep, type LineDetail } from './platform-line-latency.js';
import { dropModelRecordings, markerOf, markersIn, questionText, scriptEchoingAnswers, type ModelMoments } from './platform-measure.js';

// The sequential latency run: one message at a time, in turn through Telegram (real long polling, real telegraf,
// the durable queue), through the direct path the CLI uses (router.handle), and through Discord (real discord.js on
// the fake gateway, the same queue), and through LINE (a signed webhook POST to the real HTTP server, real
// @line/bot-sdk, the same queue), on the same app. Times come from the fakes (the Bot API's, Discord's and LINE's call
// logs, the gateway's frame stamp, the model server's two moments), from around the webhook POST, and on the direct
// path from around handle/send.

export interface PathSample {
  /**
   * Telegram: getUpdates answered with the update → model request. Discord: MESSAGE_CREATE frame written → model
   * request. LINE: webhook POST sent → model request. Direct: handle called → model request.
   */
  inbound: number;
  /**
   * Model answer written → Telegram: the last sendMessage of the answer received; Discord: the last POST
   * /channels/{id}/messages of the answer received; LINE: the reply call received; direct: the responder's send
   * returned.
   */
  outbound: number;
}

/** Where the Telegram path's time goes, per message (for the report when a goal is missed). */
export interface TelegramDetail {
  /** getUpdates answered → the bot's next getUpdates received: the update parsed, stored (SQLite commit) and confirmed. */
  storedAndPolledAgain: number;
  /** The typing action's answer − the model answer: > 0 when the reply had to wait for the typing call in flight. */
  typingAnsweredAfterModelAnswer: number;
  /** Bot API calls the bot made for this message besides getUpdates (typing, sendMessage). */
  calls: number;
}

export interface LatencyRun {
  telegram: PathSample[];
  cli: PathSample[];
  details: TelegramDetail[];
  /** The same in group chats (the bot @mentioned; on Telegram the answer replies to the question). */
  groupTelegram: PathSample[];
  groupCli: PathSample[];
  /** Guild text channels, the bot @mentioned (the answer replies to the question); none unless Discord runs. */
  discord: PathSample[];
  discordDetails: DiscordDetail[];
  /** The rate-limit waits @discordjs/rest announced during the whole run (warm-up included). */
  discordRateLimits?: RateLimitWaits;
  /** 1:1 chats (user sources); none unless LINE runs. At most `lineMessages` of the main phase. */
  line: PathSample[];
  lineDetails: LineDetail[];
}

/** The getUpdates call whose answer carried the update: the poll held when it was pushed, or a later one. */
export function carrierOf(telegram: FakeTelegram, updateId: number): TelegramCall | undefined {
  const calls = telegram.calls;
  for (let index = calls.length - 1; index >= 0; index--) {
    const call = calls[index];
    if (call && carries(call, updateId)) return call;
  }
  return undefined;
}

const carries = (call: TelegramCall, updateId: number): boolean =>
  call.method === 'getUpdates' &&
  call.outcome?.ok === true &&
  Array.isArray(call.outcome.result) &&
  call.outcome.result.some((update) => (update as { update_id?: unknown }).update_id === updateId);

export interface LatencyOptions {
  messages: number;
  chats: number;
  warmup: number;
  groupMessages: number;
  platforms: readonly BenchPlatform[];
  /** LINE runs with the first this many messages of the main phase (all of them by default). */
  lineMessages?: number;
}

export async function runLatency(options: LatencyOptions): Promise<LatencyRun> {
  const bots = await startBenchBots(options.platforms, options.chats);
  const { telegram, model, test } = bots;
  const discordStep = bots.discord ? new DiscordLatencyStep(bots) : undefined;
  const lineStep = bots.line ? new LineLatencyStep(bots) : undefined;
  const moments = new Map<string, ModelMoments>();
  const users = Array.from({ length: options.chats }, (_, index) => user(710_000 + index, `ลูกค้า ${index}`, `customer_${index}`));
  const groups = [groupChat(-1_001_710_000_001, 'ร้านกาแฟ สาขา 1'), groupChat(-1_001_710_000_002, 'ร้านกาแฟ สาขา 2')];
  const discard = new Writable({ write: (_chunk, _encoding, done) => done() });
  let sequence = 0;

  const momentsOf = (marker: string): ModelMoments => {
    const found = moments.get(marker);
    if (!found) throw new Error(`the model was not asked about ${marker}`);
    moments.delete(marker);
    return found;
  };

  const viaTelegram = async (telegram: FakeTelegram, chat: number, inGroup: boolean): Promise<{ sample: PathSample; detail: TelegramDetail }> => {
    const marker = markerOf(sequence++);
    scriptEchoingAnswers(model, 1, (asked, at) => moments.set(asked, at));
    const from = users[chat] ?? users[0];
    if (!from) throw new Error('no chats');
    const firstCall = telegram.calls.length;
    const sent = telegram.waitForCall('sendMessage', (call) => call.sequence >= firstCall && markersIn(String(call.params.text ?? '')).includes(marker));
    const update = inGroup
      ? textMessageUpdate({ chat: groups[chat % groups.length] ?? privateChat(from), from, text: `@${telegram.bot.username} ${questionText(marker)}` })
      : textMessageUpdate({ chat: privateChat(from), from, text: questionText(marker) });
    const pushed = telegram.pushUpdate(update);
    if (!pushed) throw new Error('the fake did not queue the update');
    const lastPart = await sent;
    await test.app.inbound.idle();
    const answered = momentsOf(marker);
    const calls = telegram.calls.slice(firstCall);
    const carrier = carrierOf(telegram, pushed.update_id);
    if (carrier?.answeredTime === undefined) throw new Error(`no getUpdates answer carried update ${pushed.update_id}`);
    const nextPoll = telegram.calls.find((call) => call.method === 'getUpdates' && call.sequence > carrier.sequence);
    const typing = calls.find((call) => call.method === 'sendChatAction');
    return {
      sample: { inbound: answered.requestAt - carrier.answeredTime, outbound: lastPart.receivedTime - answered.answerAt },
      detail: {
        storedAndPolledAgain: (nextPoll?.receivedTime ?? Number.NaN) - carrier.answeredTime,
        typingAnsweredAfterModelAnswer: (typing?.answeredTime ?? Number.NaN) - answered.answerAt,
        calls: calls.filter((call) => call.method !== 'getUpdates').length,
      },
    };
  };

  const viaCli = async (chat: number, inGroup: boolean): Promise<PathSample> => {
    const marker = markerOf(sequence++);
    scriptEchoingAnswers(model, 1, (asked, at) => moments.set(asked, at));
    const conversation = inGroup ? `bench-group-${chat % groups.length}` : `bench-${chat}`;
    const message = await consoleMessage({ text: questionText(marker), conversation, userId: `bench-user-${chat}`, group: inGroup, mention: inGroup });
    // A console responder writing to nowhere; "sent" is when its send returned.
    const console = consoleResponder(discard, () => undefined);
    let sentAt = Number.NaN;
    const responder: Responder = {
      ...console,
      send: async (reply, journal) => {
        await console.send(reply, journal);
        sentAt = performance.now();
      },
    };
    const receivedAt = performance.now();
    const handled = await test.app.router.handle(message, responder);
    if (!handled.replies.some((reply) => reply.text.includes(marker))) throw new Error(`the direct path did not answer ${marker}`);
    const answered = momentsOf(marker);
    return { inbound: answered.requestAt - receivedAt, outbound: sentAt - answered.answerAt };
  };

  const viaDiscord = async (step: DiscordLatencyStep, chat: number) => {
    const marker = markerOf(sequence++);
    scriptEchoingAnswers(model, 1, (asked, at) => moments.set(asked, at));
    return step.run(marker, chat, momentsOf);
  };

  const viaLine = async (step: LineLatencyStep, chat: number) => {
    const marker = markerOf(sequence++);
    scriptEchoingAnswers(model, 1, (asked, at) => moments.set(asked, at));
    return step.run(marker, chat, momentsOf);
  };

  const lineUntil = options.warmup + Math.min(options.messages, options.lineMessages ?? options.messages);
  const run: LatencyRun = { telegram: [], cli: [], details: [], groupTelegram: [], groupCli: [], discord: [], discordDetails: [], line: [], lineDetails: [] };
  try {
    for (let index = 0; index < options.warmup + options.messages + options.groupMessages; index++) {
      const chat = index % options.chats;
      const inGroup = index >= options.warmup + options.messages;
      const counted = index >= options.warmup;
      // In turn, so drift (JIT, GC, a growing database) falls on every path alike.
      const telegramResult = telegram ? await viaTelegram(telegram, chat, inGroup) : undefined;
      const cliSample = await viaCli(chat, inGroup);
      // Discord messages are all guild-channel mentions: they run with the main phase, not the Telegram group one.
      const discordResult = discordStep && !inGroup ? await viaDiscord(discordStep, chat) : undefined;
      // LINE's are 1:1 chats, in the main phase too.
      const lineResult = lineStep && index < lineUntil ? await viaLine(lineStep, chat) : undefined;
      dropModelRecordings(model);
      if (!counted) continue;
      if (inGroup) {
        if (telegramResult) run.groupTelegram.push(telegramResult.sample);
        run.groupCli.push(cliSample);
        continue;
      }
      if (telegramResult) {
        run.telegram.push(telegramResult.sample);
        run.details.push(telegramResult.detail);
      }
      if (discordResult) {
        run.discord.push(discordResult.sample);
        run.discordDetails.push(discordResult.detail);
      }
      if (lineResult) {
        run.line.push(lineResult.sample);
        run.lineDetails.push(lineResult.detail);
      }
      run.cli.push(cliSample);
    }
    model.assertAllConsumed();
  } finally {
    await bots.close();
  }
  return { ...run, discordRateLimits: bots.rateLimits };
}
