import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { runAnswerGuards } from '../agent/guards/index.js';
import { findLeakedToolCalls } from '../agent/guards/leaked-markup.js';
import { createStreamMonitor } from '../agent/guards/stream-monitor.js';
import { markUnsupportedNumbers } from '../agent/guards/unsupported-numbers.js';
import { extractFigures } from '../agent/guards/number-figures.js';
import { scanForCredentials } from '../src/dlp/scan.js';
import type { ToolCallRecord, TurnRecord } from '../src/shared/types.js';
import { seeded } from './seeded.js';

// `npm run bench -- guards`: the post-answer pipeline on a 4 KB and a 100 KB answer, the stream monitor fed 100 KB
// in 8-character deltas, and the worst case over 1,000 adversarial inputs — each against a naive baseline measured
// in the same run. Targets: < 5 ms (4 KB), < 50 ms (100 KB), no adversarial input over 100 ms.

// The XQuAD Thai set, copied into test/fixtures with its licence.
const xquadPath = new URL('../test/fixtures/knowledge/xquad.th.json', import.meta.url);

function thaiParagraphs(): string[] {
  const schema = z.object({ data: z.array(z.object({ paragraphs: z.array(z.object({ context: z.string() })) })) });
  try {
    return schema.parse(JSON.parse(readFileSync(xquadPath, 'utf8'))).data.flatMap((article) => article.paragraphs.map((p) => p.context));
  } catch {
    return ['ราคาทองคำแท่งวันนี้ขายออกบาทละ 41,050 บาท เพิ่มขึ้นจากเมื่อวาน ตามประกาศของสมาคมค้าทองคำ'];
  }
}

function percentile(values: readonly number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? 0;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

function time(run: () => unknown, repeats: number): { p50Ms: number; p99Ms: number; maxMs: number; runs: number } {
  const samples: number[] = [];
  for (let warm = 0; warm < Math.min(100, repeats); warm++) run(); // warm-up: JIT tiers, regex compilation
  for (let index = 0; index < repeats; index++) {
    const started = performance.now();
    run();
    samples.push(performance.now() - started);
  }
  return { p50Ms: round(percentile(samples, 0.5)), p99Ms: round(percentile(samples, 0.99)), maxMs: round(Math.max(...samples)), runs: repeats };
}

function call(name: string, result: string, citations: ToolCallRecord['citations'] = []): ToolCallRecord {
  return { id: name, name, args: { query: 'q' }, argumentsText: '{"query":"q"}', result, ok: true, ms: 1, citations, files: [] };
}

function record(finalText: string, toolCalls: ToolCallRecord[]): TurnRecord {
  return {
    conversationKey: 'bench',
    language: 'th',
    question: 'สรุปราคาทองและข่าวเศรษฐกิจวันนี้ให้หน่อย',
    dateLine: 'วันพุธที่ 15 มกราคม พ.ศ. 2568 (2025-01-15) เวลา 14:30 น.',
    contextPassages: [],
    earlierTurns: [],
    images: [],
    toolCalls,
    drafts: [],
    finalText,
    citations: [],
    files: [],
    guardEvents: [],
    stopReason: 'answer',
    rag: 'agentic',
    capabilities: { tools: true, vision: false },
    steps: 2,
    modelMs: 0,
    modelFigures: {},
    totalMs: 0,
  };
}

/** A realistic answer of about `size` characters and the tool results behind it. */
function realisticTurn(size: number, paragraphs: readonly string[], random: () => number): TurnRecord {
  const results: string[] = [];
  const answer: string[] = [];
  let length = 0;
  for (let index = 0; length < size; index++) {
    const paragraph = paragraphs[index % paragraphs.length] ?? '';
    const price = 40_000 + Math.floor(random() * 2_000);
    const percent = (random() * 3).toFixed(2);
    const url = `https://news.example.co.th/economy/${2_025_000 + index}?utm_source=feed`;
    results.push(`${index + 1}. ข่าวเศรษฐกิจ: ทองคำแท่งขายออก ${price.toLocaleString('en-US')} บาท เพิ่มขึ้น ${percent}% ${paragraph.slice(0, 300)} [source: ${url}]`);
    const invented = index % 7 === 0 ? ` คาดว่าจะแตะ ${price + 777} บาท` : '';
    const piece = [
      `${index + 1}. ${paragraph.slice(0, 500)}`,
      `ราคาทองคำแท่ง ${(price / 1000).toFixed(1)} พันบาท (${price.toLocaleString('en-US')} บาท) เพิ่มขึ้นร้อยละ ${Number(percent).toFixed(1)}${invented}`,
      `In English: gold rose ${percent}% to ${price} baht, see ${url} and https://invented.example.com/${index}.`,
      index % 5 === 0 ? '```\nconst total = 12345 + 67890;\n```' : '',
    ].join('\n');
    answer.push(piece);
    length += piece.length;
  }
  return record(answer.join('\n\n').slice(0, size), [call('web_search', results.join('\n'))]);
}

/** The obvious way to check figures: search every figure's text in the support, one substring search each. */
function naiveNumbers(answer: string, support: readonly string[]): number {
  const joined = support.join('\n');
  let unsupported = 0;
  for (const figure of extractFigures(answer)) if (!joined.includes(answer.slice(figure.start, figure.end))) unsupported++;
  return unsupported;
}

function streamText(size: number, paragraphs: readonly string[]): string {
  let text = '';
  for (let index = 0; text.length < size; index++) text += `${paragraphs[index % paragraphs.length] ?? ''}\n\n`;
  return text.slice(0, size);
}

/** The naive stream watcher: a full rescan of everything so far after every delta. */
function naiveInspect(text: string): boolean {
  if (findLeakedToolCalls(text, ['web_search']).found) return true;
  for (let unit = 4; unit <= 200 && unit * 4 <= text.length; unit++) {
    const tail = text.slice(text.length - unit);
    if (text.slice(text.length - unit * 4) === tail.repeat(4)) return true;
  }
  return false;
}

function benchStream(text: string, mode: 'slices' | 'concat' | 'concat-only' | 'naive', budgetMs = 20_000) {
  const monitor = createStreamMonitor({ userAskedToRepeat: false });
  const perCall: number[] = [];
  let visible = '';
  let checksum = 0;
  const started = performance.now();
  let fed = 0;
  for (let sent = 8; sent < text.length + 8 && performance.now() - started < budgetMs; sent += 8) {
    const end = Math.min(sent, text.length);
    if (mode === 'slices') visible = text.slice(0, end);
    else visible += text.slice(fed, end);
    fed = end;
    const callStarted = performance.now();
    if (mode === 'concat-only') checksum += visible.charCodeAt(visible.length - 1);
    else if (mode === 'naive') checksum += naiveInspect(visible) ? 1 : 0;
    else checksum += monitor.inspect(visible).action === 'abort' ? 1 : 0;
    perCall.push(performance.now() - callStarted);
  }
  const totalMs = performance.now() - started;
  return {
    characters: fed,
    deltas: perCall.length,
    totalMs: round(totalMs),
    perCallP50Ms: round(percentile(perCall, 0.5)),
    perCallMaxMs: round(Math.max(...perCall)),
    ...(fed < text.length ? { stoppedAtBudgetMs: budgetMs } : {}),
    checksum,
  };
}

const families: { name: string; make: (size: number, random: () => number) => string }[] = [
  { name: 'pem-headers-without-end', make: (size) => '-----BEGIN RSA PRIVATE KEY-----\nMIIEow'.repeat(Math.ceil(size / 38)) },
  { name: 'long-digit-runs', make: (size) => '9'.repeat(size) },
  { name: 'digits-with-separators', make: (size) => '1,234.5-6/7:8 '.repeat(Math.ceil(size / 14)) },
  { name: 'thai-digits-and-scales', make: (size) => '๑,๒๓๔.๕ ล้านล้านบาท ร้อยละ ๙๙ พ.ศ. ๖๗ '.repeat(Math.ceil(size / 36)) },
  {
    name: 'near-periodic-text',
    make: (size, random) => Array.from({ length: Math.ceil(size / 13) }, () => (random() < 0.05 ? 'ราคาทองขึ้นX ' : 'ราคาทองขึ้นๆ ')).join(''),
  },
  { name: 'many-tool-call-openers', make: (size) => '<tool_call>{"name": "web_search", "arguments": {"query": "'.repeat(Math.ceil(size / 58)) },
  { name: 'bare-tool-call-openers', make: (size) => '<tool_call>'.repeat(Math.ceil(size / 11)) },
  { name: 'function-openers', make: (size) => '<function=a><parameter=b>'.repeat(Math.ceil(size / 25)) },
  { name: 'json-call-lines', make: (size) => '{"name": "x", "arguments": {"a": [[[[\n'.repeat(Math.ceil(size / 38)) },
  {
    name: 'long-url-lists',
    make: (size) => Array.from({ length: Math.ceil(size / 60) }, (_, index) => `- https://example.com/path/${index}?utm_source=x#frag\n`).join(''),
  },
  { name: 'urls-without-spaces', make: (size) => 'https://a.b/www.'.repeat(Math.ceil(size / 16)) },
  { name: 'unclosed-source-markers', make: (size) => '[source: https://x.y/'.repeat(Math.ceil(size / 21)) },
  { name: 'unclosed-links', make: (size) => '[ลิงก์'.repeat(Math.ceil(size / 6)) },
  { name: 'backticks-and-fences', make: (size) => '`a ```\n'.repeat(Math.ceil(size / 7)) },
  { name: 'whitespace-runs', make: (size) => ' \t'.repeat(size / 2) + '\n' },
  { name: 'credential-prefixes', make: (size) => 'sk-AKIAghp_xoxb-eyJ.AIza'.repeat(Math.ceil(size / 24)) },
  {
    name: 'base64-blob',
    make: (size, random) =>
      Array.from({ length: size }, () => 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'[Math.floor(random() * 64)]).join(''),
  },
  { name: 'email-like-chains', make: (size) => 'a.b@c.d-'.repeat(Math.ceil(size / 8)) },
  { name: 'refusal-and-save-words', make: (size) => "I'm sorry I can't save file บันทึกไฟล์ ".repeat(Math.ceil(size / 40)) },
];

function benchAdversarial(count: number) {
  const random = seeded(42);
  const samples: { family: string; size: number; ms: number }[] = [];
  const monitorSamples: { family: string; size: number; maxCallMs: number }[] = [];
  for (let index = 0; index < count; index++) {
    const family = families[index % families.length];
    if (!family) continue;
    const size = 1_000 + Math.floor(random() * 99_000);
    const input = family.make(size, random).slice(0, size);
    const support = (families[(index + 3) % families.length] ?? family).make(size, random).slice(0, size);
    const turn = record(input, [call('web_search', support)]);
    const started = performance.now();
    runAnswerGuards(turn, { secrets: ['configured-secret-value'] });
    findLeakedToolCalls(input, ['web_search']);
    scanForCredentials(input);
    samples.push({ family: family.name, size, ms: performance.now() - started });
    if (index % 20 === 0) {
      // The stream monitor on the same input, 64-character deltas: the slowest single call.
      const monitor = createStreamMonitor({ userAskedToRepeat: false });
      let maxCallMs = 0;
      for (let sent = 64; sent < input.length + 64; sent += 64) {
        const callStarted = performance.now();
        if (monitor.inspect(input.slice(0, Math.min(sent, input.length))).action === 'abort') break;
        maxCallMs = Math.max(maxCallMs, performance.now() - callStarted);
      }
      monitorSamples.push({ family: family.name, size, maxCallMs: round(maxCallMs) });
    }
  }
  const worst = samples.reduce((a, b) => (b.ms > a.ms ? b : a));
  const byFamily = Object.fromEntries(
    families.map((family) => [family.name, round(Math.max(...samples.filter((sample) => sample.family === family.name).map((sample) => sample.ms)))]),
  );
  const worstMonitor = monitorSamples.reduce((a, b) => (b.maxCallMs > a.maxCallMs ? b : a));
  return {
    inputs: samples.length,
    measured: 'runAnswerGuards + findLeakedToolCalls + scanForCredentials per input (1–100 KB)',
    p50Ms: round(
      percentile(
        samples.map((sample) => sample.ms),
        0.5,
      ),
    ),
    maxMs: round(worst.ms),
    worst: { family: worst.family, size: worst.size },
    over100Ms: samples.filter((sample) => sample.ms > 100).length,
    worstMsByFamily: byFamily,
    streamMonitorSlowestCall: { inputs: monitorSamples.length, ...worstMonitor },
  };
}

/**
 * A model that never stops (the 10,000 URLs, 200,000 characters): the stream monitor fed 4-character
 * deltas appended to one string, as the accumulator builds it — looking after every delta (the old way, stopped at
 * `budgetMs`) and as it does now — and the whole pipeline on the finished answer.
 */
function benchNeverStops(text: string, budgetMs: number) {
  const feed = (growthBeforeLook: number | undefined) => {
    const monitor = createStreamMonitor({ userAskedToRepeat: false, ...(growthBeforeLook === undefined ? {} : { growthBeforeLook }) });
    let visible = '';
    const started = performance.now();
    for (let at = 0; at < text.length && performance.now() - started < budgetMs; at += 4) {
      visible += text.slice(at, at + 4);
      monitor.inspect(visible);
    }
    const ms = performance.now() - started;
    return {
      characters: visible.length,
      ms: round(ms),
      charactersRead: monitor.charactersRead,
      ...(visible.length < text.length ? { stoppedAtBudgetMs: budgetMs } : {}),
    };
  };
  const turn = record(text, []);
  const pipelineStarted = performance.now();
  runAnswerGuards(turn, { secrets: [] });
  const pipelineMs = round(performance.now() - pipelineStarted);
  return { characters: text.length, pipelineMs, monitorBefore: feed(0), monitorNow: feed(undefined) };
}

export async function main(argv: string[]): Promise<void> {
  const quick = argv.includes('--quick');
  const paragraphs = thaiParagraphs();
  const random = seeded(7);
  const small = realisticTurn(4 * 1024, paragraphs, random);
  const large = realisticTurn(100 * 1024, paragraphs, random);
  const largeSupport = [...large.toolCalls.map((toolCall) => toolCall.result), large.question, large.dateLine];
  const pipeline4 = time(() => runAnswerGuards(small, { secrets: [] }), quick ? 10 : 300);
  const pipeline100 = time(() => runAnswerGuards(large, { secrets: [] }), quick ? 2 : 30);
  const marked = runAnswerGuards(large, { secrets: [] }).events;

  const text = streamText(100 * 1024, paragraphs);
  const result = {
    bench: 'guards',
    quick,
    node: process.version,
    pipeline: {
      answer4KB: { ...pipeline4, characters: small.finalText.length, targetMs: 5, metAtP99: pipeline4.p99Ms < 5 },
      answer100KB: {
        ...pipeline100,
        characters: large.finalText.length,
        targetMs: 50,
        metAtP99: pipeline100.p99Ms < 50,
        events: marked.map((event) => event.reason),
      },
      breakdown100KB: {
        numbers: time(() => markUnsupportedNumbers(large.finalText, largeSupport, 'th'), quick ? 1 : 10),
        dlp: time(() => scanForCredentials(large.finalText), quick ? 1 : 10),
      },
      baselineNaiveNumbers100KB: time(() => naiveNumbers(large.finalText, largeSupport), quick ? 1 : 10),
    },
    streamMonitor100KB: {
      deltaCharacters: 8,
      monitor: benchStream(text, 'slices', quick ? 300 : 20_000),
      monitorWithConcatenatedText: benchStream(text, 'concat', quick ? 300 : 20_000),
      baselineConcatenationOnly: benchStream(text, 'concat-only', quick ? 300 : 20_000),
      baselineNaiveFullRescanPerDelta: benchStream(text, 'naive', quick ? 300 : 30_000),
    },
    adversarial: benchAdversarial(quick ? 20 : 1000),
    neverStops: {
      tenThousandUrls: benchNeverStops(
        Array.from({ length: 10_000 }, (_, index) => `- ลิงก์ที่ ${index}: https://example.com/a/${index}?q=${index}`).join('\n'),
        quick ? 300 : 60_000,
      ),
      prose200k: benchNeverStops(streamText(200_000, paragraphs), quick ? 300 : 60_000),
    },
  };
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}
