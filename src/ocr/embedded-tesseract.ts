import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { OcrStatus } from '../shared/image-reading.js';
import type { OcrBackend } from './ocr-backend.js';
import { runTesseract } from './tesseract-command.js';
import { requestedLanguages } from './tesseract-status.js';

// Tesseract built to WebAssembly (tesseract.js) with its language data from npm (@tesseract.js-data/<lang>): the
// OCR of a machine where the tesseract program is not installed. Nothing is fetched: the worker script, the core
// and the traineddata all come from node_modules. Each image is read by a Node child process of its own, like the
// tesseract program: its WASM memory goes with it, and a time-out or cancel kills it (SIGKILL) mid-read.

const require = createRequire(import.meta.url);

/** The LSTM-only data ("best" models, integer-quantized): the default 4.0.0 folder holds the legacy model too,
 * which is larger and, with `--oem 1`, unused. */
const dataFolder = '4.0.0_best_int';

/** The child's own heap; the image and its text are small, the WASM memory is outside this cap. */
const childHeapMb = 128;

export function embeddedLanguagePackage(language: string): string {
  return `@tesseract.js-data/${language}`;
}

/** The gzipped traineddata of one language, or undefined when its npm package is not installed. */
function traineddataFile(language: string): string | undefined {
  try {
    const file = join(dirname(require.resolve(`${embeddedLanguagePackage(language)}/package.json`)), dataFolder, `${language}.traineddata.gz`);
    return existsSync(file) ? file : undefined;
  } catch {
    return undefined;
  }
}

function tesseractJsVersion(): string | undefined {
  try {
    const manifest = require('tesseract.js/package.json') as { version?: unknown };
    return typeof manifest.version === 'string' ? manifest.version : 'unknown';
  } catch {
    return undefined;
  }
}

export function checkEmbeddedTesseract(languages: string): OcrStatus {
  const version = tesseractJsVersion();
  if (version === undefined) return { available: false, reason: 'not-installed', detail: 'tesseract.js is not installed (npm ci)' };
  const wanted = requestedLanguages(languages);
  if (wanted.length === 0) return { available: false, reason: 'no-language', detail: 'no OCR language configured' };
  const missing = wanted.filter((language) => traineddataFile(language) === undefined);
  if (missing.length > 0) {
    const packages = missing.map(embeddedLanguagePackage).join(' ');
    return {
      available: false,
      reason: 'missing-languages',
      detail: `language data missing: ${missing.join(', ')} (npm install ${packages})`,
      missingLanguages: missing,
    };
  }
  return { available: true, engine: 'tesseract.js', version, languages: wanted.join('+') };
}

/**
 * The child's program (plain JS, run with `--eval`): the PNG on stdin, the text on stdout, an error's first line on
 * stderr and a non-zero exit. tesseract.js reads all languages from one folder (and 7.0.0 cannot be handed the
 * bytes: it names the language by its data), while each npm package has its own: the files are linked into a
 * private temporary folder, removed as soon as the languages are loaded. OEM 1 and PSM 4 as the tesseract program
 * is run (tesseract-command.ts); `cacheMethod: 'none'` keeps tesseract.js from writing into the working directory.
 */
function childProgram(languages: readonly { code: string; file: string }[]): string {
  return `
const { mkdtempSync, rmSync, symlinkSync } = await import('node:fs');
const { tmpdir } = await import('node:os');
const { join } = await import('node:path');
const { createWorker } = (await import(${JSON.stringify(require.resolve('tesseract.js'))})).default;
const languages = ${JSON.stringify(languages)};
let folder;
try {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  folder = mkdtempSync(join(tmpdir(), 'saeng-ocr-'));
  for (const { code, file } of languages) symlinkSync(file, join(folder, code + '.traineddata.gz'));
  let failure;
  const options = { langPath: folder, cacheMethod: 'none', gzip: true, logger: () => {}, errorHandler: (error) => { failure = error; } };
  const worker = await createWorker(languages.map(({ code }) => code), 1, options);
  rmSync(folder, { recursive: true, force: true });
  await worker.setParameters({ tessedit_pageseg_mode: '4' });
  const { data } = await worker.recognize(Buffer.concat(chunks));
  await worker.terminate();
  if (failure !== undefined) throw new Error(String(failure));
  process.stdout.write(data.text, () => process.exit(0));
} catch (error) {
  if (folder) rmSync(folder, { recursive: true, force: true });
  process.stderr.write(String(error instanceof Error ? error.message : error).split('\\n')[0] + '\\n', () => process.exit(1));
}
`;
}

export function createEmbeddedTesseract(options: { languages: string }): OcrBackend {
  let remembered: OcrStatus | undefined;
  const check = (): Promise<OcrStatus> => {
    remembered = checkEmbeddedTesseract(options.languages);
    return Promise.resolve(remembered);
  };
  return {
    status: () => (remembered ? Promise.resolve(remembered) : check()),
    recheck: check,
    async recognize(png, timeoutMs, signal) {
      const status = remembered ?? (await check());
      if (!status.available) return { code: 'unavailable', detail: status.detail };
      const languages = requestedLanguages(options.languages).map((code) => ({ code, file: traineddataFile(code) ?? '' }));
      return runTesseract({
        executable: process.execPath,
        args: [`--max-old-space-size=${childHeapMb}`, '--input-type=module', '--eval', childProgram(languages)],
        // Only PATH: not the bot's secrets, and no NODE_OPTIONS loader of a development run.
        env: { PATH: process.env.PATH ?? '' },
        stdin: png,
        timeoutMs,
        ...(signal ? { signal } : {}),
      });
    },
  };
}
