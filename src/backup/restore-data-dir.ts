import { existsSync } from 'node:fs';
import { lstat, mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { describeError } from '../shared/describe-error.js';
import { BackupError } from './backup-error.js';
import { errorCode } from '../shared/error-code.js';
import { freePath, timeStamp } from './backup-names.js';
import { backupProblems } from './backup-problems.js';
import { copyFileWithDigest } from './file-digest.js';
import { listDataDir } from './data-dir-entries.js';
import { checkDatabaseFile } from './sqlite-snapshot.js';
import { syncFolder } from './folder-sync.js';
import { fromManifestPath, readManifest, type BackupManifest } from './manifest.js';
import { claimDataDir, DataDirInUseError, readOwner, releaseClaimAt, runningBot } from './running-bot.js';

// A restore never deletes data. The backup is copied into DATA_DIR.restoring-<time> beside DATA_DIR and every
// byte is checked against manifest.json on the way, then every database of the copy runs PRAGMA integrity_check
// (a damaged backup is refused before anything moves); only then is the current DATA_DIR renamed to
// DATA_DIR.before-restore-<time> and the checked copy renamed into its place.
// DATA_DIR is claimed (saeng.pid) throughout, so a bot started meanwhile refuses to run.

export interface RestoreOptions {
  /** For the folder names (BOT_TIMEZONE); default UTC. */
  timeZone?: string;
  now?: () => Date;
}

export interface RestoreResult {
  dataDir: string;
  /** Where the previous DATA_DIR now is; undefined when there was none. */
  setAside: string | undefined;
  manifest: BackupManifest;
}

export async function restoreDataDir(backupDir: string, dataDir: string, options: RestoreOptions = {}): Promise<RestoreResult> {
  const backup = path.resolve(backupDir);
  const target = path.resolve(dataDir);
  const manifest = await readManifest(backup);
  const unchecked = manifest.databases.find((database) => database.integrity !== 'ok');
  if (unchecked) throw new BackupError(backupProblems.databaseNotChecked, { file: unchecked.path, result: unchecked.integrity });

  const exists = await isFolder(target);
  const owner = exists ? runningBot(target) : undefined;
  if (owner) throw new DataDirInUseError(target, owner);
  const release = exists ? claimDataDir(target) : () => undefined;
  const stamp = timeStamp((options.now ?? (() => new Date()))(), options.timeZone ?? 'UTC');
  await mkdir(path.dirname(target), { recursive: true });
  const staging = freePath(`${target}.restoring-${stamp}`);
  try {
    await mkdir(staging, { mode: 0o700 });
    await copyChecked(backup, staging, manifest);
    await checkDatabases(staging, manifest);
  } catch (error) {
    await rm(staging, { recursive: true, force: true }); // only our own unfinished copy
    release();
    throw error;
  }

  const setAside = exists ? freePath(`${target}.before-restore-${stamp}`) : undefined;
  if (setAside) {
    try {
      await rename(target, setAside);
    } catch (error) {
      await rm(staging, { recursive: true, force: true });
      release();
      throw new BackupError(backupProblems.moveFailed, { from: target, to: setAside, reason: describeError(error) });
    }
  }
  try {
    await rename(staging, target);
  } catch (error) {
    throw await undoSetAside({ target, staging, setAside, reason: describeError(error) });
  }
  await syncFolder(path.dirname(target));
  if (setAside) {
    // Our claim moved with the previous data; the restored DATA_DIR has none (backups leave saeng.pid out).
    const claim = readOwner(setAside);
    if (claim?.pid === process.pid) releaseClaimAt(setAside, claim);
  }
  return { dataDir: target, setAside, manifest };
}

async function isFolder(folder: string): Promise<boolean> {
  try {
    if ((await stat(folder)).isDirectory()) return true;
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return false;
    throw error;
  }
  throw new BackupError(backupProblems.notAFolder, { folder });
}

/** Copies every file of the manifest, refusing the first one missing or not byte for byte as recorded. */
async function copyChecked(backup: string, staging: string, manifest: BackupManifest): Promise<void> {
  for (const entry of manifest.files) {
    const from = fromManifestPath(backup, entry.path);
    const to = fromManifestPath(staging, entry.path);
    await mkdir(path.dirname(to), { recursive: true, mode: 0o700 });
    let copied;
    try {
      copied = await copyFileWithDigest(from, to, (await lstat(from)).mode & 0o777);
    } catch (error) {
      if (errorCode(error) === 'ENOENT' && !existsSync(from)) throw new BackupError(backupProblems.fileMissing, { file: from });
      throw new BackupError(backupProblems.fileFailed, { file: from, reason: describeError(error) });
    }
    if (copied.size !== entry.size) {
      throw new BackupError(backupProblems.fileDamaged, { file: from, detail: `${copied.size} bytes, expected ${entry.size}` });
    }
    if (copied.sha256 !== entry.sha256) throw new BackupError(backupProblems.fileDamaged, { file: from, detail: 'sha256' });
  }
}

/**
 * Runs integrity_check on every database of the copy — those the manifest lists and any other SQLite file at the top
 * (a manifest's word that a database was fine when backed up is not proof that these bytes are): the first that fails
 * stops the restore before DATA_DIR is touched.
 */
async function checkDatabases(staging: string, manifest: BackupManifest): Promise<void> {
  const found = (await listDataDir(staging)).filter((entry) => entry.kind === 'database').map((entry) => entry.path);
  // A store's file whose SQLite header is gone is no longer recognised as a database, but is still one.
  const stores = manifest.files.map((entry) => entry.path).filter((file) => !file.includes('/') && file.endsWith('.db'));
  for (const database of new Set([...manifest.databases.map((entry) => entry.path), ...found, ...stores])) {
    const result = checkDatabaseFile(fromManifestPath(staging, database));
    if (result !== 'ok') throw new BackupError(backupProblems.databaseDamaged, { file: database, result: result.slice(0, 500) });
  }
}

/** The checked copy could not take DATA_DIR's place: put the previous data back, or say where everything is. */
async function undoSetAside(where: { target: string; staging: string; setAside: string | undefined; reason: string }): Promise<BackupError> {
  const { target, staging, setAside, reason } = where;
  if (!setAside) {
    await rm(staging, { recursive: true, force: true });
    return new BackupError(backupProblems.moveFailed, { from: staging, to: target, reason });
  }
  try {
    await rename(setAside, target);
  } catch {
    return new BackupError(backupProblems.putInPlaceFailed, { dataDir: target, reason, staging, aside: setAside });
  }
  await rm(staging, { recursive: true, force: true });
  const claim = readOwner(target);
  if (claim?.pid === process.pid) releaseClaimAt(target, claim);
  return new BackupError(backupProblems.moveFailed, { from: staging, to: target, reason });
}
