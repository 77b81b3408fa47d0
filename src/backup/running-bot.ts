import { linkSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { BackupError } from './backup-error.js';
import { errorCode } from '../shared/error-code.js';
import { backupProblems } from './backup-problems.js';

// One bot per DATA_DIR: the bot claims DATA_DIR/saeng.pid at start and removes it at shutdown; restore refuses
// while a live process holds it. A file left by a crash is stale (its pid is gone) and is taken over. A pid file
// written before a reboot is stale too (Linux boot id), and so is one whose pid now belongs to another process (its
// Linux start time differs: pm2 restarts fast and containers reuse small pids — a container restarted on the same
// volume may even get the very pid in the file, which must not read as "this bot is already running").

export const pidFileName = 'saeng.pid';

export interface DataDirOwner {
  pid: number;
  /** ISO time the owner claimed DATA_DIR, for the message only (clocks jump at boot on small boards). */
  startedAt: string;
  /** Linux `/proc/sys/kernel/random/boot_id` at the claim; absent elsewhere. */
  bootId?: string | undefined;
  /** Linux start time of the owner process (clock ticks since boot, /proc/<pid>/stat field 22); absent elsewhere. */
  processStart?: string | undefined;
}

const ownerSchema = z.object({
  pid: z.number().int().positive(),
  startedAt: z.string().max(64),
  bootId: z.string().max(64).optional(),
  processStart: z.string().max(32).optional(),
});

/** Another process (or this one) holds DATA_DIR. */
export class DataDirInUseError extends BackupError {
  constructor(
    readonly dataDir: string,
    readonly owner: DataDirOwner,
  ) {
    super(backupProblems.botRunning, { dataDir, pid: owner.pid, startedAt: owner.startedAt, file: path.join(dataDir, pidFileName) });
    this.name = 'DataDirInUseError';
  }
}

function currentBootId(): string | undefined {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim().slice(0, 64) || undefined;
  } catch {
    return undefined;
  }
}

/** What DATA_DIR/saeng.pid says, or undefined when there is none or it is unreadable (treated as stale). */
export function readOwner(dataDir: string): DataDirOwner | undefined {
  let text: string;
  try {
    text = readFileSync(path.join(dataDir, pidFileName), 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT' || errorCode(error) === 'ENOTDIR') return undefined;
    throw error;
  }
  try {
    const parsed = ownerSchema.safeParse(JSON.parse(text.slice(0, 1000)));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** When a process started (Linux: clock ticks since boot), read from /proc; undefined elsewhere or when it is gone. */
export function processStartOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8').slice(0, 2000);
    // The command name (field 2) is in parentheses and may hold spaces: count fields after its closing one.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19]; // field 22 of the whole line
  } catch {
    return undefined;
  }
}

/** Whether the owner's process is alive now: signal 0 checks without signalling; EPERM means alive, not ours. */
export function isAlive(owner: DataDirOwner): boolean {
  const bootId = currentBootId();
  if (owner.bootId !== undefined && bootId !== undefined && owner.bootId !== bootId) return false;
  // Its pid, reused by another process (or by this one, which has not claimed yet when it asks).
  if (owner.pid === process.pid && !claimedHere.has(owner.startedAt)) return false;
  const started = owner.processStart === undefined ? undefined : processStartOf(owner.pid);
  if (started !== undefined && started !== owner.processStart) return false;
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (error) {
    return errorCode(error) === 'EPERM';
  }
}

/** The claims this process holds (by their start time): its own pid in a file is then really its own. */
const claimedHere = new Set<string>();

/** The live process holding DATA_DIR, or undefined when none does (no pid file, or a stale one). */
export function runningBot(dataDir: string): DataDirOwner | undefined {
  const owner = readOwner(dataDir);
  return owner && isAlive(owner) ? owner : undefined;
}

/**
 * Claims DATA_DIR for this process, taking over a stale pid file; throws DataDirInUseError when a live process
 * holds it. Returns the release function (idempotent, synchronous: safe in a process 'exit' handler).
 */
export function claimDataDir(dataDir: string, now: Date = new Date()): () => void {
  const bootId = currentBootId();
  const processStart = processStartOf(process.pid);
  const owner: DataDirOwner = { pid: process.pid, startedAt: now.toISOString(), ...(bootId ? { bootId } : {}), ...(processStart ? { processStart } : {}) };
  const file = path.join(dataDir, pidFileName);
  for (let attempt = 0; attempt < 3; attempt++) {
    if (placeExclusively(file, `${JSON.stringify(owner)}\n`)) {
      // Two processes replacing the same stale file at once: only the one whose claim is still there goes on.
      const holder = readOwner(dataDir);
      if (holder?.pid === owner.pid && holder.startedAt === owner.startedAt) {
        claimedHere.add(owner.startedAt);
        return () => {
          claimedHere.delete(owner.startedAt);
          releaseClaimAt(dataDir, owner);
        };
      }
      continue;
    }
    const holder = readOwner(dataDir);
    if (holder && isAlive(holder)) throw new DataDirInUseError(dataDir, holder);
    rmSync(file, { force: true });
  }
  throw new DataDirInUseError(dataDir, readOwner(dataDir) ?? { pid: 0, startedAt: '?' });
}

/** Removes DATA_DIR/saeng.pid if it is still this claim's (never another process's newer claim). */
export function releaseClaimAt(dataDir: string, owner: Pick<DataDirOwner, 'pid' | 'startedAt'>): void {
  const holder = readOwner(dataDir);
  if (holder?.pid === owner.pid && holder.startedAt === owner.startedAt) rmSync(path.join(dataDir, pidFileName), { force: true });
}

/** Creates the file with its whole content at once, or returns false when it exists (link fails with EEXIST). */
function placeExclusively(file: string, content: string): boolean {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, content, { mode: 0o600 });
  try {
    linkSync(temporary, file);
    return true;
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false;
    // A file system without hard links: an exclusive create (a reader may see it empty for a moment: stale).
    try {
      writeFileSync(file, content, { flag: 'wx', mode: 0o600 });
      return true;
    } catch (fallbackError) {
      if (errorCode(fallbackError) === 'EEXIST') return false;
      throw fallbackError;
    }
  } finally {
    rmSync(temporary, { force: true });
  }
}
