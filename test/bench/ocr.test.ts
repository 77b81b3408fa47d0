import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { main } from '../../bench/ocr.js';
import { runQuick } from './run-quick.js';

// Only that `bench ocr --quick` completes and prints its JSON: its figures are the OCR work's own to define.
const reportSchema = z.looseObject({ bench: z.literal('ocr') });

describe('bench ocr --quick', () => {
  it('completes and prints its JSON', async () => {
    const report = reportSchema.parse(await runQuick(main));
    expect(report.bench).toBe('ocr');
  }, 300_000);
});
