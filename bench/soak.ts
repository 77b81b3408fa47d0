import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFakeModelServer, type FakeModelServer } from '../test/fakes/model-server.js';
import { privateChat, startFakeTelegram, textMessageUpdate, user, type FakeTelegram } from '../test/fakes/telegram/index.js';
import { countAnswers, stallMs } from './platform-load.js';
import { dropModelRecordings, markerOf, markersIn, option, questionText, round, scriptEchoingAnswers } from './platform-measure.js';
import { fitLine, metricValue } from './soak-stats.js';
import { productionNodeFlags } from './turn.js';
import { isQuick } from './quick.js';
import { freePort } from '../test/support/free-port.js';

// `npm run bench -- soak [--quick] [--minutes 2] [--conversations 4] [--idle-seconds 10]`: the real bot (src/main.ts, the
// shipped V8 flags, real telegraf long polling) in a child, the fake Bot API and model server here, for a bounded
// time: each conversation asks its next question as soon as the last one is answered. Every 2 s the bot's own
// /metrics gives RSS, heap and event-loop lag p99 (prom-client's monitorEventLoopDelay, reset at each scrape).
// Baselines in the same run: the idle bot's RSS before the load, and the load's first half against its second
// (start-up growth flattens; a leak keeps its slope).

const sampleEveryMs = 2_000;
/** The first part of the load, left out of the fit: JIT compilation, SQLite's page cache and pools filling. */
const warmUpShare = 0.2;
/** A slope this small is no leak worth a restart (0.5 KB a turn), even when the samples are very steady. */
const negligibleSlopeMbPer1000Turns = 0.5;
const lagGoalMs = 50;

interface Sample {
  atMs: number;
  turns: number;
  rssMb: number;
  heapUsedMb: number;
  lagP99Ms: number;
}

const megabytes = (bytes: number) => bytes / 1024 / 1024;
const median = (values: readonly number[]) => [...values].sort((left, right) => left - right)[Math.floor(values.length / 2)] ?? Number.NaN;

function startBot(environment: Record<string, string>, workDirectory: string): { child: ChildProcess; ready: Promise<void> } {
  const entry = path.resolve(import.meta.dirname, '../src/main.ts');
  const child = spawn(process.execPath, [...productionNodeFlags, '--import', import.meta.resolve('tsx'), entry], {
    cwd: workDirectory, // no developer's .env
    env: { PATH: process.env.PATH ?? '', ...environment },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const ready = new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`the bot exited (${String(code)}) before it was ready`)));
  });
  return { child, ready };
}

async function sample(port: number, turns: number, startedAt: number): Promise<Sample> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  return {
    atMs: Date.now() - startedAt,
    turns,
    rssMb: megabytes(metricValue(text, 'process_resident_memory_bytes') ?? Number.NaN),
    heapUsedMb: megabytes(metricValue(text, 'nodejs_heap_size_used_bytes') ?? Number.NaN),
    lagP99Ms: (metricValue(text, 'nodejs_eventloop_lag_p99_seconds') ?? Number.NaN) * 1000,
  };
}

/** MB per 1,000 turns, with twice its standard error (about a 95 % band). */
function rssSlope(samples: readonly Sample[]) {
  const line = fitLine(samples.map((entry) => ({ x: entry.turns / 1000, y: entry.rssMb })));
  return { mbPer1000Turns: round(line.slope), noiseMbPer1000Turns: round(2 * line.standardError) };
}

interface Load {
  markers: string[];
  samples: Sample[];
  answered: () => number;
}

/**
 * Closed loop: every conversation has one question out at a time. One long-lived waiter on the fake's sendMessage
 * calls sees each answer (no scan of the growing call log per turn).
 */
async function runLoad(telegram: FakeTelegram, model: FakeModelServer, port: number, conversations: number, durationMs: number): Promise<Load> {
  const users = Array.from({ length: conversations }, (_, index) => user(810_000 + index, `ลูกค้า ${index}`, `soak_${index}`));
  const markers: string[] = [];
  const outstanding = new Map<string, number>(); // marker → conversation
  const samples: Sample[] = [];
  let answered = 0;
  let progressAt = Date.now();
  const startedAt = Date.now();
  const deadline = startedAt + durationMs;
  let finish: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (finish = resolve));

  const ask = (conversation: number): void => {
    const from = users[conversation];
    if (!from) return;
    const marker = markerOf(markers.length);
    markers.push(marker);
    outstanding.set(marker, conversation);
    scriptEchoingAnswers(model, 1, () => undefined);
    if (!telegram.pushUpdate(textMessageUpdate({ chat: privateChat(from), from, text: questionText(marker) })))
      throw new Error('the fake did not queue an update');
  };
  void telegram.waitForCall('sendMessage', (call) => {
    for (const marker of markersIn(String(call.params.text ?? ''))) {
      const conversation = outstanding.get(marker);
      if (conversation === undefined) continue;
      outstanding.delete(marker);
      answered += 1;
      progressAt = Date.now();
      if (Date.now() < deadline) ask(conversation);
    }
    if (Date.now() >= deadline && outstanding.size === 0) finish();
    return false;
  });
  for (let conversation = 0; conversation < conversations; conversation++) ask(conversation);

  const sampler = setInterval(() => {
    void sample(port, answered, startedAt).then((entry) => samples.push(entry));
    dropModelRecordings(model); // the fake's own memory, not the bot's
    if (Date.now() - progressAt > stallMs) finish(); // the rest count as lost
  }, sampleEveryMs);
  await done;
  clearInterval(sampler);
  samples.push(await sample(port, answered, startedAt));
  return { markers, samples, answered: () => answered };
}

async function idleBaseline(port: number, seconds: number): Promise<Sample[]> {
  const samples: Sample[] = [];
  const startedAt = Date.now();
  for (let index = 0; index <= seconds; index++) {
    samples.push(await sample(port, 0, startedAt));
    if (index < seconds) await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  return samples;
}

export async function main(argv: string[]): Promise<void> {
  const minutes = option(argv, 'minutes', 2);
  const conversations = option(argv, 'conversations', 4);
  const quick = isQuick(argv);
  // --quick: a few seconds of load and one idle sample; its slope and lag say nothing, the run proves the bench runs.
  const idleSeconds = quick ? 1 : option(argv, 'idle-seconds', 10);
  const loadMs = quick ? 6_000 : minutes * 60_000;
  const telegram = await startFakeTelegram();
  const model = await startFakeModelServer({ modelId: 'test-model' });
  const workDirectory = mkdtempSync(path.join(tmpdir(), 'saeng-soak-'));
  const port = await freePort();
  const bot = startBot(
    {
      MODEL_BASE_URL: model.url,
      MODEL_NAME: 'test-model',
      MODEL_TOOLS: 'off',
      MODEL_VISION: 'off',
      MODEL_RETRIES: '0',
      SEARCH_PROVIDER: 'none',
      TELEGRAM_BOT_TOKEN: telegram.token,
      TELEGRAM_API_ROOT: telegram.url,
      DATA_DIR: path.join(workDirectory, 'data'),
      HTTP_PORT: String(port),
      LOG_LEVEL: 'warn',
      // A soak asks far faster than a person: the per-user limit (default 10 a minute) would answer "slow down".
      USER_MESSAGES_PER_MINUTE: '10000',
    },
    workDirectory,
  );
  try {
    await bot.ready;
    const idle = await idleBaseline(port, idleSeconds);
    const load = await runLoad(telegram, model, port, conversations, loadMs);
    const exited = new Promise<number | null>((resolve) => bot.child.once('exit', (code) => resolve(code)));
    bot.child.kill('SIGTERM');
    const exitCode = await exited;
    const counted = countAnswers(telegram.calls, load.markers);
    const measured = load.samples.slice(Math.floor(load.samples.length * warmUpShare));
    const half = Math.floor(measured.length / 2);
    const whole = rssSlope(measured);
    // After the warm-up too: the first scrape's histogram holds start-up and the first turns' module loading.
    const lagP99Ms = Math.max(...measured.map((entry) => entry.lagP99Ms));
    const first = load.samples[0];
    const last = load.samples.at(-1);
    // Judged on the second half: by then start-up growth is over, and a leak keeps the slope the first half had.
    const secondHalf = rssSlope(measured.slice(half));
    const slopeWithinNoise = Math.abs(secondHalf.mbPer1000Turns) <= Math.max(secondHalf.noiseMbPer1000Turns, negligibleSlopeMbPer1000Turns);
    const elapsedSeconds = (last?.atMs ?? 0) / 1000;
    process.stdout.write(
      `${JSON.stringify(
        {
          bench: 'soak',
          quick,
          minutes: quick ? loadMs / 60_000 : minutes,
          conversations,
          turns: load.markers.length,
          answered: load.answered(),
          turnsPerSecond: round(load.answered() / Math.max(elapsedSeconds, 0.001)),
          lost: counted.lost,
          duplicated: counted.duplicated,
          failedSends: counted.failedSends,
          exitCode,
          rss: {
            idleStartMb: round(idle[0]?.rssMb ?? Number.NaN),
            idleEndMb: round(idle.at(-1)?.rssMb ?? Number.NaN),
            loadStartMb: round(first?.rssMb ?? Number.NaN),
            loadEndMb: round(last?.rssMb ?? Number.NaN),
            peakMb: round(Math.max(...load.samples.map((entry) => entry.rssMb))),
            heapUsedEndMb: round(last?.heapUsedMb ?? Number.NaN),
            // After the warm-up; the halves are the in-run baseline: a leak has the same slope in both.
            slope: whole,
            slopeFirstHalf: rssSlope(measured.slice(0, half)),
            slopeSecondHalf: secondHalf,
          },
          eventLoopLagP99Ms: {
            max: round(lagP99Ms),
            median: round(median(measured.map((entry) => entry.lagP99Ms))),
            warmUpMax: round(Math.max(...load.samples.slice(0, load.samples.length - measured.length).map((entry) => entry.lagP99Ms))),
            idleMax: round(Math.max(...idle.slice(1).map((entry) => entry.lagP99Ms))),
          },
          samples: load.samples.length,
          ...(process.env.SOAK_SAMPLES === '1'
            ? { series: load.samples.map((entry) => [entry.atMs, entry.turns, round(entry.rssMb), round(entry.lagP99Ms)]) }
            : {}),
          goal: {
            lost: 0,
            duplicated: 0,
            rssSlopeSecondHalf: `|slope| <= max(2 standard errors, ${negligibleSlopeMbPer1000Turns} MB/1000 turns)`,
            lagP99Ms: lagGoalMs,
          },
          met: counted.lost === 0 && counted.duplicated === 0 && slopeWithinNoise && lagP99Ms < lagGoalMs,
        },
        null,
        2,
      )}\n`,
    );
  } finally {
    if (bot.child.exitCode === null && bot.child.signalCode === null) bot.child.kill('SIGKILL');
    await model.close();
    await telegram.close();
    rmSync(workDirectory, { recursive: true, force: true });
  }
}
