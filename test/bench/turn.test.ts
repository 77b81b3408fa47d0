import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { main } from '../../bench/turn.js';
import { runQuick } from './run-quick.js';

const percentiles = z.object({ p50: z.number(), p99: z.number() });
const reportSchema = z.object({
  bench: z.literal('turn'),
  quick: z.literal(true),
  turns: z.number(),
  overheadMs: percentiles,
  turnMs: percentiles,
  baselineSdkOnlyTurnMs: percentiles,
  peakRssMb: z.number(),
  prefixReuse: z.object({ mean: z.number(), min: z.number(), calls: z.number(), baselineOnePairAtATime: z.number() }),
});

describe('bench turn --quick', () => {
  it('runs every turn with its one tool call (in a child with the shipped V8 flags) and prints overhead and prefix reuse', async () => {
    const report = reportSchema.parse(await runQuick(main));
    // Each turn after a conversation's first makes two model calls compared with the one before.
    expect(report.prefixReuse.calls).toBeGreaterThan(report.turns);
  }, 120_000);
});
