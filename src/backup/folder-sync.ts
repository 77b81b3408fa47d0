import { open } from 'node:fs/promises';

/**
 * Flushes a folder's entries (a rename into it) to disk, so a power cut right after a backup or a restore keeps
 * the new name. Best effort: some file systems refuse to open or sync a folder.
 */
export async function syncFolder(folder: string): Promise<void> {
  try {
    const handle = await open(folder, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Nothing more can be done here; the data itself was flushed file by file.
  }
}
