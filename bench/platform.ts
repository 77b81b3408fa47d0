import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { runChild } from './platform-child.js';
import { runLatency, type LatencyRun, type PathSample } from './platform-latency.js';
import { runCliLoad, runTelegramLoad } from './platform-load.js';
import { option, round, spread } from './platform-measure.js';
import { sqliteCommitCost } from './platform-sqlite.js';
import { productionNodeFlags } from './turn.js';

// `npm run bench -- platform [--messages N] [--chats N] [--warmup N] [--group-messages N | --no-group] [--conversations N] [--per N]
//   [--only latency|load]`
// What the Telegram path adds to a turn with an instant fake model, against the direct (CLI) path on the same app in
// the same run; then conversations × per messages at once: throughput, lost, duplicated, and the bot's peak RSS.

const addedGoalMs = 15;
const rssGoalMb = 200;

const definitions = {
  telegramInbound:
    'update received (the fake Bot API answers the getUpdates call carrying the update) → model request (the fake model server has read the chat-completions request)',
  telegramOutbound:
    'model answer (the fake model server has written its whole instant streamed answer and ended it) → last part sent (the fake Bot API has received the last sendMessage of that answer)',
  cliInbound: 'router.handle called (the direct path `npm run cli` uses, same app) → model request',
  cliOutbound: 'model answer → the console responder’s send for the reply returned',
  added: 'Telegram percentile − CLI percentile, per segment; goal: ≤ 15 ms at p99 for each',
  lost: 'messages with no sendMessage carrying their answer',
  duplicated: 'messages whose answer was sent more than once (sendMessage calls per question tag)',
  memory:
    'measured in a child started with the shipped V8 flags, running the whole bot (adapter + telegraf + app + durable queue; the fakes run in the parent) or, as the baseline, the app alone answering through router.handle (telegraf not loaded); both include the tsx loader. maxRssMb is the kernel high-water mark (ru_maxrss), peakRssMb the highest 10 ms sample',
  messagesPerSecond: 'answered messages / (last answer received − all updates pushed)',
};

function compared(telegramSamples: PathSample[], cliSamples: PathSample[]) {
  const of = (samples: PathSample[], key: keyof PathSample) => spread(samples.map((sample) => sample[key]));
  const telegram = { inboundMs: of(telegramSamples, 'inbound'), outboundMs: of(telegramSamples, 'outbound') };
  const cli = { inboundMs: of(cliSamples, 'inbound'), outboundMs: of(cliSamples, 'outbound') };
  const added = (key: 'inboundMs' | 'outboundMs') => ({
    p50: round(telegram[key].p50 - cli[key].p50),
    p99: round(telegram[key].p99 - cli[key].p99),
  });
  return { telegram, cli, addedMs: { inbound: added('inboundMs'), outbound: added('outboundMs') } };
}

function latencySummary(run: LatencyRun) {
  const { telegram, cli, addedMs } = compared(run.telegram, run.cli);
  return {
    telegram,
    cli,
    addedMs,
    goal: { addedP99Ms: addedGoalMs },
    met: addedMs.inbound.p99 <= addedGoalMs && addedMs.outbound.p99 <= addedGoalMs,
    telegramDetail: {
      storedAndPolledAgainMs: spread(run.details.map((detail) => detail.storedAndPolledAgain)),
      typingAnsweredAfterModelAnswerMs: spread(run.details.map((detail) => detail.typingAnsweredAfterModelAnswer)),
      botApiCallsPerMessage: spread(run.details.map((detail) => detail.calls)),
    },
    groupVariant: { messages: run.groupTelegram.length, ...compared(run.groupTelegram, run.groupCli) },
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
  if (argv.includes('--child') && (childMode === 'telegram' || childMode === 'cli')) return runChild(childMode);
  const messages = option(argv, 'messages', 2000);
  const chats = option(argv, 'chats', 20);
  const warmup = option(argv, 'warmup', 50);
  const groupMessages = argv.includes('--no-group') ? 0 : option(argv, 'group-messages', Math.max(1, Math.round(messages / 10)));
  if (argv.includes('--latency-child')) {
    const summary = latencySummary(await runLatency({ messages, chats, warmup, groupMessages }));
    process.stdout.write(JSON.stringify({ ...summary, sqliteCommitMs: sqliteCommitCost() }));
    return;
  }
  const conversations = option(argv, 'conversations', 500);
  const per = option(argv, 'per', 4);
  const only = argv[argv.indexOf('--only') + 1];
  const latency = only === 'load' ? undefined : { messages, chats, warmup, ...latencyInChild(argv) };
  let concurrency;
  if (only !== 'latency') {
    const telegram = await runTelegramLoad(conversations, per);
    const cliBaseline = await runCliLoad(conversations, per);
    concurrency = {
      conversations,
      per,
      messages: conversations * per,
      telegram,
      cliBaseline,
      goal: { lost: 0, duplicated: 0, maxRssMb: rssGoalMb },
      met: telegram.lost === 0 && telegram.duplicated === 0 && telegram.memory.maxRssMb < rssGoalMb,
    };
  }
  const met = (latency?.met ?? true) && (concurrency?.met ?? true);
  process.stdout.write(`${JSON.stringify({ bench: 'platform', nodeFlags: productionNodeFlags.join(' '), definitions, latency, concurrency, met }, null, 2)}\n`);
}
