import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { main } from '../../bench/scale.js';
import { runQuick } from './run-quick.js';
import { postgresProgram, redisServerProgram, systemProgramPresent } from '../support/system-programs.js';

const reportSchema = z.object({
  bench: z.literal('scale'),
  quick: z.literal(true),
  passes: z.object({ twoProcesses: z.object({ processes: z.literal(2), messages: z.number(), redisCommandsPerMessage: z.number() }) }),
  redisRoundTripsPerMessage: z.number(),
  retrieval: z.object({ quick: z.literal(true) }).passthrough(),
});

describe.skipIf(!systemProgramPresent(postgresProgram) || !systemProgramPresent(redisServerProgram))(
  'bench scale --quick (needs PostgreSQL and redis-server)',
  () => {
    it('runs two bot processes on one Redis and one PostgreSQL and prints its JSON', async () => {
      const report = reportSchema.parse(await runQuick(main));
      expect(report.passes.twoProcesses.messages).toBeGreaterThan(0);
    }, 300_000);
  },
);
