import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { main } from '../../bench/hardening.js';

// `npm run bench -- hardening --quick` runs once here: the JSON has its shape and every process lived. No timing
// is asserted (the hardening e2e test holds the RSS budget).

afterEach(() => vi.restoreAllMocks());

const inputSchema = z.object({ name: z.string(), bytes: z.number(), alive: z.literal(true), peakMb: z.number(), ms: z.number(), told: z.string() });
const benchSchema = z.object({
  bench: z.literal('hardening'),
  quick: z.literal(true),
  budgetMb: z.number(),
  inputs: z.array(inputSchema).min(4),
  documentWorker: z.object({ medianMs: z.number() }),
});

describe('bench hardening --quick', () => {
  it('prints one JSON document: every input, its peak RSS and what the user was told', async () => {
    let written = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written += chunk.toString();
      return true;
    });
    await main(['--quick']);
    const result = benchSchema.parse(JSON.parse(written));
    expect(result.inputs.find((input) => input.name.startsWith('PNG 49,000,000'))?.told).toContain('รูปยาวหรือกว้างผิดปกติ');
  }, 300_000);
});
