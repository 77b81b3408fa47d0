import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { main } from '../../bench/dlp.js';
import { runQuick } from './run-quick.js';

const reportSchema = z.object({ bench: z.literal('dlp') }).passthrough();

describe('bench dlp --quick', () => {
  it('prints its JSON: recall per kind, false blocks and the time per scan', async () => {
    const report = reportSchema.parse(await runQuick(main));
    expect(Object.keys(report).length).toBeGreaterThan(1);
  }, 120_000);
});
