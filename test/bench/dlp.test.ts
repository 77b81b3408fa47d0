import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { main } from '../../bench/dlp.js';
import { runQuick } from './run-quick.js';

const reportSchema = z
  .object({
    bench: z.literal('dlp'),
    timing: z.object({ worstCase960KB: z.object({ characters: z.number(), maxMs: z.number() }).passthrough() }).passthrough(),
    external: z.object({ overall: z.number(), falseBlocks: z.string(), baseline: z.object({ overall: z.number() }).passthrough() }).passthrough(),
  })
  .passthrough();

describe('bench dlp --quick', () => {
  it('prints its JSON: recall per kind, false blocks, the time per scan and the held-out corpus figures', async () => {
    const report = reportSchema.parse(await runQuick(main));
    expect(Object.keys(report).length).toBeGreaterThan(1);
  }, 120_000);
});
