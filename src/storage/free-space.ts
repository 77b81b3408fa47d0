import { statfs } from 'node:fs/promises';
import { describeError } from '../shared/describe-error.js';

// A full disk fails every write: SQLite's WAL, a stored message, a knowledge-base file. /readyz reports DATA_DIR's
// free space and is not ready below DATA_DIR_MIN_FREE_MB, so a balancer sends work elsewhere before writes fail.

export interface FreeSpace {
  /** Bytes an unprivileged process may still write (statfs bavail × bsize); undefined when it could not be read. */
  freeBytes: number | undefined;
  minFreeBytes: number;
  enough: boolean;
  /** Why it is not enough, for /readyz. */
  problem?: string;
}

/** `minFreeMb` 0: never a problem (the figure is still reported). */
export async function freeSpace(folder: string, minFreeMb: number): Promise<FreeSpace> {
  const minFreeBytes = minFreeMb * 1024 * 1024;
  try {
    const stats = await statfs(folder);
    const freeBytes = stats.bavail * stats.bsize;
    if (freeBytes >= minFreeBytes) return { freeBytes, minFreeBytes, enough: true };
    const problem = `DATA_DIR has ${Math.floor(freeBytes / 1024 / 1024)} MB free, below DATA_DIR_MIN_FREE_MB=${minFreeMb}`;
    return { freeBytes, minFreeBytes, enough: false, problem };
  } catch (error) {
    if (minFreeMb === 0) return { freeBytes: undefined, minFreeBytes, enough: true };
    return { freeBytes: undefined, minFreeBytes, enough: false, problem: `DATA_DIR free space cannot be read: ${describeError(error)}` };
  }
}
