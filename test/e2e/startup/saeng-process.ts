import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// `npm start` as a fresh machine runs it: src/main.ts in a child process without a terminal, in a working directory
// of the test's (no developer's .env), with only the environment the test gives. Waits on lines and on the exit.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const entry = path.join(root, 'src/main.ts');
const tsxLoader = import.meta.resolve('tsx');

export interface SaengProcess {
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
  stdout(): string;
  stderr(): string;
  /** The first line (past or future) on that stream containing `text`; rejects if the process exits first. */
  line(stream: 'stdout' | 'stderr', text: string): Promise<string>;
  signal(name: 'SIGTERM' | 'SIGKILL'): void;
}

const running = new Set<SaengProcess>();

/**
 * `obeyPermissions`: when the tests run as root (CI), start the bot through util-linux's setpriv without the
 * capabilities that let root write through any mode bit (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH) — still root, so it
 * reads the clone wherever it lies (a `mktemp -d` folder other users cannot enter), but a 0500 folder says no.
 */
export function startSaeng(environment: Record<string, string>, workingDirectory: string, options: { obeyPermissions?: boolean } = {}): SaengProcess {
  const node = [process.execPath, '--import', tsxLoader, entry];
  const dropOverride = options.obeyPermissions === true && process.getuid?.() === 0;
  const [command = process.execPath, ...args] = dropOverride ? ['setpriv', '--bounding-set=-dac_override,-dac_read_search', '--', ...node] : node;
  const child = spawn(command, args, {
    cwd: workingDirectory,
    env: { PATH: process.env.PATH ?? '', ...environment },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = { stdout: '', stderr: '' };
  const waiters = new Set<() => void>();
  for (const stream of ['stdout', 'stderr'] as const) {
    child[stream].on('data', (chunk: Buffer) => {
      output[stream] += chunk.toString('utf8');
      for (const check of [...waiters]) check();
    });
  }
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const saeng: SaengProcess = {
    exited,
    stdout: () => output.stdout,
    stderr: () => output.stderr,
    line: (stream, text) =>
      new Promise<string>((resolve, reject) => {
        const check = (): void => {
          const found = output[stream].split('\n').find((candidate) => candidate.includes(text));
          if (found === undefined) return;
          waiters.delete(check);
          resolve(found);
        };
        waiters.add(check);
        check();
        void exited.then((code) => {
          if (!waiters.delete(check)) return;
          reject(new Error(`exited (${String(code)}) before "${text}" on ${stream}; stdout:\n${output.stdout}\nstderr:\n${output.stderr}`));
        });
      }),
    signal: (name) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(name);
    },
  };
  running.add(saeng);
  void exited.then(() => running.delete(saeng));
  return saeng;
}

/** SIGKILLs whatever a failed test left running (afterEach). */
export async function killAllSaeng(): Promise<void> {
  await Promise.all(
    [...running].map((saeng) => {
      saeng.signal('SIGKILL');
      return saeng.exited;
    }),
  );
}
