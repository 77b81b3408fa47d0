import { spawn, type ChildProcess } from 'node:child_process';
import type { DocumentType } from '../document-type.js';
import type { ParsedDocument, ParseRequest } from './parse-document.js';
import type { PageImageRequest } from './pdf-page-image.js';
import type { RenderedPage } from './render-pdf-page.js';

// mammoth, pdf.js, html-to-text and marked build whole object trees of what they read: a 216 KB DOCX of millions
// of one-letter runs ran V8 out of the bot's 256 MB heap, and the stored /kb add crashed it again on every
// restart. Each document is therefore parsed in a worker process of its own, with a heap cap and a deadline: out
// of memory or out of time, the worker is ended and the user hears why; the bot goes on. A process, not a worker
// thread: a thread that reaches its resourceLimits can still end in V8's fatal out-of-memory error, which aborts the
// whole process (seen once in the test suite, under load). A PDF page rendered by pdf.js (when pdftoppm is not
// installed) runs in the same kind of process, under the same bounds.

/** What a worker process is asked to do: parse one document, or render one PDF page. */
export type WorkerRequest = ParseRequest | PageImageRequest;

export interface ParseLimits {
  /** The worker's old-generation heap (`--max-old-space-size`). */
  memoryMb: number;
  timeoutMs: number;
}

export const defaultParseLimits: ParseLimits = { memoryMb: 192, timeoutMs: 60_000 };

/** Its young generation's semi-spaces, as small as the bot's own (`npm start`). */
const semiSpaceMb = 2;

/** The third-party modules each type's parser loads (parse-document.ts). */
function parserModules(type: WorkerRequest['type']): string[] {
  switch (type) {
    case 'pdf':
    case 'pdf-page': {
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
 * The worker's program, run with `--eval`. Built, it imports the plain .js entry. Under tsx (development, tests) the
 * entry is .ts source, loaded through tsx's API; the type's parser package is loaded by plain Node first: through
 * tsx's hooks pdf.js alone took 10 s and over 192 MB of heap; loaded first, the .ts code's import finds it in the
 * module cache.
 */
function workerProgram(type: WorkerRequest['type']): string {
  if (!import.meta.url.endsWith('.ts')) return `await import(${JSON.stringify(new URL('./extract-worker.js', import.meta.url).href)});`;
  const source = new URL('./extract-worker.ts', import.meta.url).href;
  return [
    ...parserModules(type).map((module) => `await import(${JSON.stringify(module)});`),
    `const { register } = await import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))});`,
    'register();',
    `await import(${JSON.stringify(source)});`,
  ].join('\n');
}

/** How a worker that did not answer ended: V8's out-of-memory abort (or the kernel's kill), or anything else. */
function endedOutOfMemory(code: number | null, signal: NodeJS.Signals | null): boolean {
  return signal === 'SIGABRT' || signal === 'SIGKILL' || code === 134;
}

/** One worker at a time per process: two workers at their heap cap would double the peak. */
let previous: Promise<unknown> = Promise.resolve();

function oneAtATime<Result>(work: () => Promise<Result>): Promise<Result> {
  const run = previous.then(work);
  previous = run.catch(() => undefined);
  return run;
}

/** The parsed document, or a failure as a value (too complex, too slow, corrupt); never throws. */
export function parseInWorker(request: ParseRequest, limits: ParseLimits = defaultParseLimits): Promise<ParsedDocument> {
  const type: DocumentType = request.type;
  return oneAtATime(() =>
    runInWorkerProcess<ParsedDocument>(request, limits, {
      failed: { ok: false, failure: { code: 'corrupt', type } },
      tooSlow: { ok: false, failure: { code: 'extract-too-slow', limitSeconds: Math.ceil(limits.timeoutMs / 1000) } },
      outOfMemory: { ok: false, failure: { code: 'too-complex', type } },
    }),
  );
}

/** One PDF page as a PNG by pdf.js, or a failure as a value; never throws. An abort ends the worker at once. */
export function renderPageInWorker(request: PageImageRequest, limits: ParseLimits, signal?: AbortSignal): Promise<RenderedPage> {
  const page = request.page;
  return oneAtATime(() =>
    runInWorkerProcess<RenderedPage>(
      request,
      limits,
      {
        failed: { ok: false, reason: 'failed', detail: `page ${page}: the renderer ended without an answer` },
        tooSlow: { ok: false, reason: 'timeout', detail: `page ${page} took over ${limits.timeoutMs} ms` },
        outOfMemory: { ok: false, reason: 'too-large', detail: `page ${page} is too complex to render` },
        cancelled: { ok: false, reason: 'cancelled', detail: 'aborted' },
      },
      signal,
    ),
  );
}

interface WorkerEndings<Result> {
  failed: Result;
  tooSlow: Result;
  outOfMemory: Result;
  cancelled?: Result;
}

function runInWorkerProcess<Result>(request: WorkerRequest, limits: ParseLimits, endings: WorkerEndings<Result>, signal?: AbortSignal): Promise<Result> {
  return new Promise((resolve) => {
    if (signal?.aborted && endings.cancelled) {
      resolve(endings.cancelled);
      return;
    }
    let settled = false;
    let worker: ChildProcess;
    try {
      const flags = [`--max-old-space-size=${limits.memoryMb}`, `--max-semi-space-size=${semiSpaceMb}`];
      // No environment of the bot's (its secrets) and no output: the document is the only input, the answer the only output.
      worker = spawn(process.execPath, [...flags, '--input-type=module', '--eval', workerProgram(request.type)], {
        env: { PATH: process.env.PATH ?? '' },
        stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
        serialization: 'advanced',
      });
    } catch {
      resolve(endings.failed);
      return;
    }
    const finish = (result: Result) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      signal?.removeEventListener('abort', onAbort);
      resolve(result);
      worker.kill('SIGKILL');
    };
    const onAbort = (): void => finish(endings.cancelled ?? endings.failed);
    const deadline = setTimeout(() => finish(endings.tooSlow), limits.timeoutMs);
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.once('message', (result: Result) => finish(result));
    worker.once('error', () => finish(endings.failed));
    worker.once('exit', (code, exitSignal) => finish(endedOutOfMemory(code, exitSignal) ? endings.outOfMemory : endings.failed));
    worker.send(request, (error) => {
      if (error) finish(endings.failed);
    });
  });
}
