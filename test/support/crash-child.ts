import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { InboundMessage } from '../../src/shared/types.js';
import type { HarnessEvent } from './crash-harness.js';
import type { DeliveredPart } from './crash-test-adapter.js';

// Runs test/support/crash-harness.ts as a real child process (`node --import tsx`) and talks to it over IPC.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const harness = path.join(root, 'test/support/crash-harness.ts');

export interface CrashChild {
  /** Resolves with the acknowledgement the platform would get: 'stored' or 'duplicate'. */
  deliver(message: InboundMessage): Promise<string>;
  /** Resolves at the first event (past or future) that `matches`; rejects if the child exits first. */
  event(matches: (event: HarnessEvent) => boolean): Promise<HarnessEvent>;
  /** Sends the signal and resolves with the exit code (null when killed by it). */
  kill(signal: 'SIGKILL' | 'SIGTERM'): Promise<number | null>;
  stderr(): string;
}

const live = new Set<ChildProcess>();

/** SIGKILLs every child still running (afterEach). */
export async function killAllChildren(): Promise<void> {
  await Promise.all(
    [...live].map((child) => {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGKILL');
      return exited;
    }),
  );
}

export async function startCrashChild(environment: Record<string, string>): Promise<CrashChild> {
  const child = spawn(process.execPath, ['--import', 'tsx', harness], {
    cwd: root,
    // Only what the test sets: no .env, no token of the machine running the tests.
    env: { PATH: process.env.PATH ?? '', ...environment },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  live.add(child);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const events: HarnessEvent[] = [];
  const waiters: { matches: (event: HarnessEvent) => boolean; resolve: (event: HarnessEvent) => void; reject: (error: Error) => void }[] = [];
  let exit: { code: number | null } | undefined;
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      live.delete(child);
      exit = { code };
      for (const waiter of waiters.splice(0)) waiter.reject(new Error(`child exited (${String(code)}) while waiting; stderr:\n${stderr}`));
      resolve(code);
    }),
  );
  child.on('message', (event: HarnessEvent) => {
    events.push(event);
    for (const waiter of waiters.filter((candidate) => candidate.matches(event))) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(event);
    }
  });
  const event = (matches: (event: HarnessEvent) => boolean) =>
    new Promise<HarnessEvent>((resolve, reject) => {
      const past = events.find(matches);
      if (past) return resolve(past);
      if (exit) return reject(new Error(`child exited (${String(exit.code)}); stderr:\n${stderr}`));
      waiters.push({ matches, resolve, reject });
    });
  let nextId = 1;
  const running: CrashChild = {
    deliver: async (message) => {
      const id = nextId++;
      child.send({ type: 'deliver', id, message });
      const accepted = await event((candidate) => candidate.type === 'accepted' && candidate.id === id);
      return accepted.type === 'accepted' ? accepted.result : '';
    },
    event,
    kill: async (signal) => {
      if (!exit) child.kill(signal);
      return exited;
    },
    stderr: () => stderr,
  };
  await event((candidate) => candidate.type === 'ready');
  return running;
}

/** Every part the children sent, in order (the adapter fsyncs each one before going on). */
export function readOutbox(outboxPath: string): DeliveredPart[] {
  if (!existsSync(outboxPath)) return [];
  return readFileSync(outboxPath, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as DeliveredPart);
}
