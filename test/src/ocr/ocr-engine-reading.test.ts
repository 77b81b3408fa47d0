import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { imageForOcr } from '../../../src/images/image-for-ocr.js';
import { characterErrorRate } from '../../../src/ocr/character-error-rate.js';
import { createEmbeddedTesseract } from '../../../src/ocr/embedded-tesseract.js';
import { createOcrEngine, type PreparedImage } from '../../../src/ocr/ocr-engine.js';
import { silentLogger } from '../../../src/shared/log.js';
import { memoryLog } from '../../support/memory-log.js';
import { renderTextImage, thaiReceiptText } from '../../support/text-images.js';
import { scriptFolder, shellQuote } from './tesseract-scripts.js';
import { tesseractProgram, systemProgramPresent } from '../../support/system-programs.js';

// The real OCR reading images drawn from known text with the committed Thai fonts: the tesseract program (tha +
// eng data) where it is installed, else tesseract.js from npm, as the bot chooses.

const asIs = async (bytes: Uint8Array): Promise<PreparedImage> => ({ ok: true, png: bytes });
const scripts = scriptFolder();
afterAll(() => scripts.remove());

function engine(overrides: Partial<Parameters<typeof createOcrEngine>[0]> = {}): ReturnType<typeof createOcrEngine> {
  const embedded = createEmbeddedTesseract({ languages: 'tha+eng' });
  return createOcrEngine({ languages: 'tha+eng', timeoutMs: 60_000, concurrency: 2, embedded, prepare: asIs, log: silentLogger(), ...overrides });
}

describe('OCR engine reading real images', () => {
  it('reads a Thai receipt with its total', async () => {
    const result = await engine().read(await renderTextImage({ text: thaiReceiptText }));
    if (!result.ok) throw new Error(`OCR failed: ${JSON.stringify(result.failure)}`);
    expect(characterErrorRate(thaiReceiptText, result.text)).toBeLessThanOrEqual(0.05);
    expect(result.text).toContain('190.00');
    expect(result.cached).toBe(false);
  });

  it('reads the receipt through the OCR pre-processing of src/images', async () => {
    const reader = engine({ prepare: (bytes) => imageForOcr(bytes, { maxPixels: 40_000_000 }) });
    const result = await reader.read(await renderTextImage({ text: thaiReceiptText, font: 'Sarabun' }));
    if (!result.ok) throw new Error(`OCR failed: ${JSON.stringify(result.failure)}`);
    expect(characterErrorRate(thaiReceiptText, result.text)).toBeLessThanOrEqual(0.05);
    expect(result.text).toContain('190.00');
  });

  it('keeps a price on the line of its item', async () => {
    const receipt = ['ลาเต้เย็น' + ' '.repeat(40) + '130.00', 'รวมทั้งสิ้น' + ' '.repeat(40) + '190.00'].join('\n');
    const result = await engine().read(await renderTextImage({ text: receipt }));
    if (!result.ok) throw new Error(`OCR failed: ${JSON.stringify(result.failure)}`);
    expect(result.text).toMatch(/ทั้งสิ้น\s+190\.00/u);
  });

  it('reads English text', async () => {
    const text = ['Invoice 4471', 'Coffee beans 2 kg 640.00', 'Total 690.00 THB'].join('\n');
    const result = await engine().read(await renderTextImage({ text }));
    if (!result.ok) throw new Error(`OCR failed: ${JSON.stringify(result.failure)}`);
    expect(characterErrorRate(text, result.text)).toBeLessThanOrEqual(0.02);
  });

  it('composes sara am', async () => {
    const result = await engine().read(await renderTextImage({ text: 'สำนักงาน น้ำ ทำ' }));
    if (!result.ok) throw new Error(`OCR failed: ${JSON.stringify(result.failure)}`);
    expect(result.text).toContain('\u0E33');
    expect(result.text).toContain('สำนักงาน');
    expect(result.text).not.toMatch(/\u0E4D[\u0E48-\u0E4B]?\u0E32/u);
  });

  it.skipIf(!systemProgramPresent(tesseractProgram))('answers a second read of the same image from the cache without a second process', async () => {
    const countFile = `${scripts.folder}/recognitions`;
    const counting = scripts.script('counting', `echo x >> ${shellQuote(countFile)}\nexec tesseract "$@"`);
    const reader = engine({ executable: counting });
    const image = await renderTextImage({ text: 'ทดสอบ 123' });
    const first = await reader.read(image);
    const second = await reader.read(new Uint8Array(image));
    expect(first.ok && !first.cached).toBe(true);
    expect(second).toEqual({ ok: true, text: first.ok ? first.text : '', ms: 0, cached: true });
    expect(readFileSync(countFile, 'utf8').split('\n').filter(Boolean)).toHaveLength(1);
  });

  it('logs duration, bytes, languages and outcome, never the text', async () => {
    const { log, records, lines } = memoryLog();
    const image = await renderTextImage({ text: thaiReceiptText });
    await engine({ log }).read(image);
    const record = records.find((entry) => entry.msg === 'ocr');
    expect(record).toMatchObject({ outcome: 'read', bytes: image.length, languages: 'tha+eng' });
    expect(typeof record?.ms).toBe('number');
    expect(lines.join('\n')).not.toMatch(/190\.00|ร้าน|กาแฟ/u);
  });
});
