import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { main } from '../../bench/search.js';
import { runQuick } from './run-quick.js';

const reportSchema = z.object({
  bench: z.literal('search'),
  quick: z.literal(true),
  scenarios: z.array(z.object({ name: z.string(), sameAsBaseline: z.boolean() })).min(1),
  fixtures: z.array(z.object({ fixture: z.string(), wrongKeeps: z.number(), wrongDrops: z.number() })).min(1),
});

describe('bench search --quick', () => {
  it('prints its JSON: every scenario against its baseline, every fixture', async () => {
    const report = reportSchema.parse(await runQuick(main));
    expect(report.scenarios.every((scenario) => scenario.sameAsBaseline)).toBe(true);
  });
});
