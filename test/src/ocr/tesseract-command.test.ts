import { writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { recognitionArguments, runTesseract } from '../../../src/ocr/tesseract-command.js';
import { renderTextImage } from '../../support/text-images.js';
import { scriptFolder } from './tesseract-scripts.js';
import { tesseractProgram, systemProgramPresent } from '../../support/system-programs.js';

const scripts = scriptFolder();
afterAll(() => scripts.remove());

describe('runTesseract', () => {
  it.skipIf(!systemProgramPresent(tesseractProgram))('reads a PNG from stdin with the real tesseract', async () => {
    const png = await renderTextImage({ text: 'Total 690.00' });
    const outcome = await runTesseract({ args: recognitionArguments('eng'), stdin: png, timeoutMs: 30_000 });
    expect(outcome.code).toBe('ok');
    if (outcome.code === 'ok') expect(outcome.stdout).toContain('690.00');
  });

  it('limits OpenMP to one thread', async () => {
    const printing = scripts.plainScript('print-env', 'echo "$OMP_THREAD_LIMIT"');
    expect(await runTesseract({ executable: printing, args: [], timeoutMs: 10_000 })).toMatchObject({ code: 'ok', stdout: '1\n' });
  });

  it('stops a process whose output runs past the bound', async () => {
    const endless = scripts.plainScript('endless', 'exec yes');
    const outcome = await runTesseract({ executable: endless, args: [], timeoutMs: 30_000, maxStdoutBytes: 10_000 });
    expect(outcome).toEqual({ code: 'failed', detail: 'output over 10000 bytes' });
  });

  it('keeps only the end of a long stderr out of a failure detail', async () => {
    const noisy = scripts.plainScript('noisy', 'i=0; while [ $i -lt 2000 ]; do echo "warning $i" >&2; i=$((i+1)); done; exit 3');
    const outcome = await runTesseract({ executable: noisy, args: [], timeoutMs: 30_000 });
    expect(outcome.code).toBe('failed');
    expect(outcome).toEqual({ code: 'failed', detail: 'tesseract exit code 3: warning 1999' });
  });

  it('is unavailable for a missing or non-executable file', async () => {
    const missing = `${scripts.folder}/missing`;
    expect(await runTesseract({ executable: missing, args: [], timeoutMs: 10_000 })).toEqual({
      code: 'unavailable',
      detail: `tesseract is not installed (no ${missing})`,
    });
    const plain = `${scripts.folder}/not-executable`;
    writeFileSync(plain, 'text');
    expect((await runTesseract({ executable: plain, args: [], timeoutMs: 10_000 })).code).toBe('unavailable');
  });

  it('answers failed when the executable cannot even be passed to spawn', async () => {
    expect((await runTesseract({ executable: 'tess\0eract', args: [], timeoutMs: 10_000 })).code).toBe('failed');
  });
});
