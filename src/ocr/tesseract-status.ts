import type { OcrStatus, OcrUnavailableReason } from '../shared/image-reading.js';
import { runTesseract, type TesseractOutcome } from './tesseract-command.js';

// Whether OCR can work here: the executable runs and every language of OCR_LANGS has its traineddata. Asked once
// (two short processes) and remembered; `/status` may ask again after an install.

export interface TesseractStatus {
  /** The remembered answer (the first call runs the check). */
  current(): Promise<OcrStatus>;
  /** Runs the check again and remembers the new answer. */
  recheck(): Promise<OcrStatus>;
}

export interface TesseractStatusOptions {
  executable?: string;
  /** As tesseract's `-l` takes them: "tha+eng". */
  languages: string;
  /** Each of the two processes; tesseract answers these in milliseconds. */
  timeoutMs?: number;
}

const defaultTimeoutMs = 10_000;
const versionLine = /^tesseract v?(\d[\w.-]{0,40})/m;

export function createTesseractStatus(options: TesseractStatusOptions): TesseractStatus {
  let remembered: Promise<OcrStatus> | undefined;
  const recheck = (): Promise<OcrStatus> => {
    remembered = checkTesseract(options);
    return remembered;
  };
  return {
    current: () => remembered ?? recheck(),
    recheck,
  };
}

export async function checkTesseract(options: TesseractStatusOptions): Promise<OcrStatus> {
  const run = (flag: string): Promise<TesseractOutcome> =>
    runTesseract({ args: [flag], timeoutMs: options.timeoutMs ?? defaultTimeoutMs, ...(options.executable ? { executable: options.executable } : {}) });
  const version = await run('--version');
  if (version.code !== 'ok') return { available: false, reason: unavailableReason(version), detail: unavailableDetail(version) };
  const listed = await run('--list-langs');
  if (listed.code !== 'ok') return { available: false, reason: unavailableReason(listed), detail: unavailableDetail(listed) };
  const installed = installedLanguages(listed.stdout);
  const wanted = requestedLanguages(options.languages);
  if (wanted.length === 0) return { available: false, reason: 'no-language', detail: 'no OCR language configured' };
  const missing = wanted.filter((language) => !installed.has(language));
  if (missing.length > 0) return { available: false, reason: 'missing-languages', detail: missingLanguagesDetail(missing), missingLanguages: missing };
  // Tesseract 4 printed its version on stderr, 5 prints it on stdout.
  const match = versionLine.exec(`${version.stdout}\n${version.stderr}`);
  return { available: true, engine: 'tesseract', version: match?.[1] ?? 'unknown', languages: wanted.join('+') };
}

/** "tha+eng" → ["tha", "eng"]; blanks and repeats dropped. */
export function requestedLanguages(languages: string): string[] {
  const names = languages
    .split('+')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  return [...new Set(names)];
}

/** `--list-langs` prints a heading line ("List of available languages in …") and then one name a line. */
function installedLanguages(listing: string): Set<string> {
  const lines = listing.split('\n').map((line) => line.trim());
  return new Set(lines.filter((line) => line !== '' && !line.startsWith('List of available languages')));
}

/** Debian names the data packages tesseract-ocr-<lang>, with "_" as "-": chi_sim → tesseract-ocr-chi-sim. */
export function tesseractLanguagePackage(language: string): string {
  return `tesseract-ocr-${language.toLowerCase().replaceAll('_', '-')}`;
}

function missingLanguagesDetail(missing: readonly string[]): string {
  const packages = missing.map(tesseractLanguagePackage);
  return `language data missing: ${missing.join(', ')} (apt-get install ${packages.join(' ')})`;
}

function unavailableReason(outcome: Exclude<TesseractOutcome, { code: 'ok' }>): OcrUnavailableReason {
  return outcome.code === 'unavailable' ? 'not-installed' : 'not-answering';
}

function unavailableDetail(outcome: Exclude<TesseractOutcome, { code: 'ok' }>): string {
  switch (outcome.code) {
    case 'unavailable':
      return outcome.detail;
    case 'timeout':
      return `tesseract did not answer within ${outcome.timeoutMs} ms`;
    case 'cancelled':
      return 'tesseract check was cancelled';
    case 'failed':
      return `tesseract does not run: ${outcome.detail}`;
  }
}
