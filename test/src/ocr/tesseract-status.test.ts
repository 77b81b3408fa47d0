import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { checkTesseract, createTesseractStatus, requestedLanguages } from '../../../src/ocr/tesseract-status.js';
import { scriptFolder, shellQuote } from './tesseract-scripts.js';
import { tesseractProgram, systemProgramPresent } from '../../support/system-programs.js';

// Against the real tesseract of this machine (tesseract-ocr with tha and eng data, as CI installs it).

const scripts = scriptFolder();
const noTesseract = !systemProgramPresent(tesseractProgram);
afterAll(() => scripts.remove());

describe('tesseract status', () => {
  it.skipIf(noTesseract)('reports the version and the languages asked for', async () => {
    const status = await checkTesseract({ languages: 'tha+eng' });
    expect(status).toEqual({ available: true, engine: 'tesseract', version: expect.stringMatching(/^\d+\.\d+/) as unknown, languages: 'tha+eng' });
  });

  it('says plainly when tesseract is not installed', async () => {
    const status = await checkTesseract({ languages: 'tha', executable: '/nonexistent/saeng/tesseract' });
    expect(status.available).toBe(false);
    if (!status.available) expect(status.detail).toMatch(/^tesseract is not installed/);
  });

  it.skipIf(noTesseract)('names the missing language and its package', async () => {
    const status = await checkTesseract({ languages: 'tha+xyz' });
    expect(status).toEqual({
      available: false,
      reason: 'missing-languages',
      detail: 'language data missing: xyz (apt-get install tesseract-ocr-xyz)',
      missingLanguages: ['xyz'],
    });
  });

  it.skipIf(noTesseract)('checks once, remembers, and checks again on recheck', async () => {
    const countFile = `${scripts.folder}/status-count`;
    const counting = scripts.plainScript('counting-all', `echo x >> ${shellQuote(countFile)}\nexec tesseract "$@"`);
    const status = createTesseractStatus({ languages: 'tha', executable: counting });
    const first = await status.current();
    const second = await status.current();
    expect(second).toBe(first);
    expect(readFileSync(countFile, 'utf8').split('\n').filter(Boolean)).toHaveLength(2);
    expect((await status.recheck()).available).toBe(true);
    expect(readFileSync(countFile, 'utf8').split('\n').filter(Boolean)).toHaveLength(4);
  });

  it('splits the language string', () => {
    expect(requestedLanguages('tha+eng')).toEqual(['tha', 'eng']);
    expect(requestedLanguages(' tha ++tha+ ')).toEqual(['tha']);
    expect(requestedLanguages('')).toEqual([]);
  });
});
