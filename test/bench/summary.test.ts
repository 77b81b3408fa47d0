import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { main } from '../../bench/summary.js';
import { runQuick } from './run-quick.js';

const spread = z.object({ min: z.number(), mean: z.number(), max: z.number() });
const reportSchema = z.object({
  bench: z.literal('summary'),
  quick: z.literal(true),
  log: z.object({ messages: z.number(), topics: z.number() }),
  summary: z.object({ outcome: z.literal('summary'), calls: z.number(), mapCalls: z.number(), reduceCalls: z.number() }),
  promptTokens: z.object({ context: z.number(), realWithOutputBoundMax: z.number(), allFit: z.boolean(), estimateOverReal: spread }),
  outputTokens: z.object({ chunkBound: z.number(), finalBound: z.number(), maxSeen: z.number() }),
  topicsInSummary: z.object({ inLog: z.number(), inSummary: z.number(), share: z.number() }),
  baseline: z.object({ promptTokens: z.number(), context: z.number(), fits: z.boolean() }),
});

describe('bench summary --quick', () => {
  it('prints its JSON: calls, prompt tokens by the real tokenizer against the context, topics reached, the one-prompt baseline', async () => {
    const report = reportSchema.parse(await runQuick(main));
    expect(report.log.messages).toBe(300);
    expect(report.summary.calls).toBe(report.summary.mapCalls + report.summary.reduceCalls);
    expect(report.promptTokens.allFit).toBe(true);
    expect(report.promptTokens.estimateOverReal.min).toBeGreaterThanOrEqual(1);
    expect(report.outputTokens.maxSeen).toBeLessThanOrEqual(report.outputTokens.finalBound);
    expect(report.topicsInSummary.inSummary).toBeGreaterThan(0);
  }, 60_000);
});
