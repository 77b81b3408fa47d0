import { existsSync } from 'node:fs';
import { lstat, mkdir, realpath, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { describeError } from '../shared/describe-error.js';
import { BackupError } from './backup-error.js';
import { errorCode } from '../shared/error-code.js';
import { backupFolderPrefix, freePath, timeStamp } from './backup-names.js';
import { backupProblems } from './backup-problems.js';
import { listDataDir } from './data-dir-entries.js';
import { copyFileWithDigest, digestFile } from './file-digest.js';
import { syncFolder } from './folder-sync.js';
import { fromManifestPath, manifestFormat, writeManifest, type BackupManifest } from './manifest.js';
import { snapshotDatabase, type SnapshotOptions } from './sqlite-snapshot.js';

// A backup is written while the bot runs, into a hidden `.saeng-backup-….partial` folder renamed to its final
// name only once every file and manifest.json are on disk: a folder named saeng-backup-… is always complete.

export interface BackupOptions {
  /** package.json version, recorded in the manifest. */
  appVersion: string;
  /** For the folder name (BOT_TIMEZONE); default UTC. */
  timeZone?: string;
  now?: () => Date;
  /** How databases are copied (tests: small steps with writes between them). */
  snapshot?: SnapshotOptions;
}

export interface BackupResult {
  folder: string;
  manifest: BackupManifest;
}

export async function backupDataDir(dataDir: string, targetDir: string, options: BackupOptions): Promise<BackupResult> {
  const source = path.resolve(dataDir);
  await requireFolder(source);
  const target = path.resolve(targetDir);
  await mkdir(target, { recursive: true, mode: 0o700 });
  const [realSource, realTarget] = [await realpath(source), await realpath(target)];
  if (realTarget === realSource || realTarget.startsWith(`${realSource}${path.sep}`)) {
    throw new BackupError(backupProblems.targetInsideDataDir, { target, dataDir: source });
  }

  const createdAt = (options.now ?? (() => new Date()))();
  const partialOf = (folder: string) => path.join(path.dirname(folder), `.${path.basename(folder)}.partial`);
  const folder = freePath(
    path.join(target, `${backupFolderPrefix}${timeStamp(createdAt, options.timeZone ?? 'UTC')}`),
    (candidate) => existsSync(candidate) || existsSync(partialOf(candidate)),
  );
  const partial = partialOf(folder);
  await mkdir(partial, { mode: 0o700 }); // not recursive: fails if another backup took the name meanwhile
  try {
    const manifest = await copyDataDir(source, partial, options);
    manifest.createdAt = createdAt.toISOString();
    await writeManifest(partial, manifest);
    if (existsSync(folder)) throw new Error(`${folder} appeared while the backup was written`);
    await rename(partial, folder);
    await syncFolder(target);
    return { folder, manifest };
  } catch (error) {
    await rm(partial, { recursive: true, force: true }); // only our own unfinished copy
    throw error;
  }
}

async function requireFolder(folder: string): Promise<void> {
  try {
    if (!(await stat(folder)).isDirectory()) throw new BackupError(backupProblems.notAFolder, { folder });
  } catch (error) {
    if (errorCode(error) === 'ENOENT') throw new BackupError(backupProblems.dataDirMissing, { dataDir: folder });
    throw error;
  }
}

async function copyDataDir(source: string, destination: string, options: BackupOptions): Promise<BackupManifest> {
  const manifest: BackupManifest = { format: manifestFormat, app: 'saeng', version: options.appVersion, createdAt: '', files: [], databases: [], skipped: [] };
  for (const entry of await listDataDir(source)) {
    if (entry.kind === 'skipped') {
      manifest.skipped.push({ path: entry.path, reason: entry.reason });
      continue;
    }
    const from = fromManifestPath(source, entry.path);
    const to = fromManifestPath(destination, entry.path);
    await mkdir(path.dirname(to), { recursive: true, mode: 0o700 });
    if (entry.kind === 'database') {
      let check;
      try {
        check = await snapshotDatabase(from, to, options.snapshot);
      } catch (error) {
        throw new BackupError(backupProblems.databaseFailed, { file: from, reason: describeError(error) });
      }
      manifest.files.push({ path: entry.path, ...(await digestFile(to)) });
      manifest.databases.push({ path: entry.path, ...check });
      continue;
    }
    try {
      const mode = (await lstat(from)).mode & 0o777;
      manifest.files.push({ path: entry.path, ...(await copyFileWithDigest(from, to, mode)) });
    } catch (error) {
      // A file deleted while the backup runs (a sandbox cleared by /reset) was not there at the end: skip it.
      if (errorCode(error) === 'ENOENT' && !existsSync(from)) {
        await rm(to, { force: true });
        manifest.skipped.push({ path: entry.path, reason: 'vanished' });
        continue;
      }
      throw new BackupError(backupProblems.fileFailed, { file: from, reason: describeError(error) });
    }
  }
  return manifest;
}
