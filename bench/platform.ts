import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { runChild } from './platform-child.js';
import { platformsOption } from './platform-bots.js';
import { discordMessageGapMs } from './platform-discord-latency.js';
import { runCombinedLoad } from './platform-discord-load.js';
import { runLatency, type LatencyRun, type PathSample } from './platform-latency.js';
import { runCliLoad, runTelegramLoad } from './platform-load.js';
import { option, round, spread } from './platform-measure.js';
import { sqliteCommitCost } from './platform-sqlite.js';
import { productionNodeFlags } from './turn.js';

// `npm run bench -- platform [--messages N] [--chats N] [--warmup N] [--group-messages N | --no-group] [--conversations N] [--per N]
//   [--only latency|load] [--platforms telegram,discord]`
// What each platform path adds to a turn with an instant fake model, against the direct (CLI) path on the same app in
// the same run; then conversations × per messages at once: throughput, lost, duplicated, and the bot's peak RSS.
// `--platforms` (default both): `telegram` runs its latency path and the Telegram-only load; `discord` its latency
// path and the load with both adapters in one bot (Telegram beside Discord, as deployed).

const addedGoalMs = 15;
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
  cliInbound: 'router.handle called (the direct path `npm run cli` uses, same app) → model request',
  cliOutbound: 'model answer → the console responder’s send for the reply returned',
  added:
    'platform percentile − CLI percentile, per segment, against the CLI samples of the same run (direct chats, taken in turn with each platform message); goal: ≤ 15 ms at p99 for each. discord.againstGroupCli: the same against the group-variant CLI samples (@mention in a group), for information',
  lost: 'messages with no sendMessage / POST /channels/{id}/messages carrying their answer',
  duplicated: 'messages whose answer was sent more than once (answer calls per question tag)',
  memory:
    'measured in a child started with the shipped V8 flags, running the whole bot (adapter + telegraf + app + durable queue; the fakes run in the parent) or, as the baseline, the app alone answering through router.handle (telegraf not loaded); both include the tsx loader. maxRssMb is the kernel high-water mark (ru_maxrss), peakRssMb the highest 10 ms sample',
  telegramAndDiscord:
    'ONE bot child with both adapters (telegraf and discord.js loaded), the app and the durable queue, shipped V8 flags: conversations split half and half between Telegram private chats and Discord guild text channels (50 per guild), all messages handed over at once, both platforms at the same time; goal maxRssMb < 220, 0 lost and 0 duplicated on each',
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

function latencySummary(run: LatencyRun) {
  const telegramRan = run.telegram.length > 0;
  const { telegram, cli, addedMs } = compared(run.telegram, run.cli);
  const discord = run.discord.length > 0 ? discordSummary(run) : undefined;
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

export async function main(argv: string[]): Promise<void> {
  const childMode = argv[argv.indexOf('--child') + 1];
  if (argv.includes('--child') && (childMode === 'telegram' || childMode === 'both' || childMode === 'cli')) return runChild(childMode);
  const platforms = platformsOption(argv);
  const messages = option(argv, 'messages', 2000);
  const chats = option(argv, 'chats', 20);
  const warmup = option(argv, 'warmup', 50);
  const groupMessages = argv.includes('--no-group') ? 0 : option(argv, 'group-messages', Math.max(1, Math.round(messages / 10)));
  if (argv.includes('--latency-child')) {
    const summary = latencySummary(await runLatency({ messages, chats, warmup, groupMessages, platforms }));
    process.stdout.write(JSON.stringify({ ...summary, sqliteCommitMs: sqliteCommitCost() }));
    return;
  }
  const conversations = option(argv, 'conversations', 500);
  const per = option(argv, 'per', 4);
  const only = argv[argv.indexOf('--only') + 1];
  const latency = only === 'load' ? undefined : { messages, chats, warmup, platforms, ...latencyInChild(argv) };
  let concurrency;
  if (only !== 'latency') {
    const telegram = platforms.includes('telegram') ? await runTelegramLoad(conversations, per) : undefined;
    const cliBaseline = await runCliLoad(conversations, per);
    const both = platforms.includes('discord') ? await runCombinedLoad(conversations, per) : undefined;
    concurrency = {
      conversations,
      per,
      messages: conversations * per,
      ...(telegram
        ? {
            telegram,
            goal: { lost: 0, duplicated: 0, maxRssMb: rssGoalMb },
            met: telegram.lost === 0 && telegram.duplicated === 0 && telegram.memory.maxRssMb < rssGoalMb,
          }
        : {}),
      cliBaseline,
      ...(both
        ? {
            telegramAndDiscord: {
              ...both,
              goal: { lost: 0, duplicated: 0, maxRssMb: bothRssGoalMb },
              met:
                both.telegram.lost === 0 &&
                both.telegram.duplicated === 0 &&
                both.discord.lost === 0 &&
                both.discord.duplicated === 0 &&
                both.memory.maxRssMb < bothRssGoalMb,
            },
          }
        : {}),
    };
  }
  const met = (latency?.met ?? true) && (latency?.discord?.met ?? true) && (concurrency?.met ?? true) && (concurrency?.telegramAndDiscord?.met ?? true);
  process.stdout.write(`${JSON.stringify({ bench: 'platform', nodeFlags: productionNodeFlags.join(' '), definitions, latency, concurrency, met }, null, 2)}\n`);
}
