import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { startFakeModelServer } from '../test/fakes/model-server.js';
import { privateChat, startFakeTelegram, textMessageUpdate, user, type FakeTelegram, type TelegramCall } from '../test/fakes/telegram/index.js';
import type { ChildMessage, ChildMode, CliLoadReport, MemoryReport, ParentMessage } from './platform-child.js';
import { markerOf, markersIn, questionText, round, scriptEchoingAnswers, spread, type Spread } from './platform-measure.js';
import { productionNodeFlags } from './turn.js';

// The concurrency run: `conversations × per` messages pushed to the fake Bot API at once; the bot runs in a child
// with the shipped V8 flags (platform-child.ts), the fakes here. Then the same messages through the direct path in a
// child with no adapter (telegraf never loaded): its RSS and throughput are the baseline.

/** No answer for this long: the rest count as lost. */
export const stallMs = 30_000;

export interface TelegramLoad {
  elapsedMs: number;
  messagesPerSecond: number;
  lost: number;
  duplicated: number;
  /** Messages the model was asked about more than once. */
  modelAskedTwice: number;
  /** Updates that came back in more than one getUpdates answer. */
  updatesDeliveredTwice: number;
  /** Chats whose answers went out in another order than their questions. */
  chatsOutOfOrder: number;
  failedSends: number;
  getUpdatesBatches: number;
  /** getUpdates answered with the update → its answer's sendMessage received, under this load. */
  updateToAnswerMs: Spread;
  memory: MemoryReport;
}

export interface CliLoad extends CliLoadReport {
  messagesPerSecond: number;
  memory: MemoryReport;
}

export function spawnChild(mode: ChildMode, environment: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [...productionNodeFlags, '--import', 'tsx', 'bench/run.ts', 'platform', '--child', mode], {
    cwd: path.resolve(import.meta.dirname, '..'),
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    env: { ...process.env, ...environment },
  });
}

export function nextFrom(child: ChildProcess): Promise<ChildMessage> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`bench child exited (${String(code)}) before it reported`));
    child.once('exit', onExit);
    child.once('message', (message) => {
      child.off('exit', onExit);
      resolve(message as ChildMessage);
    });
  });
}

export async function finish(child: ChildProcess): Promise<Extract<ChildMessage, { kind: 'done' }>> {
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const done = nextFrom(child);
  child.send({ kind: 'stop' } satisfies ParentMessage);
  const report = await done;
  await exited;
  if (report.kind !== 'done') throw new Error('bench child did not report its memory');
  return report;
}

/** Resolves when every marker has a sendMessage, or when none came for `stallMs`; the time of the last answer. */
export function allAnswered(telegram: FakeTelegram, markers: ReadonlySet<string>): Promise<number> {
  return untilEveryMarker<TelegramCall>(
    (predicate) => telegram.waitForCall('sendMessage', predicate),
    (call) => [String(call.params.text ?? '')],
    markers,
  );
}

/**
 * Resolves when every marker was seen in a call `waitForCall` reports (the texts it carries by `textsOf`), or when none
 * came for `stallMs`; the receive time of the last one. Shared by the Telegram, Discord and LINE loads.
 */
export async function untilEveryMarker<Call extends { receivedTime: number }>(
  waitForCall: (predicate: (call: Call) => boolean) => Promise<unknown>,
  textsOf: (call: Call) => readonly string[],
  markers: Iterable<string>,
): Promise<number> {
  const waiting = new Set(markers);
  let lastAnswerAt = performance.now();
  let progressAt = Date.now();
  const everyAnswered = waitForCall((call) => {
    for (const text of textsOf(call)) {
      for (const marker of markersIn(text)) {
        if (!waiting.delete(marker)) continue;
        lastAnswerAt = Math.max(lastAnswerAt, call.receivedTime);
        progressAt = Date.now();
      }
    }
    return waiting.size === 0;
  });
  let watchdog: NodeJS.Timeout | undefined;
  const stalled = new Promise<void>((resolve) => {
    watchdog = setInterval(() => {
      if (Date.now() - progressAt > stallMs) resolve();
    }, 1_000);
  });
  await Promise.race([everyAnswered, stalled]);
  clearInterval(watchdog);
  return lastAnswerAt;
}

/** Lost, duplicated and out-of-order answers, counted on the fake's whole call log once the bot has stopped. */
export function countAnswers(calls: readonly TelegramCall[], markers: readonly string[]) {
  const sends = new Map<string, number>();
  const firstSentAt = new Map<string, number>();
  const lastMarkerOfChat = new Map<string, string>();
  const chatsOutOfOrder = new Set<string>();
  let failedSends = 0;
  for (const call of calls) {
    if (call.method !== 'sendMessage') continue;
    if (call.outcome?.ok !== true) {
      failedSends++;
      continue;
    }
    const chat = String(call.params.chat_id);
    for (const marker of markersIn(String(call.params.text ?? ''))) {
      sends.set(marker, (sends.get(marker) ?? 0) + 1);
      if (!firstSentAt.has(marker)) firstSentAt.set(marker, call.receivedTime);
      const previous = lastMarkerOfChat.get(chat);
      if (previous !== undefined && previous > marker) chatsOutOfOrder.add(chat);
      lastMarkerOfChat.set(chat, marker);
    }
  }
  return {
    lost: markers.filter((marker) => !sends.has(marker)).length,
    duplicated: [...sends.values()].filter((times) => times > 1).length,
    chatsOutOfOrder: chatsOutOfOrder.size,
    failedSends,
    firstSentAt,
  };
}

/** When each update was first handed to the bot, and how many came back in a later answer. */
export function deliveries(calls: readonly TelegramCall[]): { deliveredAt: Map<number, number>; twice: number; batches: number } {
  const deliveredAt = new Map<number, number>();
  let twice = 0;
  let batches = 0;
  for (const call of calls) {
    if (call.method !== 'getUpdates' || call.outcome?.ok !== true || !Array.isArray(call.outcome.result)) continue;
    if (call.outcome.result.length > 0) batches++;
    for (const update of call.outcome.result as { update_id: number }[]) {
      if (deliveredAt.has(update.update_id)) twice++;
      else deliveredAt.set(update.update_id, call.answeredTime ?? Number.NaN);
    }
  }
  return { deliveredAt, twice, batches };
}

export async function runTelegramLoad(conversations: number, per: number): Promise<TelegramLoad> {
  const total = conversations * per;
  const telegram = await startFakeTelegram();
  const model = await startFakeModelServer({ modelId: 'test-model' });
  const askedAbout = new Map<string, number>();
  scriptEchoingAnswers(model, total, (marker) => askedAbout.set(marker, (askedAbout.get(marker) ?? 0) + 1));
  const child = spawnChild('telegram', { BENCH_MODEL_URL: model.url, BENCH_TELEGRAM_TOKEN: telegram.token, BENCH_TELEGRAM_URL: telegram.url });
  try {
    if ((await nextFrom(child)).kind !== 'ready') throw new Error('the bot child did not start');
    const users = Array.from({ length: conversations }, (_, index) => user(720_000 + index, `ลูกค้า ${index}`, `load_${index}`));
    const markers: string[] = [];
    const updateOf = new Map<string, number>();
    const started = performance.now();
    // Interleaved, as many people writing at once arrive: every chat's first message, then every chat's second, …
    for (let turn = 0; turn < per; turn++) {
      users.forEach((from, conversation) => {
        const marker = markerOf(turn * conversations + conversation);
        const pushed = telegram.pushUpdate(textMessageUpdate({ chat: privateChat(from), from, text: questionText(marker) }));
        if (!pushed) throw new Error('the fake did not queue an update');
        markers.push(marker);
        updateOf.set(marker, pushed.update_id);
      });
    }
    const lastAnswerAt = await allAnswered(telegram, new Set(markers));
    const { memory } = await finish(child);
    const counted = countAnswers(telegram.calls, markers);
    const delivered = deliveries(telegram.calls);
    const updateToAnswer = markers.flatMap((marker) => {
      const sentAt = counted.firstSentAt.get(marker);
      const deliveredAt = delivered.deliveredAt.get(updateOf.get(marker) ?? -1);
      return sentAt === undefined || deliveredAt === undefined ? [] : [sentAt - deliveredAt];
    });
    const elapsedMs = lastAnswerAt - started;
    return {
      elapsedMs: round(elapsedMs),
      messagesPerSecond: round((total - counted.lost) / (elapsedMs / 1000)),
      lost: counted.lost,
      duplicated: counted.duplicated,
      modelAskedTwice: [...askedAbout.values()].filter((times) => times > 1).length,
      updatesDeliveredTwice: delivered.twice,
      chatsOutOfOrder: counted.chatsOutOfOrder,
      failedSends: counted.failedSends,
      getUpdatesBatches: delivered.batches,
      updateToAnswerMs: spread(updateToAnswer),
      memory,
    };
  } finally {
    if (child.exitCode === null) child.kill();
    await model.close();
    await telegram.close();
  }
}

export async function runCliLoad(conversations: number, per: number): Promise<CliLoad> {
  const model = await startFakeModelServer({ modelId: 'test-model' });
  scriptEchoingAnswers(model, conversations * per, () => undefined);
  const child = spawnChild('cli', { BENCH_MODEL_URL: model.url });
  try {
    if ((await nextFrom(child)).kind !== 'ready') throw new Error('the CLI child did not start');
    const ran = nextFrom(child);
    child.send({ kind: 'run', conversations, per } satisfies ParentMessage);
    await ran;
    const { memory, cli } = await finish(child);
    if (!cli) throw new Error('the CLI child did not report its run');
    return { ...cli, elapsedMs: round(cli.elapsedMs), messagesPerSecond: round(cli.answered / (cli.elapsedMs / 1000)), memory };
  } finally {
    if (child.exitCode === null) child.kill();
    await model.close();
  }
}
