import { describe, expect, it } from 'vitest';
import { callsAtMost, chunksWithinCalls, defaultBudget, planFor } from '../../../agent/catchup/plan.js';
import { summarizeLog } from '../../../agent/catchup/summarize-log.js';
import { estimateTokens } from '../../../agent/catchup/token-estimate.js';
import type { CompletionRequest } from '../../../agent/model/index.js';
import { qwenTokenizer } from '../../../bench/model-work-cache.js';
import { renderChatMl } from '../../../bench/model-work-chatml.js';
import { scriptedSummarizer } from '../../../bench/summary-model.js';
import { syntheticLog, syntheticTopics } from '../../../bench/summary-log.js';

// The budget of calls and tokens, checked against Qwen3's real tokenizer on prompts rendered as llama-server does.

const encode = qwenTokenizer();
const keywords = syntheticTopics.map((topic) => topic.keyword);

function realPrompt(request: CompletionRequest): number {
  const messages = [{ role: 'system', content: request.system ?? '' }, ...request.messages];
  return encode(renderChatMl({ messages }).text).length;
}

/** Answers as long as it may: a heading citing the first message shown, then filler up to its bound. */
function filling() {
  const requests: CompletionRequest[] = [];
  const complete = (request: CompletionRequest) => {
    requests.push(request);
    const first = /#(\d{1,7})/.exec(request.messages[0]?.content ?? '')?.[1] ?? '0';
    return Promise.resolve(`## หัวข้อ (#${first})\n- ${'สรุป'.repeat(Math.floor((request.maxTokens ?? 100) / 4))}`);
  };
  return { complete, requests };
}

describe('every call fits the context by the real tokenizer', () => {
  for (const contextTokens of [8_192, 4_096]) {
    it(`2,000 Thai messages in a ${contextTokens}-token context: prompt plus output bound within it, the estimate never below`, async () => {
      const { entries } = syntheticLog(2_000);
      const model = scriptedSummarizer(keywords, encode);
      const requests: CompletionRequest[] = [];
      const summary = await summarizeLog(entries, {
        complete: (request) => {
          requests.push(request);
          return model.complete(request);
        },
        language: 'th',
        timeZone: 'Asia/Bangkok',
        budget: { contextTokens, chunkOutputTokens: 250, finalOutputTokens: 500 },
      });
      expect(summary.outcome).toBe('summary');
      expect(requests.length).toBeGreaterThan(5);
      requests.forEach((request, index) => {
        const real = realPrompt(request);
        expect(real + (request.maxTokens ?? Infinity)).toBeLessThanOrEqual(contextTokens);
        expect(summary.promptTokens[index]).toBeGreaterThanOrEqual(real);
      });
    });
  }
});

describe('reduce levels and the call bound', () => {
  it('summarizes 20,000 messages in levels, within the calls the plan allows', async () => {
    const { entries } = syntheticLog(20_000);
    const model = filling();
    const progress: [number, number][] = [];
    const summary = await summarizeLog(entries, {
      complete: model.complete,
      language: 'th',
      timeZone: 'Asia/Bangkok',
      onProgress: (done, total) => progress.push([done, total]),
    });
    if (summary.outcome !== 'summary') throw new Error(summary.outcome);
    const maps = model.requests.filter((request) => request.messages[0]?.content.includes('<log>')).length;
    const reduces = model.requests.filter((request) => request.messages[0]?.content.includes('<summaries>'));
    expect(summary.levels).toBeGreaterThanOrEqual(2);
    expect(summary.calls).toBe(maps + reduces.length);
    expect(summary.calls).toBeLessThanOrEqual(callsAtMost(maps, planFor(undefined, 'th', estimateTokens) ?? expect.fail('no plan')));
    expect(summary.cut).toBeUndefined();
    // Every reduce call merges at least two summaries.
    for (const request of reduces) expect(request.messages[0]?.content.match(/^## /gm)?.length).toBeGreaterThanOrEqual(2);
    expect(summary.topics[0]?.first).toBe(0);
    // Progress: from nothing done, one step a call, the total never below what is done, ending done.
    expect(progress[0]?.[0]).toBe(0);
    expect(progress.filter(([done], index) => index > 0 && done === (progress[index - 1]?.[0] ?? 0) + 1).length).toBe(summary.calls);
    expect(progress.every(([done, total]) => total >= done)).toBe(true);
    expect(progress.at(-1)).toEqual([summary.calls, summary.calls]);
  });

  it('leaves out the oldest messages when the log needs more calls than allowed, and says how many', async () => {
    const { entries } = syntheticLog(2_000);
    const model = filling();
    const summary = await summarizeLog(entries, { complete: model.complete, language: 'th', timeZone: 'Asia/Bangkok', budget: { maxCalls: 6 } });
    if (summary.outcome !== 'summary') throw new Error(summary.outcome);
    expect(summary.calls).toBeLessThanOrEqual(6);
    const leftOut = summary.cut?.leftOut ?? 0;
    expect(leftOut).toBeGreaterThan(0);
    expect(summary.cut?.from).toBe(entries[leftOut]?.at);
    expect(model.requests[0]?.messages[0]?.content).toContain(`\n#${leftOut} `);
    expect(model.requests.some((request) => request.messages[0]?.content.includes(`\n#${leftOut - 1} `))).toBe(false);
  });

  it('one call at most: the newest chunk alone, answered as the final', async () => {
    const { entries } = syntheticLog(2_000);
    const model = filling();
    const summary = await summarizeLog(entries, { complete: model.complete, language: 'th', timeZone: 'Asia/Bangkok', budget: { maxCalls: 1 } });
    expect(summary).toMatchObject({ outcome: 'summary', calls: 1, levels: 0 });
    expect(model.requests[0]?.maxTokens).toBe(defaultBudget.finalOutputTokens);
  });
});

describe('planFor and the call bound', () => {
  it('refuses a context too small for a reduce call to take two summaries', () => {
    expect(planFor({ contextTokens: 2_000 }, 'th', estimateTokens)).toBeUndefined();
    expect(planFor(undefined, 'th', estimateTokens)).toBeDefined();
    expect(planFor({ contextTokens: Number.NaN, maxCalls: -3 }, 'en', estimateTokens)?.maxCalls).toBe(defaultBudget.maxCalls);
  });

  it('counts the calls a log of n chunks takes at most, and keeps the newest chunks within the bound', () => {
    const plan = planFor({ maxCalls: 20 }, 'th', estimateTokens) ?? expect.fail('no plan');
    expect([0, 1, 2].map((chunks) => callsAtMost(chunks, plan))).toEqual([0, 1, 3]);
    for (let chunks = 2; chunks < 400; chunks++) expect(callsAtMost(chunks + 1, plan)).toBeGreaterThanOrEqual(callsAtMost(chunks, plan));
    expect(callsAtMost(chunksWithinCalls(100, plan), plan)).toBeLessThanOrEqual(20);
    expect(chunksWithinCalls(100, { ...plan, maxCalls: 1 })).toBe(1);
  });
});
