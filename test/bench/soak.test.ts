import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { main } from '../../bench/soak.js';
import { runQuick } from './run-quick.js';

const reportSchema = z.object({
  bench: z.literal('soak'),
  quick: z.literal(true),
  answered: z.number(),
  lost: z.number(),
  duplicated: z.number(),
  rss: z.object({ peakMb: z.number() }).passthrough(),
  samples: z.number(),
});

describe('bench soak --quick', () => {
  it('runs the real bot for a few seconds of load and prints its JSON', async () => {
    const report = reportSchema.parse(await runQuick(main));
    expect(report.answered).toBeGreaterThan(0);
  }, 120_000);
});
