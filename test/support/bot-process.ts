import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The real bot as `npm start` runs it (src/main.ts, every platform whose credentials are set), in a child process
// without a terminal, so tests can kill it with SIGKILL and start it again on the same DATA_DIR. Ready is the
// 'ready' message main.ts sends for pm2's wait_ready.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const entry = path.join(root, 'src/main.ts');

export interface BotProcess {
  /** The child's process id (its /proc/<pid>/status holds its memory figures). */
  pid: number;
  /** Sends the signal and resolves with the exit code (null when killed by it). */
  kill(signal: 'SIGKILL' | 'SIGTERM'): Promise<number | null>;
  stderr(): string;
  stdout(): string;
  /** Resolves with the first stderr line (past or future) that contains `text`; rejects if the bot exits first. */
  stderrLine(text: string): Promise<string>;
  /** The same on stdout, where headless info lines go (warnings and errors go to stderr). */
  stdoutLine(text: string): Promise<string>;
}

const running = new Set<ChildProcess>();

/** What every crash test's bot shares: the fake model server without tools or vision, no web search, no retries. */
export function botEnvironment(modelUrl: string, dataDir: string, logLevel = 'warn'): Record<string, string> {
  return {
    MODEL_BASE_URL: modelUrl,
    MODEL_NAME: 'test-model',
    MODEL_TOOLS: 'off',
    MODEL_VISION: 'off',
    MODEL_RETRIES: '0',
    SEARCH_PROVIDER: 'none',
    DATA_DIR: dataDir,
    HTTP_PORT: '0',
    LOG_LEVEL: logLevel,
    // Several quick messages each get their own answer here, as before bursts (src/pipeline/burst.ts).
    BURST_WINDOW_MS: '0',
  };
}

/** SIGKILLs every bot still running (afterEach). */
export async function killAllBots(): Promise<void> {
  await Promise.all(
    [...running].map((child) => {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGKILL');
      return exited;
    }),
  );
}

/** tsx by its path, so the bot can run in `workingDirectory` (a test's temp dir: no developer's .env is read). */
const tsxLoader = import.meta.resolve('tsx');

export async function startBotProcess(environment: Record<string, string>, workingDirectory: string): Promise<BotProcess> {
  const child = spawn(process.execPath, ['--import', tsxLoader, entry], {
    cwd: workingDirectory,
    // Only what the test sets: no token of the machine running the tests.
    env: { PATH: process.env.PATH ?? '', ...environment },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  running.add(child);
  const output = { stdout: '', stderr: '' };
  const lineWaiters = new Set<() => void>();
  for (const stream of ['stdout', 'stderr'] as const) {
    child[stream]?.on('data', (chunk: Buffer) => {
      output[stream] += chunk.toString('utf8');
      for (const check of [...lineWaiters]) check();
    });
  }
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  let alive = true;
  void exited.then(() => (alive = false));
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    void exited.then((code) => reject(new Error(`the bot exited (${String(code)}) before it was ready; stderr:\n${output.stderr}`)));
  });
  const lineOn = (stream: 'stdout' | 'stderr', text: string): Promise<string> =>
    new Promise<string>((resolve, reject) => {
      const check = (): void => {
        const found = output[stream].split('\n').find((entry) => entry.includes(text));
        if (found === undefined) return;
        lineWaiters.delete(check);
        resolve(found);
      };
      lineWaiters.add(check);
      check();
      void exited.then(() => {
        if (!lineWaiters.has(check)) return;
        lineWaiters.delete(check);
        reject(new Error(`the bot exited before logging "${text}" on ${stream}; stdout:\n${output.stdout}\nstderr:\n${output.stderr}`));
      });
    });
  return {
    pid: child.pid ?? 0,
    kill: (signal) => {
      if (alive) child.kill(signal);
      return exited;
    },
    stderr: () => output.stderr,
    stdout: () => output.stdout,
    stderrLine: (text) => lineOn('stderr', text),
    stdoutLine: (text) => lineOn('stdout', text),
  };
}
