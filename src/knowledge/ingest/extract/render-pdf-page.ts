import { spawn } from 'node:child_process';

// One PDF page as a PNG of grey pixels, by poppler's pdftoppm (poppler-utils; with -gray, though poppler 22
// still writes the PNG as RGB). The PDF goes in on stdin and the image comes out on stdout: no temporary files
// to leave behind. The child is killed on time-out, on abort and when its output passes the cap, so a hostile
// PDF costs at most one page's time and memory.

export type RenderedPage =
  { ok: true; png: Uint8Array } | { ok: false; reason: 'unavailable' | 'timeout' | 'too-large' | 'failed' | 'cancelled'; detail: string };

export interface RenderOptions {
  /** 1-based. */
  page: number;
  dpi: number;
  timeoutMs: number;
  maxBytes: number;
  signal?: AbortSignal;
  /** The executable; tests point it elsewhere to see the unavailable path. */
  command?: string;
}

const maxErrorCharacters = 300;

export function renderPdfPage(pdf: Uint8Array, options: RenderOptions): Promise<RenderedPage> {
  const page = String(options.page);
  const args = ['-r', String(options.dpi), '-gray', '-png', '-f', page, '-l', page, '-'];
  return new Promise((resolve) => {
    if (options.signal?.aborted) {
      resolve({ ok: false, reason: 'cancelled', detail: 'aborted before rendering' });
      return;
    }
    const child = spawn(options.command ?? 'pdftoppm', args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const parts: Buffer[] = [];
    let size = 0;
    let errorText = '';
    let outcome: RenderedPage | undefined;
    const stop = (result: RenderedPage): void => {
      outcome ??= result;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(() => stop({ ok: false, reason: 'timeout', detail: `page ${page} took over ${options.timeoutMs} ms` }), options.timeoutMs);
    const onAbort = (): void => stop({ ok: false, reason: 'cancelled', detail: 'aborted' });
    options.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > options.maxBytes) stop({ ok: false, reason: 'too-large', detail: `page ${page} image over ${options.maxBytes} bytes` });
      else parts.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (errorText.length < maxErrorCharacters) errorText += chunk.toString('utf8').slice(0, maxErrorCharacters);
    });
    // pdftoppm may stop reading early (a broken PDF): the pipe error that follows is expected.
    child.stdin.on('error', () => undefined);
    child.on('error', (error: NodeJS.ErrnoException) => {
      outcome ??= { ok: false, reason: error.code === 'ENOENT' ? 'unavailable' : 'failed', detail: error.message.slice(0, maxErrorCharacters) };
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      if (outcome) resolve(outcome);
      else if (code === 0 && size > 0) resolve({ ok: true, png: new Uint8Array(Buffer.concat(parts, size)) });
      else resolve({ ok: false, reason: 'failed', detail: `pdftoppm exited with ${String(code)}: ${errorText.trim().slice(0, maxErrorCharacters)}` });
    });
    child.stdin.end(pdf);
  });
}
