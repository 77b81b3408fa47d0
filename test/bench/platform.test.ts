import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { main } from '../../bench/platform.js';
import { runQuick } from './run-quick.js';

const moment = z.object({ ms: z.number(), boxMs: z.number() }).nullable();
const shown = z.object({ what: z.string(), ms: z.number(), boxMs: z.number() }).nullable();
const turn = z.object({
  firstSignOfLife: shown,
  firstStatus: shown,
  modelFirstAnswerToken: moment,
  firstVisible: shown,
  final: shown,
  firstVisibleAfterFirstToken: moment,
  answerUpdates: z.number(),
  refusedUpdates: z.number(),
  modelCalls: z.array(z.object({ promptTokens: z.number(), processedTokens: z.number(), generatedTokens: z.number() }).passthrough()),
});

const reportSchema = z.object({
  bench: z.literal('platform'),
  quick: z.literal(true),
  latency: z.object({ messages: z.number(), platforms: z.array(z.string()) }).passthrough(),
  concurrency: z.object({ messages: z.number(), cliBaseline: z.unknown() }).passthrough(),
  firstText: z.object({
    model: z
      .object({ promptTokensPerSecond: z.number(), generationTokensPerSecond: z.number(), timeScale: z.number(), answerTokens: z.number() })
      .passthrough(),
    paths: z.record(
      z.string(),
      z.object({ streamingOff: turn, streamingOn: turn, finalTextIdentical: z.boolean(), answerKept: z.boolean(), met: z.boolean().nullable() }),
    ),
    met: z.boolean().nullable(),
  }),
  met: z.boolean(),
});

describe('bench platform --quick', () => {
  it('prints its JSON: every platform path against the CLI path, a small concurrent load, and time to the first visible text', async () => {
    const report = reportSchema.parse(await runQuick(main));
    expect(report.latency.platforms.length).toBeGreaterThan(0);
    expect(Object.keys(report.firstText.paths)).toEqual(['telegramPrivate', 'telegramGroup', 'discord', 'line', 'console']);
  }, 240_000);
});
