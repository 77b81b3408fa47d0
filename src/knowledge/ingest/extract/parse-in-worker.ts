import { Worker } from 'node:worker_threads';
import type { DocumentType } from '../document-type.js';
import type { ParsedDocument, ParsedType, ParseRequest } from './parse-document.js';

// mammoth, pdf.js, html-to-text and marked build whole object trees of what they read: a 216 KB DOCX of millions
// of one-letter runs ran V8 out of the bot's 256 MB heap, and the stored /kb add crashed it again on every
// restart. Each document is therefore parsed in a worker thread of its own, with a heap cap and a deadline: out
// of memory or out of time, the worker is ended and the user hears why; the bot goes on.

export interface ParseLimits {
  /** The worker's old-generation heap (V8's `maxOldGenerationSizeMb`). */
  memoryMb: number;
  timeoutMs: number;
}

export const defaultParseLimits: ParseLimits = { memoryMb: 192, timeoutMs: 60_000 };

/** Its young generation: enough for parsing speed, small beside the old one. */
const youngGenerationMb = 16;

/** The third-party modules each type's parser loads (parse-document.ts). */
function parserModules(type: ParsedType): string[] {
  switch (type) {
    case 'pdf': {
      // pdf.js runs its "worker" in the same thread under Node, importing this file when it starts.
      const pdfParse = import.meta.resolve('pdf-parse');
      return [pdfParse, new URL('./pdf.worker.mjs', pdfParse).href];
    }
    case 'docx':
      return [import.meta.resolve('mammoth')];
    case 'html':
      return [import.meta.resolve('html-to-text')];
    case 'markdown':
      return [import.meta.resolve('marked'), import.meta.resolve('html-to-text')];
    case 'csv':
      return [import.meta.resolve('papaparse')];
    case 'text':
      return [];
  }
}

/**
 * Built, the worker is plain .js. Under tsx (development, tests) it is the .ts source, which a worker can load
 * only through tsx's API (its `--import` hooks do not reach a worker's entry on Node 20): a small data: module.
 * That module loads the type's parser package by plain Node first: through tsx's hooks pdf.js alone took 10 s
 * and over 192 MB of the worker's heap; loaded first, the .ts code's import finds it in the module cache.
 */
function workerEntry(type: ParsedType): URL {
  if (!import.meta.url.endsWith('.ts')) return new URL('./extract-worker.js', import.meta.url);
  const source = new URL('./extract-worker.ts', import.meta.url).href;
  const loader = [
    ...parserModules(type).map((module) => `await import(${JSON.stringify(module)});`),
    `const { register } = await import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))});`,
    'register();',
    `await import(${JSON.stringify(source)});`,
  ].join('\n');
  return new URL(`data:text/javascript,${encodeURIComponent(loader)}`);
}

/** One document at a time per process: two workers at their heap cap would double the peak. */
let previous: Promise<unknown> = Promise.resolve();

/** The parsed document, or a failure as a value (too complex, too slow, corrupt); never throws. */
export function parseInWorker(request: ParseRequest, limits: ParseLimits = defaultParseLimits): Promise<ParsedDocument> {
  const run = previous.then(() => parseInNewWorker(request, limits));
  previous = run.catch(() => undefined);
  return run;
}

function parseInNewWorker(request: ParseRequest, limits: ParseLimits): Promise<ParsedDocument> {
  const type: DocumentType = request.type;
  const url = workerEntry(request.type);
  const corrupt: ParsedDocument = { ok: false, failure: { code: 'corrupt', type } };
  return new Promise((resolve) => {
    let settled = false;
    let worker: Worker;
    try {
      worker = new Worker(url, {
        workerData: request,
        execArgv: [],
        resourceLimits: { maxOldGenerationSizeMb: limits.memoryMb, maxYoungGenerationSizeMb: youngGenerationMb },
      });
    } catch {
      resolve(corrupt);
      return;
    }
    const finish = (result: ParsedDocument) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      resolve(result);
      void worker.terminate();
    };
    const deadline = setTimeout(
      () => finish({ ok: false, failure: { code: 'extract-too-slow', limitSeconds: Math.ceil(limits.timeoutMs / 1000) } }),
      limits.timeoutMs,
    );
    worker.once('message', (result: ParsedDocument) => finish(result));
    // ERR_WORKER_OUT_OF_MEMORY, or anything the parser threw past its own catch.
    worker.once('error', (error: Error & { code?: string }) =>
      finish(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? { ok: false, failure: { code: 'too-complex', type } } : corrupt),
    );
    worker.once('exit', () => finish(corrupt));
  });
}
