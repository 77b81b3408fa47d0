import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { main } from '../../bench/platform.js';
import { runQuick } from './run-quick.js';

const reportSchema = z.object({
  bench: z.literal('platform'),
  quick: z.literal(true),
  latency: z.object({ messages: z.number(), platforms: z.array(z.string()) }).passthrough(),
  concurrency: z.object({ messages: z.number(), cliBaseline: z.unknown() }).passthrough(),
  met: z.boolean(),
});

describe('bench platform --quick', () => {
  it('prints its JSON: every platform path against the CLI path, and a small concurrent load', async () => {
    const report = reportSchema.parse(await runQuick(main));
    expect(report.latency.platforms.length).toBeGreaterThan(0);
  }, 180_000);
});
