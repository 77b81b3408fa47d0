import { readFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { createOcrEngine, type OcrEngineOptions, type PreparedImage } from '../../../src/ocr/ocr-engine.js';
import { silentLogger } from '../../../src/shared/log.js';
import { renderTextImage } from '../../support/text-images.js';
import { makeFifo, processExists, scriptFolder, shellQuote } from './tesseract-scripts.js';
import { systemProgramPresent, tesseractProgram } from '../../support/system-programs.js';

// What the engine answers when tesseract cannot do its work: every failure is a result, and the engine keeps working.

const asIs = async (bytes: Uint8Array): Promise<PreparedImage> => ({ ok: true, png: bytes });
const scripts = scriptFolder();
afterAll(() => scripts.remove());

function engine(overrides: Partial<OcrEngineOptions> = {}): ReturnType<typeof createOcrEngine> {
  return createOcrEngine({ languages: 'tha+eng', timeoutMs: 30_000, concurrency: 2, prepare: asIs, log: silentLogger(), ...overrides });
}

function lines(file: string): string[] {
  return readFileSync(file, 'utf8').split('\n').filter(Boolean);
}

describe.skipIf(!systemProgramPresent(tesseractProgram))('OCR engine failures', () => {
  it('kills a recognition that runs past the time-out, and reads the next image', async () => {
    const marker = `${scripts.folder}/slept-once`;
    const pidFile = `${scripts.folder}/sleeper-pid`;
    // The first recognition sleeps (as a stuck tesseract would); later ones are the real tesseract.
    const sleepy = scripts.script(
      'sleepy',
      `if [ ! -e ${shellQuote(marker)} ]; then : > ${shellQuote(marker)}; echo $$ > ${shellQuote(pidFile)}; exec sleep 30; fi\nexec tesseract "$@"`,
    );
    const reader = engine({ executable: sleepy, timeoutMs: 5_000 });
    const image = await renderTextImage({ text: 'รวม 190.00 บาท' });
    expect(await reader.read(image)).toEqual({ ok: false, failure: { code: 'timeout', timeoutMs: 5_000 } });
    expect(processExists(Number(readFileSync(pidFile, 'utf8')))).toBe(false);
    // The time-out is long enough for the real tesseract on a one-line image on a busy machine.
    const again = await reader.read(image);
    if (!again.ok) throw new Error(`second read failed: ${JSON.stringify(again.failure)}`);
    expect(again.text).toContain('190.00');
  });

  it('kills the process when the signal aborts', async () => {
    const started = makeFifo(`${scripts.folder}/started`);
    const pidFile = `${scripts.folder}/cancelled-pid`;
    const blocking = scripts.script('announce-and-sleep', `echo $$ > ${shellQuote(pidFile)}\necho started > ${shellQuote(started)}\nexec sleep 30`);
    const controller = new AbortController();
    const reading = engine({ executable: blocking }).read(await renderTextImage({ text: 'ยกเลิก' }), controller.signal);
    // Resolves once the script has written its line and closed the pipe, i.e. the process is running.
    expect(await readFile(started, 'utf8')).toBe('started\n');
    controller.abort();
    expect(await reading).toEqual({ ok: false, failure: { code: 'cancelled' } });
    expect(processExists(Number(readFileSync(pidFile, 'utf8')))).toBe(false);
  });

  it('answers cancelled at once for an aborted signal', async () => {
    expect(await engine().read(new Uint8Array([1]), AbortSignal.abort())).toEqual({ ok: false, failure: { code: 'cancelled' } });
  });

  it('is unavailable when tesseract is not installed, with a plain detail', async () => {
    const reader = engine({ executable: `${scripts.folder}/no-such-tesseract` });
    const status = await reader.status();
    expect(status.available).toBe(false);
    if (!status.available) expect(status.detail).toMatch(/^tesseract is not installed/);
    const result = await reader.read(new Uint8Array([1, 2, 3]));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.failure).toEqual({ code: 'unavailable', detail: status.available ? '' : status.detail });
  });

  it('is unavailable when a language is missing, and starts no recognition', async () => {
    const countFile = `${scripts.folder}/missing-language-recognitions`;
    writeFileSync(countFile, '');
    const counting = scripts.script('counting-missing-language', `echo x >> ${shellQuote(countFile)}\nexec tesseract "$@"`);
    const reader = engine({ languages: 'tha+xyz', executable: counting });
    const status = await reader.status();
    expect(status.available).toBe(false);
    if (!status.available) expect(status.detail).toContain('xyz');
    const result = await reader.read(await renderTextImage({ text: 'ทดสอบ' }));
    expect(!result.ok && result.failure.code).toBe('unavailable');
    expect(lines(countFile)).toHaveLength(0);
  });

  it('hands back the refusal of prepare, and a throwing prepare as failed', async () => {
    const refusing = engine({ prepare: async () => ({ ok: false, refusal: { code: 'not-an-image' } }) });
    expect(await refusing.read(new Uint8Array([1]))).toEqual({ ok: false, failure: { code: 'refused', refusal: { code: 'not-an-image' } } });
    const throwing = engine({ prepare: () => Promise.reject(new Error('decoder crashed')) });
    expect(await throwing.read(new Uint8Array([1]))).toEqual({ ok: false, failure: { code: 'failed', detail: 'decoder crashed' } });
  });

  it('reports a tesseract that exits with an error as failed, with its error line', async () => {
    const broken = scripts.script('broken', 'echo "Error in pixReadMem: Unknown format: no pix returned" >&2\nexit 1');
    const result = await engine({ executable: broken }).read(new Uint8Array([1, 2, 3]));
    expect(result).toEqual({ ok: false, failure: { code: 'failed', detail: 'tesseract exit code 1: Error in pixReadMem: Unknown format: no pix returned' } });
  });

  it('does not cache a failure', async () => {
    const marker = `${scripts.folder}/failed-once`;
    const flaky = scripts.script('flaky', `if [ ! -e ${shellQuote(marker)} ]; then : > ${shellQuote(marker)}; exit 1; fi\nexec tesseract "$@"`);
    const reader = engine({ executable: flaky });
    const image = await renderTextImage({ text: 'ทดสอบ 42' });
    expect((await reader.read(image)).ok).toBe(false);
    const second = await reader.read(image);
    expect(second.ok && !second.cached && second.text.includes('42')).toBe(true);
  });
});
