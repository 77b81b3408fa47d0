import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostileDocx, hostileVariedDocx } from '../../support/hostile-documents.js';
import { blackPng, iccpBomb, itxtBomb, manyFrameGif, manyFrameWebp, ztxtBomb } from '../../support/hostile-images.js';
import { runHostileInput } from '../../support/hostile-input-run.js';

// Each shaped file a user can send goes through the real router and image pipelines (the vision copy and the OCR
// pre-processing) in a process of its own with the bot's 256 MB heap: the process's peak RSS (VmHWM) stays under
// the budget and the user is told why in Thai. A hostile DOCX through /kb add is refused and the process lives.

const budgetMb = 600;
let directory: string;

beforeAll(() => {
  directory = mkdtempSync(path.join(os.tmpdir(), 'saeng-hostile-'));
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));

function file(name: string, bytes: Uint8Array): string {
  const target = path.join(directory, name);
  writeFileSync(target, bytes);
  return target;
}

const small = { width: 64, height: 64, bitDepth: 8, colour: 'rgb' } as const;
/** Frames are counted against MAX_IMAGE_PIXELS × 4 bytes: with 2 MP that is 8 MB, so small files make the point. */
const fewPixels = { MAX_IMAGE_PIXELS: '2000000' };
const images: [string, string, () => Promise<Uint8Array> | Uint8Array, RegExp, Record<string, string>?][] = [
  // The file: 381 KB, 4.8 GB before.
  ['49,000,000 × 1 px, 16-bit RGBA', 'strip.png', () => blackPng({ width: 49_000_000, height: 1, bitDepth: 16, colour: 'rgba' }), /รูปยาวหรือกว้างผิดปกติ/u],
  [
    '1 × 20,000,000 px (extreme aspect the other way)',
    'tall.png',
    () => blackPng({ width: 1, height: 20_000_000, bitDepth: 8, colour: 'grey' }),
    /รูปยาวหรือกว้างผิดปกติ/u,
  ],
  [
    '7,000 × 7,000 16-bit RGBA (392 MB decoded)',
    'bomb.png',
    () => blackPng({ width: 7000, height: 7000, bitDepth: 16, colour: 'rgba' }),
    /หน่วยความจำมากเกินไป/u,
  ],
  ['an animated WebP of 60 frames of 400 × 400 (28.8 MB decoded)', 'frames.webp', () => manyFrameWebp(400, 400, 60), /หน่วยความจำมากเกินไป/u, fewPixels],
  ['an animated GIF of 60 frames of 400 × 400 (38.4 MB decoded)', 'frames.gif', () => manyFrameGif(400, 400, 60), /หน่วยความจำมากเกินไป/u, fewPixels],
  ['an ICC profile that inflates to 400 MB', 'icc.png', () => blackPng({ ...small, extra: [iccpBomb(400_000_000)] }), /ข้อมูลแฝงในไฟล์รูป/u],
  [
    'zTXt and iTXt that inflate to 400 MB each',
    'text.png',
    () => blackPng({ ...small, extra: [ztxtBomb(400_000_000), itxtBomb(400_000_000)] }),
    /ข้อมูลแฝงในไฟล์รูป/u,
  ],
];

describe('a shaped image through the real router and image pipelines', () => {
  it.each(images)(
    '%s: refused with the Thai notice, peak RSS under the budget',
    async (_label, name, make, reason, environment) => {
      const run = await runHostileInput('image', file(name, await make()), environment);
      expect(run).toMatchObject({ ok: true });
      if (!run.ok) return;
      expect(run.report.replies[0]).toMatch(new RegExp(`^ใช้รูป "${name.replace('.', '\\.')}" ไม่ได้: .*${reason.source}.* จะตอบจากข้อความอย่างเดียว$`, 'u'));
      expect(run.report.vision).not.toBe('ok');
      expect(run.report.ocr).not.toBe('ok');
      expect(run.report.peakMb).toBeLessThan(budgetMb);
    },
    120_000,
  );
});

describe('a hostile DOCX through /kb add', () => {
  it.each([
    ['a 216 KB DOCX of 3,000,000 runs (the ZIP directory gives it away)', 'runs.docx', () => hostileDocx(3_000_000)],
    ['a 3 MB DOCX of 1,500,000 varied runs (only the worker heap stops it)', 'varied.docx', () => hostileVariedDocx(1_500_000)],
  ])(
    '%s: refused in Thai, the process lives',
    async (_label, name, make) => {
      const run = await runHostileInput('kb', file(name, make()));
      expect(run).toMatchObject({ ok: true });
      if (!run.ok) return;
      expect(run.report.replies.at(-1)).toContain('ไฟล์ DOCX นี้มีโครงสร้างซับซ้อนหรือขยายตัวมากเกินกว่าจะอ่านได้อย่างปลอดภัย');
      expect(run.report.peakMb).toBeLessThan(budgetMb);
    },
    180_000,
  );
});
