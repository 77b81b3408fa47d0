import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { childModes, runChild } from './platform-child.js';
import { platformsOption } from './platform-bots.js';
import { discordMessageGapMs } from './platform-discord-latency.js';
import { runCombinedLoad, type CombinedLoad } from './platform-discord-load.js';
import { runFirstText } from './platform-first-text.js';
import { runLatency, type LatencyRun, type PathSample } from './platform-latency.js';
import { runCliLoad, runTelegramLoad } from './platform-load.js';
import { option, round, spread } from './platform-measure.js';
import { sqliteCommitCost } from './platform-sqlite.js';
import { productionNodeFlags } from './turn.js';
import { isQuick, withQuickSettings } from './quick.js';

// `npm run bench -- platform [--quick] [--messages N] [--chats N] [--warmup N] [--group-messages N | --no-group] [--conversations N] [--per N]
//   [--only latency|load|first-text] [--platforms telegram,discord,line] [--line-messages N] [--time-scale N]`
// What each platform path adds to a turn with an instant fake model, against the direct (CLI) path on the same app in
// the same run; then conversations × per messages at once: throughput, lost, duplicated, and the bot's peak RSS.
// `--platforms` (default all three): `telegram` runs its latency path and the Telegram-only load; `discord` its latency
// path and the load with both adapters in one bot (Telegram beside Discord, as deployed); `line` its latency path
// (the first `--line-messages` of the main phase, default all) and, with the other two, puts LINE into that bot.
// Then time to the first visible text (platform-first-text.ts): one web-search turn per path on a model paced like the
// CPU box (`--prompt-rate` 60, `--generation-rate` 12 tokens/s; `--time-scale N`: N times faster), streaming off and on.

const addedGoalMs = 15;
const lineWebhookGoalMs = 50;
const rssGoalMb = 200;
const bothRssGoalMb = 220;

const definitions = {
  telegramInbound:
    'update received (the fake Bot API answers the getUpdates call carrying the update) → model request (the fake model server has read the chat-completions request)',
  telegramOutbound:
    'model answer (the fake model server has written its whole instant streamed answer and ended it) → last part sent (the fake Bot API has received the last sendMessage of that answer)',
  discordInbound:
    'event sent (the fake gateway hands the MESSAGE_CREATE frame to the WebSocket: a message `<@botId> question` in a guild text channel, `--chats` channels (default 20) in turn) → model request',
  discordOutbound: 'model answer → last part sent (the fake REST server has read the last POST /channels/{id}/messages of that answer, i.e. its body)',
  discordPacing: `one Discord message per ${discordMessageGapMs} ms at most (the wait falls before "event sent"): each costs two requests (typing, answer) and @discordjs/rest holds all requests once 50 went out within a second (Discord's global limit); rateLimitWaits counts the holds it announced`,
  lineWebhook:
    'the signed webhook POST sent (client side: performance.now() just before the fake’s postWebhook, whose only work before the request is the HMAC of the already serialized body) → its 200 received (the promise resolved: status and the 2-byte body read); the real HTTP server (src/http.ts) with the adapter’s route: signature checked, body parsed, the event stored in the durable queue (SQLite, synchronous = FULL) before the 200; one text event per POST; goal p99 < 50 ms',
  lineInbound: 'webhook POST sent (as lineWebhook) → model request; a text event from a user source (1:1 chat), `--chats` users in turn',
  lineOutbound: 'model answer → the fake LINE API received the reply call (POST /v2/bot/message/reply, its body read) carrying that answer',
  lineLoading:
    'in 1:1 chats the router’s working() makes the adapter call POST /v2/bot/chat/loading/start as the turn starts, not awaited; lineDetail.loadingAnsweredAfterModelAnswerMs > 0 means it was still in flight when the answer came, replyBeforeLoadingAnswered counts the replies received before the loading call was answered (the reply did not wait for it)',
  cliInbound: 'router.handle called (the direct path `npm run cli` uses, same app) → model request',
  cliOutbound: 'model answer → the console responder’s send for the reply returned',
  added:
    'platform percentile − CLI percentile, per segment, against the CLI samples of the same run (direct chats, taken in turn with each platform message; for LINE the CLI samples of the same messages’ rounds); goal: ≤ 15 ms at p99 for each. discord.againstGroupCli: the same against the group-variant CLI samples (@mention in a group), for information',
  lost: 'messages with no sendMessage / POST /channels/{id}/messages / LINE reply or push carrying their answer',
  duplicated: 'messages whose answer was sent more than once (answer calls per question tag)',
  memory:
    'measured in a child started with the shipped V8 flags, running the whole bot (adapter + telegraf + app + durable queue; the fakes run in the parent) or, as the baseline, the app alone answering through router.handle (telegraf not loaded); both include the tsx loader. maxRssMb is the kernel high-water mark (ru_maxrss), peakRssMb the highest 10 ms sample',
  telegramAndDiscord:
    'ONE bot child with both adapters (telegraf and discord.js loaded), the app and the durable queue, shipped V8 flags: conversations split half and half between Telegram private chats and Discord guild text channels (50 per guild), all messages handed over at once, both platforms at the same time; goal maxRssMb < 220, 0 lost and 0 duplicated on each',
  telegramDiscordAndLine:
    'with `line` among the platforms, the same ONE bot child with all three adapters (also @line/bot-sdk, and the HTTP server with /webhooks/line): conversations split in thirds between Telegram private chats, Discord guild text channels and LINE 1:1 chats (every LINE message its own signed webhook POST, all POSTed at once), quota unlimited on the fake (answers later than LINE_REPLY_WINDOW_MS are pushed: replies and pushes are counted); goal maxRssMb < 220 (the two-adapter goal, kept), 0 lost and 0 duplicated on each. line.eventToAnswerMs: POST sent → the first reply or push call carrying the answer received; line.webhookMs: POST sent → its 200 with everything arriving at once (for information, no goal)',
  messagesPerSecond: 'answered messages / (last answer received − all updates pushed)',
};

type Samples = PathSample[];

function comparedTo(samples: Samples, cliSamples: Samples) {
  const of = (list: Samples, key: keyof PathSample) => spread(list.map((sample) => sample[key]));
  const path = { inboundMs: of(samples, 'inbound'), outboundMs: of(samples, 'outbound') };
  const cli = { inboundMs: of(cliSamples, 'inbound'), outboundMs: of(cliSamples, 'outbound') };
  const added = (key: 'inboundMs' | 'outboundMs') => ({ p50: round(path[key].p50 - cli[key].p50), p99: round(path[key].p99 - cli[key].p99) });
  return { path, cli, addedMs: { inbound: added('inboundMs'), outbound: added('outboundMs') } };
}

const withinGoal = (addedMs: { inbound: { p99: number }; outbound: { p99: number } }) =>
  addedMs.inbound.p99 <= addedGoalMs && addedMs.outbound.p99 <= addedGoalMs;

function compared(telegramSamples: Samples, cliSamples: Samples) {
  const { path, cli, addedMs } = comparedTo(telegramSamples, cliSamples);
  return { telegram: path, cli, addedMs };
}

function discordSummary(run: LatencyRun) {
  const { path, addedMs } = comparedTo(run.discord, run.cli);
  const details = run.discordDetails;
  return {
    messages: run.discord.length,
    discord: path,
    addedMs,
    goal: { addedP99Ms: addedGoalMs },
    met: withinGoal(addedMs),
    discordDetail: {
      eventToTypingReceivedMs: spread(details.map((detail) => detail.eventToTypingReceived)),
      typingAnsweredAfterModelAnswerMs: spread(details.map((detail) => detail.typingAnsweredAfterModelAnswer)),
      restCallsPerMessage: spread(details.map((detail) => detail.calls)),
      messageGapMs: discordMessageGapMs,
      rateLimitWaits: run.discordRateLimits,
    },
    againstGroupCli: run.groupCli.length > 0 ? { messages: run.groupCli.length, addedMs: comparedTo(run.discord, run.groupCli).addedMs } : undefined,
  };
}

/** 0 lost and 0 duplicated on every platform of the one bot, and its RSS under the goal. */
function combinedMet(combined: CombinedLoad): boolean {
  const shares = [combined.telegram, combined.discord, ...(combined.line ? [combined.line] : [])];
  return shares.every((share) => share.lost === 0 && share.duplicated === 0) && combined.memory.maxRssMb < bothRssGoalMb;
}

function lineSummary(run: LatencyRun) {
  // The CLI samples of the rounds LINE ran in (the first ones: all of them unless --line-messages is smaller).
  const { path, addedMs } = comparedTo(run.line, run.cli.slice(0, run.line.length));
  const details = run.lineDetails;
  const webhookMs = spread(details.map((detail) => detail.webhook));
  const inFlightAtAnswer = details.filter((detail) => detail.loadingAnsweredAfterModelAnswer > 0);
  return {
    messages: run.line.length,
    webhookMs,
    line: path,
    addedMs,
    goal: { webhookP99Ms: lineWebhookGoalMs, addedP99Ms: addedGoalMs },
    met: { webhook: webhookMs.p99 < lineWebhookGoalMs, added: withinGoal(addedMs) },
    lineDetail: {
      eventToLoadingReceivedMs: spread(details.map((detail) => detail.eventToLoadingReceived)),
      loadingAnsweredAfterModelAnswerMs: spread(details.map((detail) => detail.loadingAnsweredAfterModelAnswer)),
      loadingInFlightAtModelAnswer: inFlightAtAnswer.length,
      replyBeforeLoadingAnswered: details.filter((detail) => detail.replyBeforeLoadingAnswered).length,
      apiCallsPerMessage: spread(details.map((detail) => detail.calls)),
      pushes: details.reduce((total, detail) => total + detail.pushes, 0),
    },
  };
}

function latencySummary(run: LatencyRun) {
  const telegramRan = run.telegram.length > 0;
  const { telegram, cli, addedMs } = compared(run.telegram, run.cli);
  const discord = run.discord.length > 0 ? discordSummary(run) : undefined;
  const line = run.line.length > 0 ? lineSummary(run) : undefined;
  return {
    ...(telegramRan ? { telegram } : {}),
    cli,
    ...(telegramRan
      ? {
          addedMs,
          goal: { addedP99Ms: addedGoalMs },
          met: withinGoal(addedMs),
          telegramDetail: {
            storedAndPolledAgainMs: spread(run.details.map((detail) => detail.storedAndPolledAgain)),
            typingAnsweredAfterModelAnswerMs: spread(run.details.map((detail) => detail.typingAnsweredAfterModelAnswer)),
            botApiCallsPerMessage: spread(run.details.map((detail) => detail.calls)),
          },
          groupVariant: { messages: run.groupTelegram.length, ...compared(run.groupTelegram, run.groupCli) },
        }
      : {}),
    ...(discord ? { discord } : {}),
    ...(line ? { line } : {}),
  };
}

/** The latency run in a child with the shipped V8 flags (its JSON on stdout), so GC behaves as in production. */
function latencyInChild(argv: string[]): ReturnType<typeof latencySummary> & { sqliteCommitMs: ReturnType<typeof sqliteCommitCost> } {
  const child = spawnSync(process.execPath, [...productionNodeFlags, '--import', 'tsx', 'bench/run.ts', 'platform', '--latency-child', ...argv], {
    cwd: path.resolve(import.meta.dirname, '..'),
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  if (child.status !== 0) throw new Error(`the latency run failed (exit ${String(child.status)})`);
  return JSON.parse(child.stdout) as ReturnType<typeof latencyInChild>;
}

/** `--quick`: a few messages on every path, a small load (the child gets them with the rest of the arguments), the paced model 20× faster. */
const quickSettings = [
  '--messages',
  '12',
  '--chats',
  '3',
  '--warmup',
  '2',
  '--group-messages',
  '2',
  '--conversations',
  '6',
  '--per',
  '2',
  '--time-scale',
  '20',
];

export async function main(given: string[]): Promise<void> {
  const argv = withQuickSettings(given, quickSettings);
  const childMode = argv[argv.indexOf('--child') + 1];
  const asChild = childModes.find((mode) => mode === childMode);
  if (argv.includes('--child') && asChild) return runChild(asChild);
  const platforms = platformsOption(argv);
  const messages = option(argv, 'messages', 2000);
  const chats = option(argv, 'chats', 20);
  const warmup = option(argv, 'warmup', 50);
  const groupMessages = argv.includes('--no-group') ? 0 : option(argv, 'group-messages', Math.max(1, Math.round(messages / 10)));
  if (argv.includes('--latency-child')) {
    const lineMessages = option(argv, 'line-messages', messages);
    const summary = latencySummary(await runLatency({ messages, chats, warmup, groupMessages, platforms, lineMessages }));
    process.stdout.write(JSON.stringify({ ...summary, sqliteCommitMs: sqliteCommitCost() }));
    return;
  }
  const conversations = option(argv, 'conversations', 500);
  const per = option(argv, 'per', 4);
  const only = argv[argv.indexOf('--only') + 1];
  const latency = only === 'load' || only === 'first-text' ? undefined : { messages, chats, warmup, platforms, ...latencyInChild(argv) };
  let concurrency;
  let concurrencyMet = true;
  if (only !== 'latency' && only !== 'first-text') {
    const telegram = platforms.includes('telegram') ? await runTelegramLoad(conversations, per) : undefined;
    const cliBaseline = await runCliLoad(conversations, per);
    const combined = platforms.includes('discord') ? await runCombinedLoad(conversations, per, platforms.includes('line')) : undefined;
    const telegramMet = telegram ? telegram.lost === 0 && telegram.duplicated === 0 && telegram.memory.maxRssMb < rssGoalMb : true;
    const combinedReport = combined ? { ...combined, goal: { lost: 0, duplicated: 0, maxRssMb: bothRssGoalMb }, met: combinedMet(combined) } : undefined;
    concurrency = {
      conversations,
      per,
      messages: conversations * per,
      ...(telegram
        ? {
            telegram,
            goal: { lost: 0, duplicated: 0, maxRssMb: rssGoalMb },
            met: telegramMet,
          }
        : {}),
      cliBaseline,
      // One bot with every adapter that ran: Telegram and Discord, with LINE when it runs.
      ...(combinedReport ? { [combinedReport.line ? 'telegramDiscordAndLine' : 'telegramAndDiscord']: combinedReport } : {}),
    };
    concurrencyMet = telegramMet && (combinedReport?.met ?? true);
  }
  const firstText =
    only === 'latency' || only === 'load'
      ? undefined
      : await runFirstText({
          platforms,
          promptTokensPerSecond: option(argv, 'prompt-rate', 60),
          generationTokensPerSecond: option(argv, 'generation-rate', 12),
          timeScale: option(argv, 'time-scale', 1),
        });
  const lineMet = latency?.line ? latency.line.met.webhook && latency.line.met.added : true;
  // The first-text goal counts at the box's speed only (its met is null on a scaled run).
  const met = (latency?.met ?? true) && (latency?.discord?.met ?? true) && lineMet && concurrencyMet && (firstText?.met ?? true);
  const report = { bench: 'platform', quick: isQuick(argv), nodeFlags: productionNodeFlags.join(' '), definitions, latency, concurrency, firstText, met };
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
}
