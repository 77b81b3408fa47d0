import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { BackupError } from './backup-error.js';
import { isBackupFolderName } from './backup-names.js';
import { readManifest, type BackupManifest } from './manifest.js';

// `list`: the backups in a folder, oldest first, from their manifests (fast: no file is hashed; restore does that).

export type ListedBackup = { folder: string; manifest: BackupManifest } | { folder: string; problem: BackupError };

export async function listBackups(dir: string): Promise<ListedBackup[]> {
  const root = path.resolve(dir);
  const names = (await readdir(root, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory() && isBackupFolderName(entry.name))
    .map((entry) => entry.name)
    .sort(byTimeThenSuffix);
  const listed: ListedBackup[] = [];
  for (const name of names) {
    const folder = path.join(root, name);
    try {
      listed.push({ folder, manifest: await readManifest(folder) });
    } catch (error) {
      if (!(error instanceof BackupError)) throw error;
      listed.push({ folder, problem: error });
    }
  }
  return listed;
}

/** saeng-backup-…-HHMMSS before saeng-backup-…-HHMMSS-2 before …-10. */
function byTimeThenSuffix(a: string, b: string): number {
  const key = (name: string) => {
    const stamp = name.slice(0, 'saeng-backup-YYYYMMDD-HHMMSS'.length);
    return { stamp, suffix: Number(name.slice(stamp.length + 1) || '1') };
  };
  const [left, right] = [key(a), key(b)];
  if (left.stamp !== right.stamp) return left.stamp < right.stamp ? -1 : 1;
  return left.suffix - right.suffix;
}
