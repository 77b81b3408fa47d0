import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { main } from '../../bench/retrieval.js';
import { runQuick } from './run-quick.js';

const quality = z.object({ recallAt5: z.number() });
const reportSchema = z.object({
  quick: z.literal(true),
  documents: z.number(),
  questions: z.number(),
  store: quality,
  baselines: z.object({ whitespace: quality, trigram: quality, segmentedPlain: quality, storeWithoutTrigrams: quality }),
  scale: z.object({ chunks: z.number() }),
});

describe('bench retrieval --quick', () => {
  it('prints its JSON: the store, its baselines and a small scale run', async () => {
    const report = reportSchema.parse(await runQuick(main));
    expect(report.documents).toBe(20);
    expect(report.scale.chunks).toBeGreaterThanOrEqual(2000);
  }, 120_000);
});
