import { describeError } from '../../src/shared/describe-error.js';
import type { Language } from '../../src/shared/types.js';
import type { TextCompleter } from '../model/index.js';
import { chunkLines, type Chunk, type CountTokens } from './chunking.js';
import { finalText, type SummaryTopic } from './final-text.js';
import { clockFor, figureSupport, logLines, type LogEntry } from './log-lines.js';
import { callsAtMost, chatTemplateTokens, chunksWithinCalls, planFor, reduceCallsAtMost, type Plan, type SummaryBudget } from './plan.js';
import { mapSystemPrompt, mapUserMessage, reduceSystemPrompt, reduceUserMessage } from './prompts.js';
import { estimateTokens, prefixWithinTokens } from './token-estimate.js';
import { boundedLines, keepValidRefs, refsIn } from './topics.js';

// "What did I miss": a group's log summarized by a small model whose context holds a few hundred messages at most.
// Map: each chunk of the log (chunking.ts) becomes a topic list. Reduce: topic lists are merged, as many to a call
// as fit, level after level, until one is left. The number of calls is bounded before the first one (plan.ts); the
// last answer is read by code (final-text.ts). Calls run one after another: a CPU model serves one at a time.

export interface SummarizeOptions {
  complete: TextCompleter;
  language: Language;
  /** IANA zone for the HH:MM shown to the model and in the links (an unknown one reads as UTC). */
  timeZone: string;
  budget?: Partial<SummaryBudget>;
  /** Tokens of a text by the model's tokenizer; by default a character estimate that counts high (token-estimate.ts). */
  countTokens?: CountTokens;
  /** After each call: calls done, and the most the whole summary can still take (it may end sooner). */
  onProgress?(done: number, total: number): void;
  signal?: AbortSignal;
}

/** Tells the caller how much of the log was summarized when the call bound left out its oldest part. */
export interface SummaryCut {
  /** Entries before the first one summarized. */
  leftOut: number;
  /** When the first summarized entry was said (epoch ms). */
  from: number;
}

interface CallFigures {
  calls: number;
  /** Prompt tokens of each call, by the counter, chat template included. */
  promptTokens: number[];
}

export type LogSummary =
  | (CallFigures & {
      outcome: 'summary';
      text: string;
      topics: SummaryTopic[];
      /** Reduce levels above the map step (0: the log took one call). */
      levels: number;
      cut?: SummaryCut;
      unconfirmedFigures: number;
      droppedRefs: number;
    })
  | (CallFigures & { outcome: 'empty' })
  | (CallFigures & { outcome: 'aborted' })
  /**
   * `model`: a call failed (error says how); `no-answer`: the model said nothing usable; `budget`: the context is too
   * small for the prompts; `internal`: something else threw (a caller's token counter, a bug of ours).
   */
  | (CallFigures & { outcome: 'failed'; reason: 'model' | 'no-answer' | 'budget' | 'internal'; error?: string });

/** A stretch of the log as read again by a reduce call: a topic list, and the references its call could make. */
interface Stretch {
  text: string;
  /** The answer it was read from, unbounded: what the group reads when it is the last. */
  answer: string;
  tokens: number;
  /** The entries its call was shown: a reference to any other is made up. */
  shown: (entry: number) => boolean;
}

class Stop extends Error {
  constructor(readonly summary: LogSummary) {
    super(summary.outcome);
  }
}

interface Run {
  options: SummarizeOptions;
  count: CountTokens;
  plan: Plan;
  figures: CallFigures;
  /** The most calls still to come, for progress. */
  ahead: number;
  isLine: (entry: number) => boolean;
  /** References the model made to entries outside what it was shown, dropped before its answer was read again. */
  droppedRefs: number;
}

function report(run: Run): void {
  try {
    run.options.onProgress?.(run.figures.calls, run.figures.calls + run.ahead);
  } catch {
    // A progress display that fails must not fail the summary.
  }
}

async function call(run: Run, system: string, user: string, maxTokens: number): Promise<string> {
  const { signal } = run.options;
  if (signal?.aborted) throw new Stop({ outcome: 'aborted', ...run.figures });
  run.figures.calls++;
  run.figures.promptTokens.push(run.count(system) + run.count(user) + chatTemplateTokens);
  let answer: string;
  try {
    answer = await run.options.complete({ system, messages: [{ role: 'user', content: user }], maxTokens, ...(signal ? { signal } : {}) });
  } catch (error) {
    if (signal?.aborted) throw new Stop({ outcome: 'aborted', ...run.figures });
    throw new Stop({ outcome: 'failed', reason: 'model', error: describeError(error).slice(0, 300), ...run.figures });
  }
  run.ahead = Math.max(0, run.ahead - 1);
  report(run);
  return typeof answer === 'string' ? answer : '';
}

/** An answer as the next level reads it: visible text, references to what its call was shown only, cut to the cap. */
function readBack(run: Run, answer: string, shown: (entry: number) => boolean, cap: number): Stretch | undefined {
  const visible = boundedLines(answer).join('\n').trim();
  const { text, dropped } = keepValidRefs(visible, shown);
  run.droppedRefs += dropped;
  const capped = prefixWithinTokens(text.trim(), cap, run.count);
  return capped === '' ? undefined : { text: capped, answer, tokens: run.count(capped), shown };
}

/** The entries a chunk shows: those of its range that have a line. */
function chunkShows(run: Run, chunk: Chunk): (entry: number) => boolean {
  return (entry) => entry >= chunk.first && entry <= chunk.last && run.isLine(entry);
}

/** What a reduce call is shown: the references its summaries kept. */
function groupShows(group: readonly Stretch[]): (entry: number) => boolean {
  const cited = new Set(group.flatMap((item) => refsIn(item.text)));
  return (entry) => cited.has(entry);
}

/** Consecutive groups of summaries that fit one reduce call. */
function groups(items: readonly Stretch[], room: number): Stretch[][] {
  const result: Stretch[][] = [];
  let current: Stretch[] = [];
  let used = 0;
  for (const item of items) {
    if (current.length > 0 && used + item.tokens + 2 > room) {
      result.push(current);
      current = [];
      used = 0;
    }
    current.push(item);
    used += item.tokens + 2;
  }
  if (current.length > 0) result.push(current);
  return result;
}

async function mapStep(run: Run, chunks: readonly Chunk[]): Promise<Stretch[]> {
  const { language } = run.options;
  const partials: Stretch[] = [];
  for (const chunk of chunks) {
    const answer = await call(run, mapSystemPrompt(language), mapUserMessage(chunk.text, language), run.plan.chunkOutput);
    const partial = readBack(run, answer, chunkShows(run, chunk), run.plan.chunkSummaryCap);
    if (partial) partials.push(partial);
  }
  return partials;
}

/** Reduce levels until one stretch is left: it, and how many levels it took. */
async function reduceSteps(run: Run, mapped: Stretch[]): Promise<{ last: Stretch | undefined; levels: number }> {
  const { language } = run.options;
  let items = mapped;
  let levels = 0;
  while (items.length > 1) {
    levels++;
    const next: Stretch[] = [];
    for (const group of groups(items, run.plan.reduceInput)) {
      const [only] = group;
      if (group.length === 1 && only) {
        next.push(only); // a lone summary goes up as it is
        continue;
      }
      const texts = group.map((item) => item.text);
      const shown = groupShows(group);
      const answer = await call(run, reduceSystemPrompt(language), reduceUserMessage(texts, language), run.plan.finalOutput);
      // Merged into nothing: the summaries themselves go up, as much of them as a merged one may hold.
      const partial = readBack(run, answer, shown, run.plan.reduceSummaryCap) ?? readBack(run, texts.join('\n\n'), shown, run.plan.reduceSummaryCap);
      if (partial) next.push(partial);
    }
    items = next;
    run.ahead = reduceCallsAtMost(items.length, run.plan, false);
    report(run);
  }
  return { last: items[0], levels };
}

/** The kept chunks and, when the call bound left the oldest out, what was cut. */
function withinCalls(chunks: Chunk[], entries: readonly LogEntry[], plan: Plan): { kept: Chunk[]; cut?: SummaryCut } {
  const kept = chunks.slice(chunks.length - chunksWithinCalls(chunks.length, plan));
  const first = kept[0];
  if (kept.length === chunks.length || !first) return { kept };
  return { kept, cut: { leftOut: first.first, from: entries[first.first]?.at ?? 0 } };
}

/** Summarizes a group's log; never throws: an empty log, a failed or cancelled call each give their own outcome. */
export async function summarizeLog(entries: readonly LogEntry[], options: SummarizeOptions): Promise<LogSummary> {
  const figures: CallFigures = { calls: 0, promptTokens: [] };
  try {
    return await summarize(entries, options, figures);
  } catch (error) {
    if (error instanceof Stop) return error.summary;
    // A bug of ours or a throwing counter: still a value, said as a failure.
    return { outcome: 'failed', reason: 'internal', error: describeError(error).slice(0, 300), ...figures };
  }
}

async function summarize(entries: readonly LogEntry[], options: SummarizeOptions, figures: CallFigures): Promise<LogSummary> {
  const count = options.countTokens ?? estimateTokens;
  const clock = clockFor(options.language, options.timeZone);
  const lines = logLines(entries, clock);
  if (lines.length === 0) return { outcome: 'empty', ...figures };
  const plan = planFor(options.budget, options.language, count);
  if (!plan) return { outcome: 'failed', reason: 'budget', ...figures };
  const { kept, cut } = withinCalls(chunkLines(lines, plan.mapInput, count), entries, plan);
  const firstKept = kept[0]?.first ?? 0;
  const summarized = lines.filter((line) => line.index >= firstKept);
  const lineSet = new Set(summarized.map((line) => line.index));
  const run: Run = { options, count, plan, figures, ahead: callsAtMost(kept.length, plan), isLine: (entry) => lineSet.has(entry), droppedRefs: 0 };
  report(run);

  let last: Stretch | undefined;
  let levels = 0;
  const [only] = kept;
  if (kept.length === 1 && only) {
    const answer = await call(run, mapSystemPrompt(options.language), mapUserMessage(only.text, options.language), plan.finalOutput);
    last = readBack(run, answer, chunkShows(run, only), Infinity);
  } else {
    ({ last, levels } = await reduceSteps(run, await mapStep(run, kept)));
  }
  if (!last) return { outcome: 'failed', reason: 'no-answer', ...figures };
  const final = finalText(last.answer, { entries, valid: last.shown, support: figureSupport(summarized), clock, language: options.language });
  if (final.text.trim() === '') return { outcome: 'failed', reason: 'no-answer', ...figures };
  return {
    outcome: 'summary',
    text: final.text,
    topics: final.topics,
    levels,
    ...(cut ? { cut } : {}),
    unconfirmedFigures: final.unconfirmedFigures,
    // Every answer was read back once (readBack), where its made-up references were counted.
    droppedRefs: run.droppedRefs,
    ...figures,
  };
}
