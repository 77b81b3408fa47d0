import type { Language } from '../../src/shared/types.js';
import type { CountTokens } from './chunking.js';
import { frameOverhead, mapSystemPrompt, reduceSystemPrompt } from './prompts.js';

// What the context allows each call: the room for log lines in a map call, for summaries in a reduce call, the
// most a summary may count when it is read again, and so the most calls a log of n chunks can take — known before
// the first call, so that a log too long for the call bound is cut (oldest first) instead of found out half-way.

export interface SummaryBudget {
  /** The model's context: system prompt, user message and output together. */
  contextTokens: number;
  /** The most a map call may answer (a chunk's topics). */
  chunkOutputTokens: number;
  /** The most a reduce call (or the one call of a short log) may answer. */
  finalOutputTokens: number;
  /** The most model calls one summary may make: past it, the oldest part of the log is left out. */
  maxCalls: number;
}

export const defaultBudget: SummaryBudget = { contextTokens: 8_192, chunkOutputTokens: 300, finalOutputTokens: 800, maxCalls: 200 };

/** ChatML's own tokens around two messages and the generation prompt (an empty think block included). */
export const chatTemplateTokens = 24;

/**
 * A summary as read again is cut at this many times its output bound, by the estimate: the model keeps to its bound
 * in real tokens, and the estimate counts more than the real tokenizer.
 */
const readBackFactor = 2;

export interface Plan {
  /** Room for the log lines of one map call. */
  mapInput: number;
  /** Room for the summaries of one reduce call. */
  reduceInput: number;
  /** Output bound of a map call when there are several chunks (one chunk alone is answered as the final). */
  chunkOutput: number;
  finalOutput: number;
  /** The most a summary counts when it is read again, after a map call and after a reduce call. */
  chunkSummaryCap: number;
  reduceSummaryCap: number;
  maxCalls: number;
}

function whole(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value >= 1 ? Math.floor(value) : fallback;
}

/** The plan for a budget, or undefined when the context is too small for a reduce call to take two summaries. */
export function planFor(given: Partial<SummaryBudget> | undefined, language: Language, count: CountTokens): Plan | undefined {
  const budget: SummaryBudget = {
    contextTokens: whole(given?.contextTokens, defaultBudget.contextTokens),
    chunkOutputTokens: whole(given?.chunkOutputTokens, defaultBudget.chunkOutputTokens),
    finalOutputTokens: whole(given?.finalOutputTokens, defaultBudget.finalOutputTokens),
    maxCalls: whole(given?.maxCalls, defaultBudget.maxCalls),
  };
  const frames = frameOverhead(language);
  const margin = chatTemplateTokens + Math.ceil(budget.contextTokens * 0.02);
  // Every map call leaves room for the final answer: any chunk may turn out to be the only one.
  const mapInput = budget.contextTokens - count(mapSystemPrompt(language)) - count(frames.map) - budget.finalOutputTokens - margin;
  const reduceInput = budget.contextTokens - count(reduceSystemPrompt(language)) - count(frames.reduce) - budget.finalOutputTokens - margin;
  const plan: Plan = {
    mapInput,
    reduceInput,
    chunkOutput: budget.chunkOutputTokens,
    finalOutput: budget.finalOutputTokens,
    chunkSummaryCap: budget.chunkOutputTokens * readBackFactor,
    reduceSummaryCap: budget.finalOutputTokens * readBackFactor,
    maxCalls: budget.maxCalls,
  };
  const fits = mapInput >= 64 && fanIn(plan.reduceInput, Math.max(plan.chunkSummaryCap, plan.reduceSummaryCap)) >= 2;
  return fits ? plan : undefined;
}

/** Summaries of at most `cap` tokens a reduce call surely takes (each one followed by a blank line). */
function fanIn(room: number, cap: number): number {
  return Math.floor(room / (cap + 2));
}

/**
 * The most calls that `summaries` summaries still take to become one, the first level of them being map outputs
 * when `fromChunks`: each reduce call takes at least the fan-in, and a lone summary left over is carried up as it is.
 */
export function reduceCallsAtMost(summaries: number, plan: Plan, fromChunks: boolean): number {
  let calls = 0;
  let left = summaries;
  let cap = fromChunks ? plan.chunkSummaryCap : plan.reduceSummaryCap;
  while (left > 1) {
    const groups = Math.ceil(left / fanIn(plan.reduceInput, cap));
    calls += groups;
    left = groups;
    // Later levels mix reduce answers with summaries carried up as they were.
    cap = Math.max(plan.chunkSummaryCap, plan.reduceSummaryCap);
  }
  return calls;
}

/** The most calls a log of `chunks` chunks takes. */
export function callsAtMost(chunks: number, plan: Plan): number {
  return chunks <= 1 ? chunks : chunks + reduceCallsAtMost(chunks, plan, true);
}

/** How many of the newest chunks the call bound allows (at least one). */
export function chunksWithinCalls(chunks: number, plan: Plan): number {
  let kept = chunks;
  while (kept > 1 && callsAtMost(kept, plan) > plan.maxCalls) kept--;
  return kept;
}
