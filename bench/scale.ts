// `npm run bench -- scale [--quick] [--conversations N] [--messages N] [--model-delay-ms N] [--retrieval-scale N]`
// Several bot processes sharing one Redis and one PostgreSQL (test/support/bot-fleet.ts: real src/main.ts children,
// LINE and Telegram webhooks spread over them), against a fake model that answers after a fixed delay: throughput and
// answer latency with 1 process, then 2 (goal: ≥ 1.8× the throughput), Redis round trips per message (counted with
// MONITOR on a pass of its own: commands a client sent, not the ones the Lua scripts ran), and the PostgreSQL vs
// SQLite retrieval figures of `retrieval-postgres` in the same run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from 'redis';
import { startFakeLine } from '../test/fakes/line/index.js';
import { startFakeModelServer } from '../test/fakes/model-server.js';
import { startFakeTelegram } from '../test/fakes/telegram/index.js';
import { killAllBots } from '../test/support/bot-process.js';
import { startFleetBot } from '../test/support/bot-fleet.js';
import { answerFor, converse, lineConversation, mixedConversations } from '../test/support/fleet-conversations.js';
import { startPostgresServer, type PostgresServer } from '../test/support/postgres-server.js';
import { startRedisServer } from '../test/support/redis-server.js';
import { percentile } from './retrieval.js';
import { isQuick, withQuickSettings } from './quick.js';
import { measurePostgresRetrieval } from './retrieval-postgres.js';

interface PassOptions {
  processes: number;
  conversations: number;
  messages: number;
  modelDelayMs: number;
  /** Counts the commands clients send to Redis (MONITOR slows Redis a little, so not on the timed passes). */
  countRoundTrips?: boolean;
}

interface PassFigures {
  processes: number;
  messages: number;
  seconds: number;
  messagesPerSecond: number;
  answerP50Ms: number;
  answerP99Ms: number;
  /** Every command Redis ran per message, those inside scripts included (INFO commandstats). */
  redisCommandsPerMessage: number;
  redisRoundTripsPerMessage?: number;
  /** The same by command name (EVALSHA: the queue's and limits' scripts). */
  redisRoundTripsByCommand?: Record<string, number>;
}

const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

async function commandsRun(url: string): Promise<number> {
  const client = await createClient({ url }).connect();
  try {
    const stats = await client.info('commandstats');
    let total = 0;
    for (const match of stats.matchAll(/^cmdstat_([a-z|_-]{1,40}):calls=(\d{1,15}),/gm)) if (match[1] !== 'info') total += Number(match[2]);
    return total;
  } finally {
    client.destroy();
  }
}

async function pass(postgres: PostgresServer, options: PassOptions): Promise<PassFigures> {
  const [redis, model, line, telegram] = await Promise.all([
    startRedisServer({ persistence: 'aof' }),
    startFakeModelServer({ flavour: 'generic', modelId: 'test-model', answer: { text: answerFor, delayMs: options.modelDelayMs } }),
    startFakeLine({ quota: 'unlimited' }),
    startFakeTelegram(),
  ]);
  const workDir = mkdtempSync(join(tmpdir(), 'saeng-bench-scale-'));
  const monitor = options.countRoundTrips ? await createClient({ url: redis.url }).connect() : undefined;
  try {
    const servers = { model, line, telegram, redisUrl: redis.url, databaseUrl: await postgres.createDatabase() };
    const settings = { USER_MESSAGES_PER_MINUTE: '10000' };
    const bots = await Promise.all(Array.from({ length: options.processes }, (_, index) => startFleetBot(servers, workDir, `bot-${index}`, settings)));
    // One question per process first, so start-up work (model detection, the first connections) is not timed.
    const warmUp = bots.map((_, index) => lineConversation({ line, telegram }, 10_000 + index, bots));
    await converse({ line, telegram }, warmUp, 1);

    const asked = new Map<string, number>();
    const latencies: number[] = [];
    const conversations = mixedConversations({ line, telegram }, options.conversations, bots).map((conversation) => ({
      ...conversation,
      ask: (index: number, first: number) => {
        asked.set(`${conversation.name} ${index}`, performance.now());
        return conversation.ask(index, first);
      },
    }));
    let roundTrips = 0;
    const byCommand = new Map<string, number>();
    const commandsBefore = await commandsRun(redis.url);
    await monitor?.monitor((reply) => {
      if (reply.includes(' lua]')) return;
      roundTrips += 1;
      // `<time> [<db> <client>] "<command>" …`
      const command = /\] "([a-zA-Z]{1,20})"/.exec(reply)?.[1]?.toLowerCase() ?? 'other';
      byCommand.set(command, (byCommand.get(command) ?? 0) + 1);
    });
    const started = performance.now();
    await converse({ line, telegram }, conversations, options.messages, (conversation, index) => {
      const at = asked.get(`${conversation.name} ${index}`);
      if (at !== undefined) latencies.push(performance.now() - at);
    });
    const seconds = (performance.now() - started) / 1000;
    const messages = options.conversations * options.messages;
    const commands = (await commandsRun(redis.url)) - commandsBefore;
    latencies.sort((left, right) => left - right);
    return {
      processes: options.processes,
      messages,
      seconds: round(seconds, 2),
      messagesPerSecond: round(messages / seconds),
      answerP50Ms: round(percentile(latencies, 0.5)),
      answerP99Ms: round(percentile(latencies, 0.99)),
      redisCommandsPerMessage: round(commands / messages),
      ...(options.countRoundTrips
        ? {
            redisRoundTripsPerMessage: round(roundTrips / messages),
            redisRoundTripsByCommand: Object.fromEntries(
              [...byCommand].sort((left, right) => right[1] - left[1]).map(([name, count]) => [name, round(count / messages)]),
            ),
          }
        : {}),
    };
  } finally {
    monitor?.destroy();
    await killAllBots();
    await Promise.all([redis.close(), model.close(), line.close(), telegram.close()]);
    rmSync(workDir, { recursive: true, force: true });
  }
}

function option(argv: readonly string[], name: string, fallback: number): number {
  const index = argv.indexOf(name);
  const value = index >= 0 ? Number(argv[index + 1]) : fallback;
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} takes a whole number`);
  return value;
}

export async function main(given: string[]): Promise<void> {
  const argv = withQuickSettings(given, ['--conversations', '4', '--messages', '1', '--model-delay-ms', '20', '--retrieval-scale', '500']);
  const quick = isQuick(argv);
  const conversations = option(argv, '--conversations', 60);
  const messages = option(argv, '--messages', 5);
  const modelDelayMs = option(argv, '--model-delay-ms', 250);
  const retrievalScale = option(argv, '--retrieval-scale', 100_000);
  const postgres = await startPostgresServer();
  try {
    const base = { conversations, messages, modelDelayMs };
    // --quick: one pass of two processes, with the round trips counted (each bot process takes seconds to start).
    process.stderr.write(quick ? 'pass: 2 processes\n' : 'pass: 1 process\n');
    const one = quick ? undefined : await pass(postgres, { ...base, processes: 1 });
    const two = quick ? undefined : await pass(postgres, { ...base, processes: 2 });
    const counted = await pass(postgres, { ...base, conversations: Math.min(conversations, 20), processes: 2, countRoundTrips: true });
    const speedUp = one && two ? round(two.messagesPerSecond / one.messagesPerSecond, 2) : undefined;
    const retrieval = await measurePostgresRetrieval({ scaleChunks: retrievalScale, quick });
    const report = {
      bench: 'scale',
      quick,
      modelDelayMs,
      turnConcurrencyPerProcess: 2,
      passes: { oneProcess: one, twoProcesses: two ?? counted },
      redisRoundTripsPerMessage: counted.redisRoundTripsPerMessage,
      redisRoundTripsByCommand: counted.redisRoundTripsByCommand,
      retrieval,
      targets: { speedUp: { target: 1.8, value: speedUp, met: speedUp === undefined ? undefined : speedUp >= 1.8 } },
    };
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  } finally {
    postgres.close();
  }
}
