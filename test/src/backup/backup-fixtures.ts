import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { pidFileName } from '../../../src/backup/index.js';

// Folders, processes and damage for the backup tests. Live and dead pids are real processes: a child that waits
// until killed, and one that has already exited (its pid is free).

const made: string[] = [];
const children: ChildProcess[] = [];

export function temporaryFolder(prefix = 'saeng-backup-test-'): string {
  const folder = mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(folder);
  return folder;
}

export async function cleanUp(): Promise<void> {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = once(child, 'exit');
      child.kill();
      await exited;
    }
  }
  for (const folder of made.splice(0)) rmSync(folder, { recursive: true, force: true });
}

/** A process that stays alive until the test ends. */
export async function livePid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)'], { stdio: 'ignore' });
  children.push(child);
  await once(child, 'spawn');
  if (child.pid === undefined) throw new Error('no pid');
  return child.pid;
}

/** The pid of a process that has exited: what a crashed bot leaves in saeng.pid. */
export async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  const exited = once(child, 'exit');
  await once(child, 'spawn');
  await exited;
  if (child.pid === undefined) throw new Error('no pid');
  return child.pid;
}

function bootId(): string | undefined {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** Writes DATA_DIR/saeng.pid as another process (a bot) would have. */
export function writePidFile(dataDir: string, pid: number, options: { bootId?: string } = {}): void {
  const id = options.bootId ?? bootId();
  writeFileSync(path.join(dataDir, pidFileName), `${JSON.stringify({ pid, startedAt: '2026-03-01T09:00:00.000Z', ...(id ? { bootId: id } : {}) })}\n`);
}

/** Flips every bit of one byte in the middle of a file: the smallest damage. */
export function flipOneByte(file: string): void {
  const bytes = readFileSync(file);
  const at = Math.floor(bytes.length / 2);
  bytes[at] = (bytes[at] ?? 0) ^ 0xff;
  writeFileSync(file, bytes);
}
