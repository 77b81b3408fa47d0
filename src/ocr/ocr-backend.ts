import type { OcrStatus } from '../shared/image-reading.js';
import { recognitionArguments, runTesseract, type TesseractOutcome } from './tesseract-command.js';
import { createTesseractStatus } from './tesseract-status.js';

// What reads the pixels: the system's tesseract program, or tesseract.js from npm (embedded-tesseract.ts). Both
// run one image per child process — bytes in, text out, killed on time-out or cancel — so the engine above them
// (ocr-engine.ts) bounds them the same way.

export interface OcrBackend {
  /** The remembered answer (the first call runs the check). */
  status(): Promise<OcrStatus>;
  /** Checks again (after an install), for `/status`. */
  recheck(): Promise<OcrStatus>;
  recognize(png: Uint8Array, timeoutMs: number, signal?: AbortSignal): Promise<TesseractOutcome>;
}

export function createSystemTesseract(options: { languages: string; executable?: string }): OcrBackend {
  const executable = options.executable ? { executable: options.executable } : {};
  const status = createTesseractStatus({ languages: options.languages, ...executable });
  return {
    status: () => status.current(),
    recheck: () => status.recheck(),
    recognize: (png, timeoutMs, signal) =>
      runTesseract({ args: recognitionArguments(options.languages), stdin: png, timeoutMs, ...(signal ? { signal } : {}), ...executable }),
  };
}
