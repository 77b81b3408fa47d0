import { spawn } from 'node:child_process';
import { describeError } from '../shared/describe-error.js';

// One run of the tesseract executable as a child process: bytes in on stdin, text out on stdout. Everything that
// can go wrong comes back as a value — a missing executable, a time-out, a cancel, a crash — never a throw.

export type TesseractOutcome =
  | { code: 'ok'; stdout: string; stderr: string }
  | { code: 'unavailable'; detail: string }
  | { code: 'timeout'; timeoutMs: number }
  | { code: 'cancelled' }
  | { code: 'failed'; detail: string };

export interface TesseractRun {
  /** Default 'tesseract' (found on PATH); tests point it at a missing path or a script. */
  executable?: string;
  args: readonly string[];
  /** The child's environment (default: this process's); OMP_THREAD_LIMIT=1 is added either way. */
  env?: NodeJS.ProcessEnv;
  stdin?: Uint8Array;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Output past this is an error, not a truncated read (a page of text is a few KB). */
  maxStdoutBytes?: number;
}

const defaultMaxStdoutBytes = 1_048_576;
/** Enough for tesseract's last warnings and its error line; only the last line goes into a 'failed' detail. */
const maxStderrBytes = 4096;

/**
 * The recognition arguments. `--oem 1`: the LSTM engine only. Debian's tha and eng data hold no legacy model
 * (`--oem 0` fails to load them), and the default (3) picks by what the data holds; it gave the same text here, but
 * a data file with a legacy part could switch engines under us. `--psm 4`: one column of lines of varying size. The automatic layout (`--psm 3`) puts a
 * receipt's right-aligned prices in a block of their own, read after all the item names, so "ลาเต้เย็น … 130.00"
 * loses its pairing; `--psm 4` keeps each row on one line, and on 15 rendered pages its mean CER was 0.083 against
 * 0.087.
 * OSD (`--psm 1`) only finds 90° turns.
 */
export function recognitionArguments(languages: string): string[] {
  return ['stdin', 'stdout', '-l', languages, '--oem', '1', '--psm', '4'];
}

export async function runTesseract(run: TesseractRun): Promise<TesseractOutcome> {
  if (run.signal?.aborted) return { code: 'cancelled' };
  try {
    return await spawnTesseract(run);
  } catch (error) {
    // spawn() itself throws for arguments it cannot pass (a NUL byte in a path): still an outcome.
    return { code: 'failed', detail: describeError(error) };
  }
}

function spawnTesseract(run: TesseractRun): Promise<TesseractOutcome> {
  const executable = run.executable ?? 'tesseract';
  const maxStdoutBytes = run.maxStdoutBytes ?? defaultMaxStdoutBytes;
  return new Promise((resolve) => {
    let settled = false;
    let ending: TesseractOutcome | undefined;
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderr = '';
    // OpenMP would start a thread per core for one image, beside a model server that needs those cores.
    const child = spawn(executable, [...run.args], {
      env: { ...(run.env ?? process.env), OMP_THREAD_LIMIT: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const finish = (outcome: TesseractOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      run.signal?.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    // Kill first, answer when the process is gone: no tesseract outlives its result.
    const stop = (outcome: TesseractOutcome): void => {
      if (ending) return;
      ending = outcome;
      child.kill('SIGKILL');
    };
    const onAbort = (): void => stop({ code: 'cancelled' });
    const timer = setTimeout(() => stop({ code: 'timeout', timeoutMs: run.timeoutMs }), run.timeoutMs);
    run.signal?.addEventListener('abort', onAbort, { once: true });

    child.stdout.on('data', (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (stdoutBytes > maxStdoutBytes) stop({ code: 'failed', detail: `output over ${maxStdoutBytes} bytes` });
      else stdout.push(chunk);
    });
    // The tail is kept: tesseract's error comes last, after its warnings.
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-maxStderrBytes);
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') finish({ code: 'unavailable', detail: notInstalled(executable) });
      else if (error.code === 'EACCES') finish({ code: 'unavailable', detail: `${executable} cannot be run (permission denied)` });
      else finish({ code: 'failed', detail: error.message });
    });
    child.on('close', (exitCode, signal) => {
      if (ending) finish(ending);
      else if (exitCode === 0) finish({ code: 'ok', stdout: Buffer.concat(stdout).toString('utf8'), stderr });
      else finish({ code: 'failed', detail: failureDetail(exitCode, signal, stderr) });
    });
    // A child that exits before reading all of stdin makes the pipe fail with EPIPE; its exit status says more.
    child.stdin.on('error', () => undefined);
    child.stdin.end(run.stdin ?? new Uint8Array());
  });
}

function notInstalled(executable: string): string {
  return executable === 'tesseract' ? 'tesseract is not installed' : `tesseract is not installed (no ${executable})`;
}

function failureDetail(exitCode: number | null, signal: NodeJS.Signals | null, stderr: string): string {
  const how = signal ? `killed by ${signal}` : `exit code ${exitCode ?? 'unknown'}`;
  const lastLine = lastMeaningfulLine(stderr);
  return lastLine ? `tesseract ${how}: ${lastLine}` : `tesseract ${how}`;
}

/** Tesseract's own error is its last stderr line; its warnings ("Estimating resolution…") come before it. */
function lastMeaningfulLine(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  return (lines[lines.length - 1] ?? '').slice(0, 300);
}
