import { describe, expect, it } from 'vitest';
import { characterErrorRate } from '../../../src/ocr/character-error-rate.js';
import { createEmbeddedTesseract } from '../../../src/ocr/embedded-tesseract.js';
import { createOcrEngine, type PreparedImage } from '../../../src/ocr/ocr-engine.js';
import { silentLogger } from '../../../src/shared/log.js';
import { renderTextImage, thaiReceiptText } from '../../support/text-images.js';

// tesseract.js with the tha and eng data from npm: the OCR of a machine without the tesseract program. Nothing
// here needs a system program, so it runs everywhere.

const asIs = async (bytes: Uint8Array): Promise<PreparedImage> => ({ ok: true, png: bytes });

describe('embedded tesseract (tesseract.js)', () => {
  it('is available with the tha and eng data packages, and names the npm package of a missing language', async () => {
    expect(await createEmbeddedTesseract({ languages: 'tha+eng' }).status()).toEqual({
      available: true,
      engine: 'tesseract.js',
      version: expect.stringMatching(/^\d+\.\d+/) as unknown,
      languages: 'tha+eng',
    });
    expect(await createEmbeddedTesseract({ languages: 'tha+xyz' }).status()).toMatchObject({
      available: false,
      reason: 'missing-languages',
      detail: expect.stringContaining('npm install @tesseract.js-data/xyz') as unknown,
      missingLanguages: ['xyz'],
    });
  });

  it('reads a Thai receipt with its total, offline', async () => {
    const outcome = await createEmbeddedTesseract({ languages: 'tha+eng' }).recognize(await renderTextImage({ text: thaiReceiptText }), 60_000);
    if (outcome.code !== 'ok') throw new Error(JSON.stringify(outcome));
    expect(outcome.stdout).toContain('190.00');
    expect(characterErrorRate(thaiReceiptText, outcome.stdout.trim())).toBeLessThanOrEqual(0.05);
  });

  it('answers a broken image, a time-out and a cancel as values', async () => {
    const embedded = createEmbeddedTesseract({ languages: 'tha+eng' });
    expect(await embedded.recognize(new Uint8Array([1, 2, 3]), 60_000)).toMatchObject({ code: 'failed' });
    const image = await renderTextImage({ text: 'ทดสอบ' });
    expect(await embedded.recognize(image, 1)).toEqual({ code: 'timeout', timeoutMs: 1 });
    const controller = new AbortController();
    const reading = embedded.recognize(image, 60_000, controller.signal);
    controller.abort();
    expect(await reading).toEqual({ code: 'cancelled' });
  });

  it('reads for the OCR engine when the tesseract program is missing, and /status names it', async () => {
    const languages = 'tha+eng';
    const engine = createOcrEngine({
      languages,
      timeoutMs: 60_000,
      concurrency: 2,
      executable: '/nonexistent/tesseract',
      embedded: createEmbeddedTesseract({ languages }),
      prepare: asIs,
      log: silentLogger(),
    });
    expect(await engine.status()).toMatchObject({ available: true, engine: 'tesseract.js' });
    const result = await engine.read(await renderTextImage({ text: 'รวมทั้งสิ้น 190.00 บาท' }));
    expect(result.ok && result.text).toContain('190.00');
  });
});
