import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { main } from '../../bench/model-work.js';
import { runQuick } from './run-quick.js';

const largest = z.object({ tokens: z.number(), request: z.string(), kind: z.string(), cause: z.string() }).nullable();
const figures = {
  requests: z.number(),
  promptTokens: z.number(),
  processedTokens: z.number(),
  reuse: z.number(),
  largest,
  // The same scenarios under the policy before, in the same run.
  baselinePromptTokens: z.number(),
  baselineProcessedTokens: z.number(),
  baselineReuse: z.number(),
};
const checkCalls = { calls: z.number(), items: z.number(), processedTokens: z.number(), generatedTokens: z.number() };
const reportSchema = z.object({
  bench: z.literal('model-work'),
  quick: z.literal(true),
  tokenizer: z.string(),
  baseline: z.string(),
  firstRequest: z.object({ tokens: z.number(), systemTokens: z.number(), toolTokens: z.number(), tools: z.number() }),
  overall: z.object(figures),
  scenarios: z.array(z.object({ name: z.string(), ...figures, firstRequest: z.object({ processed: z.number(), cause: z.string() }) })).min(1),
  relevanceCheck: z.object({
    calls: z.object(checkCalls),
    baselineCalls: z.object(checkCalls),
    labelledSet: z.object({ queries: z.number(), results: z.number(), irrelevant: z.number(), check: z.record(z.string(), z.number()) }),
  }),
  skipped: z.array(z.object({ scenario: z.string(), reason: z.string() })),
});

describe('bench model-work --quick', () => {
  it('runs its scenarios through the app and prints prompt tokens, tokens processed by a one-slot cache and the largest re-processing', async () => {
    const report = reportSchema.parse(await runQuick(main));
    expect(report.overall.requests).toBe(report.scenarios.reduce((total, scenario) => total + scenario.requests, 0));
    expect(report.overall.processedTokens).toBeLessThanOrEqual(report.overall.promptTokens);
  }, 120_000);
});
