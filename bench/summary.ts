import { logLines, clockFor } from '../agent/catchup/log-lines.js';
import { mapSystemPrompt, mapUserMessage } from '../agent/catchup/prompts.js';
import { defaultBudget } from '../agent/catchup/plan.js';
import { summarizeLog } from '../agent/catchup/summarize-log.js';
import { estimateTokens } from '../agent/catchup/token-estimate.js';
import { renderChatMl } from './model-work-chatml.js';
import { qwenTokenizer, tokenizerName, type Encode } from './model-work-cache.js';
import { option, round } from './platform-measure.js';
import { isQuick, withQuickSettings } from './quick.js';
import { scriptedSummarizer, type ScriptedCall } from './summary-model.js';
import { syntheticLog, syntheticTopics } from './summary-log.js';

/** bench/platform-first-text's pace of a CPU box (test/fakes/model-server-pace.ts). */
const cpuPromptRate = 60;
const cpuGenerationRate = 12;

// `npm run bench -- summary [--quick] [--messages N] [--seed S]`: the catch-up summary of a 2,000-message Thai group
// log (bench/summary-log.ts) against a scripted model (bench/summary-model.ts), every prompt counted with Qwen3's
// real tokenizer as llama-server renders it. Says how many calls it took, whether every prompt and its output bound
// fit the 8,192-token context, how far the character estimate sits above the real count (it must never be below),
// and how many of the log's topics reach the summary; the baseline in the same run is the whole log in one prompt.

const timeZone = 'Asia/Bangkok';

function realPromptTokens(call: ScriptedCall, encode: Encode): number {
  const body = {
    messages: [
      { role: 'system', content: call.system },
      { role: 'user', content: call.user },
    ],
  };
  return encode(renderChatMl(body).text).length;
}

function spread(values: readonly number[]): { min: number; mean: number; max: number } {
  const total = values.reduce((sum, value) => sum + value, 0);
  return { min: round(Math.min(...values)), mean: round(total / Math.max(1, values.length)), max: round(Math.max(...values)) };
}

/** The estimate against the tokenizer on each message line alone: where it is tightest. */
function linesEstimate(entries: Parameters<typeof logLines>[0], encode: Encode) {
  const ratios = logLines(entries, clockFor('th', timeZone)).map((line) => estimateTokens(line.text) / Math.max(1, encode(line.text).length));
  return { ...spread(ratios), underEstimated: ratios.filter((ratio) => ratio < 1).length, lines: ratios.length };
}

export async function main(given: string[]): Promise<void> {
  const argv = withQuickSettings(given, ['--messages', '300']);
  const messages = option(argv, 'messages', 2_000);
  const seed = option(argv, 'seed', 31);
  const encode = qwenTokenizer();
  const log = syntheticLog(messages, seed);
  const model = scriptedSummarizer(
    syntheticTopics.map((topic) => topic.keyword),
    encode,
  );

  const started = performance.now();
  const summary = await summarizeLog(log.entries, { complete: model.complete, language: 'th', timeZone });
  const summarizeMs = performance.now() - started;

  const real = model.calls.map((call) => realPromptTokens(call, encode));
  const estimated = summary.promptTokens;
  const withOutput = model.calls.map((call, index) => (real[index] ?? 0) + call.maxTokens);
  const text = summary.outcome === 'summary' ? summary.text : '';
  const covered = log.topicsInLog.filter((keyword) => text.includes(keyword));
  const context = defaultBudget.contextTokens;
  const whole = logLines(log.entries, clockFor('th', timeZone))
    .map((line) => (line.newDay ? `${line.day}\n${line.text}` : line.text))
    .join('\n');
  const naive = realPromptTokens({ system: mapSystemPrompt('th'), user: mapUserMessage(whole, 'th'), maxTokens: 0, outputTokens: 0 }, encode);

  const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);
  const report = {
    bench: 'summary',
    quick: isQuick(argv),
    tokenizer: tokenizerName(),
    log: {
      messages: log.entries.length,
      speakers: new Set(log.entries.map((entry) => entry.speaker)).size,
      topics: log.topicsInLog.length,
      quietSpells: log.quietSpells,
    },
    summary: {
      outcome: summary.outcome,
      calls: summary.calls,
      mapCalls: model.calls.filter((call) => call.user.includes('<log>')).length,
      reduceCalls: model.calls.filter((call) => call.user.includes('<summaries>')).length,
      levels: summary.outcome === 'summary' ? summary.levels : null,
      ms: round(summarizeMs),
      unconfirmedFigures: summary.outcome === 'summary' ? summary.unconfirmedFigures : null,
      droppedRefs: summary.outcome === 'summary' ? summary.droppedRefs : null,
      linkedTopics: summary.outcome === 'summary' ? summary.topics.filter((topic) => topic.link).length : null,
      summaryChars: text.length,
    },
    promptTokens: {
      context,
      realMax: Math.max(...real),
      realWithOutputBoundMax: Math.max(...withOutput),
      allFit: withOutput.every((tokens) => tokens <= context),
      estimatedMax: Math.max(...estimated),
      estimateOverReal: spread(estimated.map((tokens, index) => tokens / Math.max(1, real[index] ?? 0))),
      estimateOverRealPerLine: linesEstimate(log.entries, encode),
    },
    outputTokens: {
      chunkBound: defaultBudget.chunkOutputTokens,
      finalBound: defaultBudget.finalOutputTokens,
      maxSeen: Math.max(...model.calls.map((call) => call.outputTokens)),
    },
    // What the calls cost on our users' box, at the platform bench's CPU pace (prompt 60 tokens/s — every call's
    // prompt is new to the server's cache —, generation 12 tokens/s): the wait the progress lines cover.
    cpuBox: {
      promptTokensPerSecond: cpuPromptRate,
      generatedTokensPerSecond: cpuGenerationRate,
      seconds: round(sum(real) / cpuPromptRate + sum(model.calls.map((call) => call.outputTokens)) / cpuGenerationRate),
      firstCallSeconds: round((real[0] ?? 0) / cpuPromptRate + (model.calls[0]?.outputTokens ?? 0) / cpuGenerationRate),
    },
    topicsInSummary: {
      inLog: log.topicsInLog.length,
      inSummary: covered.length,
      share: round(covered.length / Math.max(1, log.topicsInLog.length)),
      missing: log.topicsInLog.filter((keyword) => !covered.includes(keyword)),
    },
    baseline: {
      name: 'the whole log in one prompt',
      promptTokens: naive,
      context,
      timesTheContext: round(naive / context),
      fits: naive + defaultBudget.finalOutputTokens <= context,
    },
  };
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
}
