import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import OpenAI from 'openai';
import { startFakeModelServer, type RequestBody } from '../test/fakes/model-server.js';
import { defaultHistoryLimits, type HistoryLimits } from '../agent/history.js';
import { createTestApp, lookupTool } from '../test/support/test-app.js';
import { commonPrefixLength } from './common-prefix.js';
import { isQuick, withQuickSettings } from './quick.js';

// `npm run bench -- turn [--quick] [--turns N] [--conversations N]`: the whole pipeline (router → agent → guards → outbound)
// against an instant fake model, one tool call per turn. Baseline in the same run: the same two model calls per turn
// made directly with the openai SDK, no Saeng around them. Overhead = turn time − time inside model calls.

function option(argv: string[], name: string, fallback: number): number {
  const index = argv.indexOf(`--${name}`);
  const value = index >= 0 ? Number(argv[index + 1]) : NaN;
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? 0;
}

const serialize = (body: RequestBody) => JSON.stringify(body.tools ?? []) + JSON.stringify(body.messages ?? []);
const round = (value: number) => Math.round(value * 1000) / 1000;

const answers = [
  'ร้านเปิดทุกวันตั้งแต่ 08:00 ถึง 20:00 น. ครับ หากมาช่วงเย็นแนะนำให้มาก่อน 19:30 น. เพื่อให้มีเวลาเลือกสินค้า',
  'ตามข้อมูลที่ค้นได้ ร้านเปิด 08:00–20:00 ทุกวัน รวมวันหยุดนักขัตฤกษ์ ยกเว้นกรณีมีประกาศเป็นพิเศษ',
  // Thai like the question: an English answer to a Thai question meets the language guard, which asks the model again.
  'ร้านเปิดทุกวัน 08:00–20:00 น. รวมวันหยุดนักขัตฤกษ์ เว้นแต่จะมีประกาศแจ้งไว้ก่อน',
];

interface PolicyFigures {
  overheads: number[];
  totals: number[];
  ratios: number[];
  peakRss: number;
}

/** Runs `turns` turns over `conversations` conversations through the whole app and measures them. */
async function runPolicy(turns: number, conversations: number, historyLimits: HistoryLimits): Promise<PolicyFigures> {
  const fake = await startFakeModelServer({ flavour: 'llama-server', declaredTools: true });
  const test = createTestApp({
    modelUrl: fake.url,
    environment: { MODEL_TOOLS: 'on', MODEL_VISION: 'off' },
    extraTools: [lookupTool()],
    historyLimits,
  });
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 20);
  const overheads: number[] = [];
  const totals: number[] = [];
  // prefixReuse: each model call after the first in a conversation against that conversation's previous call.
  // Computed as we go and the fake's recordings dropped, so the harness does not inflate the RSS we report.
  const previousByConversation = new Map<number, string>();
  const ratios: number[] = [];
  for (let turn = 0; turn < turns; turn++) {
    const conversation = turn % conversations;
    fake.script(
      { toolCalls: [{ name: 'lookup', arguments: { query: `เวลาเปิดร้าน สาขา ${conversation}` } }] },
      { text: `${answers[turn % answers.length]} (${turn})` },
    );
    const started = performance.now();
    const handled = await test.ask(`ร้านเปิดกี่โมง สาขา ${conversation} คำถามที่ ${turn}`, { conversation: `bench-${conversation}` });
    const total = performance.now() - started;
    const record = handled.turn;
    if (!record || record.toolCalls.length !== 1) throw new Error(`turn ${turn} did not run exactly one tool call`);
    totals.push(total);
    overheads.push(total - record.modelMs);
    for (const body of fake.chatRequests.splice(0)) {
      const serialized = serialize(body);
      const previous = previousByConversation.get(conversation);
      if (previous !== undefined) ratios.push(commonPrefixLength(previous, serialized) / previous.length);
      previousByConversation.set(conversation, serialized);
    }
    fake.requests.splice(0);
  }
  clearInterval(sampler);
  fake.assertAllConsumed();
  await test.close();
  await fake.close();
  return { overheads, totals, ratios, peakRss };
}

/** Baseline: the same two model calls per turn straight through the SDK (no history, guards or storage). */
async function sdkOnly(turns: number): Promise<number[]> {
  const fake = await startFakeModelServer({ flavour: 'llama-server', declaredTools: true });
  const client = new OpenAI({ baseURL: fake.url, apiKey: 'none', maxRetries: 0 });
  const times: number[] = [];
  for (let turn = 0; turn < turns; turn++) {
    fake.script({ toolCalls: [{ name: 'lookup', arguments: { query: 'q' } }] }, { text: answers[0] ?? '' });
    const started = performance.now();
    for (let call = 0; call < 2; call++) {
      const stream = await client.chat.completions.create({ model: 'm', stream: true, messages: [{ role: 'user', content: 'ร้านเปิดกี่โมง' }] });
      for await (const _chunk of stream) {
        // drain
      }
    }
    times.push(performance.now() - started);
  }
  await fake.close();
  return times;
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);

/** The V8 flags Saeng ships with (package.json `start`, ecosystem.config.cjs). */
export const productionNodeFlags = ['--max-semi-space-size=2', '--max-old-space-size=256'];

export async function main(given: string[]): Promise<void> {
  const argv = withQuickSettings(given, ['--turns', '40', '--conversations', '4']);
  if (!argv.includes('--in-process')) {
    // Measure in a child started with the production V8 flags, so peak RSS is what a deployment sees
    // (plus the tsx loader and the in-process fake model server, which production does not carry).
    const child = spawnSync(process.execPath, [...productionNodeFlags, '--import', 'tsx', 'bench/run.ts', 'turn', '--in-process', ...argv], {
      cwd: path.resolve(import.meta.dirname, '..'),
      stdio: ['ignore', 'pipe', 'inherit'],
      encoding: 'utf8',
    });
    process.stdout.write(child.stdout);
    process.exitCode = child.status ?? 1;
    return;
  }
  const turns = option(argv, 'turns', 1000);
  const conversations = option(argv, 'conversations', 100);
  const batched = await runPolicy(turns, conversations, defaultHistoryLimits);
  // Baseline history policy: drop exactly one old pair per turn once full (the cache prefix breaks every turn).
  const oneByOne = await runPolicy(turns, conversations, {
    ...defaultHistoryLimits,
    trimToPairs: defaultHistoryLimits.maxPairs,
    trimToChars: defaultHistoryLimits.maxChars,
  });
  const baseline = await sdkOnly(Math.min(turns, 300));
  process.stdout.write(
    `${JSON.stringify(
      {
        bench: 'turn',
        quick: isQuick(argv),
        turns,
        conversations,
        overheadMs: { p50: round(percentile(batched.overheads, 0.5)), p99: round(percentile(batched.overheads, 0.99)), target: { p99: 10 } },
        turnMs: { p50: round(percentile(batched.totals, 0.5)), p99: round(percentile(batched.totals, 0.99)) },
        baselineSdkOnlyTurnMs: { p50: round(percentile(baseline, 0.5)), p99: round(percentile(baseline, 0.99)) },
        peakRssMb: round(batched.peakRss / 1024 / 1024),
        nodeFlags: productionNodeFlags.join(' '),
        prefixReuse: {
          mean: round(mean(batched.ratios)),
          min: round(Math.min(...batched.ratios)),
          calls: batched.ratios.length,
          target: 0.9,
          baselineOnePairAtATime: round(mean(oneByOne.ratios)),
        },
      },
      null,
      2,
    )}\n`,
  );
}
