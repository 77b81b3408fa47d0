import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { main } from '../../bench/log.js';
import { runQuick } from './run-quick.js';

const reportSchema = z.object({
  bench: z.literal('log'),
  quick: z.literal(true),
  results: z.array(z.object({ name: z.string(), changed: z.boolean() })).length(7),
});

describe('bench log --quick', () => {
  it('prints its JSON: each line kind, and the lines with a credential changed by the redactor', async () => {
    const report = reportSchema.parse(await runQuick(main));
    expect(report.results.filter((result) => result.changed).map((result) => result.name)).toEqual(
      expect.arrayContaining(['4 KB one credential', '100 KB one credential']),
    );
  });
});
