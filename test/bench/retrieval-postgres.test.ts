import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { main } from '../../bench/retrieval-postgres.js';
import { runQuick } from './run-quick.js';
import { postgresProgram, systemProgramPresent } from '../support/system-programs.js';

const quality = z.object({ recallAt5: z.number(), chunks: z.number() });
const reportSchema = z.object({
  quick: z.literal(true),
  documents: z.number(),
  quality: z.object({ sqlite: quality, postgres: quality }),
  scale: z.object({ sqlite: z.object({ chunks: z.number() }), postgres: z.object({ chunks: z.number() }) }),
});

describe.skipIf(!systemProgramPresent(postgresProgram))('bench retrieval-postgres --quick (needs PostgreSQL)', () => {
  it('prints its JSON: both stores on the same documents, and a small scale run on each', async () => {
    const report = reportSchema.parse(await runQuick(main));
    expect(report.quality.postgres.chunks).toBe(report.quality.sqlite.chunks);
  }, 180_000);
});
