import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { describeError } from '../shared/describe-error.js';
import { BackupError } from './backup-error.js';
import { errorCode } from '../shared/error-code.js';
import { backupProblems } from './backup-problems.js';

// manifest.json: what a backup holds, so a restore can prove every byte came back as it was written. Paths are
// relative, with '/' on every platform; a manifest naming '..' or an absolute path is refused (it would write
// outside DATA_DIR).

export const manifestFileName = 'manifest.json';
export const manifestFormat = 1;

const maxPathLength = 4096;
const maxManifestBytes = 256 * 1024 * 1024;

/** A relative path of plain segments: no '', '.', '..' or NUL (nor, on Windows, a backslash or drive letter). */
export function isSafeRelativePath(value: string): boolean {
  if (value.length === 0 || value.length > maxPathLength || value.includes('\0')) return false;
  if (path.sep === '\\' && (value.includes('\\') || value.includes(':'))) return false;
  return value.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..');
}

const relativePath = z.string().refine(isSafeRelativePath, { message: 'not a safe relative path' });

const fileEntrySchema = z.object({
  path: relativePath,
  size: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});

const databaseEntrySchema = z.object({
  path: relativePath,
  /** PRAGMA user_version: the store's own schema version (knowledge.db counts its migrations here). */
  userVersion: z.number().int(),
  /** PRAGMA schema_version: SQLite's counter of schema changes. */
  schemaVersion: z.number().int(),
  /** PRAGMA integrity_check on the copy: 'ok', or what it found. */
  integrity: z.string().max(4000),
});

const skippedEntrySchema = z.object({
  path: z.string().max(maxPathLength),
  reason: z.enum(['symbolic-link', 'not-a-regular-file', 'vanished']),
});

export const manifestSchema = z.object({
  format: z.literal(manifestFormat),
  app: z.literal('saeng'),
  /** package.json version of the Saeng that wrote it. */
  version: z.string().max(100),
  createdAt: z.iso.datetime(),
  files: z.array(fileEntrySchema),
  databases: z.array(databaseEntrySchema),
  skipped: z.array(skippedEntrySchema),
});

export type BackupManifest = z.infer<typeof manifestSchema>;
export type ManifestFile = z.infer<typeof fileEntrySchema>;
export type ManifestDatabase = z.infer<typeof databaseEntrySchema>;
export type SkippedEntry = z.infer<typeof skippedEntrySchema>;

/** The platform path of a manifest path under `root`. */
export function fromManifestPath(root: string, relative: string): string {
  return path.join(root, ...relative.split('/'));
}

export async function writeManifest(folder: string, manifest: BackupManifest): Promise<void> {
  await writeFile(path.join(folder, manifestFileName), `${JSON.stringify(manifest, null, 2)}\n`, { flag: 'wx', mode: 0o600, flush: true });
}

/** Reads and checks `folder/manifest.json`; a BackupError names the folder or the file when it cannot. */
export async function readManifest(folder: string): Promise<BackupManifest> {
  const file = path.join(folder, manifestFileName);
  let text: string;
  try {
    if ((await stat(file)).size > maxManifestBytes) throw new BackupError(backupProblems.manifestUnreadable, { file, reason: 'too large' });
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (error instanceof BackupError) throw error;
    if (errorCode(error) === 'ENOENT' || errorCode(error) === 'ENOTDIR') throw new BackupError(backupProblems.manifestMissing, { folder });
    throw new BackupError(backupProblems.manifestUnreadable, { file, reason: describeError(error) });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new BackupError(backupProblems.manifestUnreadable, { file, reason: describeError(error) });
  }
  const checked = manifestSchema.safeParse(parsed);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    const where = issue ? issue.path.join('.') : '';
    throw new BackupError(backupProblems.manifestUnreadable, { file, reason: `${where}: ${issue?.message ?? 'invalid'}` });
  }
  const manifest = checked.data;
  const listed = new Set<string>();
  for (const entry of manifest.files) {
    if (listed.has(entry.path) || entry.path === manifestFileName) {
      throw new BackupError(backupProblems.manifestUnreadable, { file, reason: `${entry.path} is listed twice` });
    }
    listed.add(entry.path);
  }
  const unlisted = manifest.databases.find((database) => !listed.has(database.path));
  if (unlisted) throw new BackupError(backupProblems.manifestUnreadable, { file, reason: `${unlisted.path} is not among the files` });
  return manifest;
}
