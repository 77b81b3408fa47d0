import { describeError } from '../shared/describe-error.js';
import type { ImageRefusal, OcrFailure, OcrResult, OcrStatus } from '../shared/image-reading.js';
import type { Logger } from '../shared/log.js';
import { createOcrCache, ocrCacheKey, type OcrCacheOptions } from './ocr-cache.js';
import { cleanOcrText } from './ocr-text-cleanup.js';
import { createSystemTesseract, type OcrBackend } from './ocr-backend.js';
import { createProcessSlots } from './process-slots.js';

// Image bytes in, cleaned text out: checked once for tesseract and its languages, cached by content, at most
// `concurrency` OCR processes at once. The system's tesseract reads when it is installed with the languages (on
// rendered Thai it is more accurate and faster: `npm run bench -- ocr`); else the embedded engine (tesseract.js from
// npm), when given, one image at a time. Every outcome is an OcrResult; nothing throws. The log line says how long,
// how many bytes, which languages and the outcome — never the text, which is the user's.

/** One finished read, for metrics: how it ended and how long it took. Never the text. */
export interface OcrObservation {
  outcome: 'read' | 'cached' | OcrFailure['code'];
  seconds: number;
}

export type PreparedImage = { ok: true; png: Uint8Array } | { ok: false; refusal: ImageRefusal };

export interface OcrEngineOptions {
  /** As tesseract's `-l` takes them: "tha+eng". */
  languages: string;
  /** For one tesseract process; the wait for a free slot is not counted. */
  timeoutMs: number;
  /** Tesseract processes at once (each takes one core: OMP_THREAD_LIMIT=1). */
  concurrency: number;
  executable?: string;
  /** Sniffs, bounds and normalizes the image for tesseract (src/images); a refusal is answered as is. */
  prepare: (bytes: Uint8Array) => Promise<PreparedImage>;
  log: Logger;
  cache?: OcrCacheOptions;
  /** Told about every read (the core's metrics; this module imports none). */
  observe?: (observation: OcrObservation) => void;
  /** Reads when the tesseract program (or one of its languages) is missing: tesseract.js (embedded-tesseract.ts). */
  embedded?: OcrBackend;
}

export interface OcrEngine {
  read(bytes: Uint8Array, signal?: AbortSignal): Promise<OcrResult>;
  status(): Promise<OcrStatus>;
  /** Checks tesseract and its languages again (after an install), for `/status`; the engine may change. */
  recheck(): Promise<OcrStatus>;
}

/** A few hundred screenshots' worth of text: a receipt is ~300 characters, a dense page ~3,000. */
const defaultCache: OcrCacheOptions = { maxEntries: 500, maxCharacters: 500_000 };

export function createOcrEngine(options: OcrEngineOptions): OcrEngine {
  const system = createSystemTesseract({ languages: options.languages, ...(options.executable ? { executable: options.executable } : {}) });
  const cache = createOcrCache(options.cache ?? defaultCache);
  const slots = createProcessSlots(options.concurrency);
  // A WASM engine is slower and larger than the program: one image at a time, whatever OCR_CONCURRENCY says.
  const embeddedSlots = createProcessSlots(1);

  /** The system's tesseract when it can read, else the embedded engine when it can; else the system's reason. */
  const choose = async (recheck: boolean): Promise<{ status: OcrStatus; backend: OcrBackend }> => {
    const systemStatus = recheck ? await system.recheck() : await system.status();
    if (systemStatus.available || !options.embedded) return { status: systemStatus, backend: system };
    const embeddedStatus = recheck ? await options.embedded.recheck() : await options.embedded.status();
    return embeddedStatus.available ? { status: embeddedStatus, backend: options.embedded } : { status: systemStatus, backend: system };
  };

  const recognize = async (bytes: Uint8Array, backend: OcrBackend, signal: AbortSignal | undefined): Promise<OcrResult> => {
    const started = performance.now();
    const prepared = await options.prepare(bytes);
    if (!prepared.ok) return failure({ code: 'refused', refusal: prepared.refusal });
    if (signal?.aborted) return failure({ code: 'cancelled' });
    const outcome = await backend.recognize(prepared.png, options.timeoutMs, signal);
    if (outcome.code !== 'ok') return failure(outcome);
    return { ok: true, text: cleanOcrText(outcome.stdout), ms: Math.round(performance.now() - started), cached: false };
  };

  const readUnlogged = async (bytes: Uint8Array, signal: AbortSignal | undefined): Promise<OcrResult> => {
    if (signal?.aborted) return failure({ code: 'cancelled' });
    const { status, backend } = await choose(false);
    if (!status.available) return failure({ code: 'unavailable', detail: status.detail });
    const key = ocrCacheKey(bytes, options.languages);
    const known = cache.get(key);
    if (known !== undefined) return { ok: true, text: known, ms: 0, cached: true };
    const result = await (backend === system ? slots : embeddedSlots).run(() => recognize(bytes, backend, signal), signal);
    if (result === 'cancelled') return failure({ code: 'cancelled' });
    if (result.ok) cache.set(key, result.text);
    return result;
  };

  return {
    async read(bytes, signal) {
      const started = performance.now();
      let result: OcrResult;
      try {
        result = await readUnlogged(bytes, signal);
      } catch (error) {
        // prepare() is someone else's code: whatever it throws is this image's failure, not the caller's.
        result = failure({ code: 'failed', detail: describeError(error) });
      }
      const elapsedMs = performance.now() - started;
      logRead(options.log, result, { bytes: bytes.length, languages: options.languages, ms: Math.round(elapsedMs) });
      options.observe?.({ outcome: result.ok ? (result.cached ? 'cached' : 'read') : result.failure.code, seconds: elapsedMs / 1000 });
      return result;
    },
    status: async () => (await choose(false)).status,
    recheck: async () => (await choose(true)).status,
  };
}

function failure(reason: OcrFailure): OcrResult {
  return { ok: false, failure: reason };
}

function logRead(log: Logger, result: OcrResult, fields: { bytes: number; languages: string; ms: number }): void {
  if (result.ok) {
    log.info({ ...fields, outcome: result.cached ? 'cached' : 'read', characters: result.text.length }, 'ocr');
    return;
  }
  const { failure } = result;
  const detail = failure.code === 'failed' || failure.code === 'unavailable' ? { detail: failure.detail } : {};
  const refusal = failure.code === 'refused' ? { refusal: failure.refusal.code } : {};
  const level = failure.code === 'failed' ? 'warn' : 'info';
  log[level]({ ...fields, outcome: failure.code, ...detail, ...refusal }, 'ocr');
}
