import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { main } from '../../bench/guards.js';
import { runQuick } from './run-quick.js';

const timing = z.object({ p99Ms: z.number() });
const reportSchema = z.object({
  bench: z.literal('guards'),
  pipeline: z.object({ answer4KB: timing, answer100KB: timing.extend({ events: z.array(z.string()) }) }),
  streamMonitor100KB: z.object({ monitor: z.unknown() }),
  adversarial: z.unknown(),
  neverStops: z.object({ tenThousandUrls: z.unknown(), prose200k: z.unknown() }),
});

describe('bench guards --quick', () => {
  it('prints its JSON: the answer pipeline, the stream monitor, adversarial inputs', async () => {
    const report = reportSchema.parse(await runQuick(main));
    expect(report.bench).toBe('guards');
  }, 120_000);
});
