import { open, readdir } from 'node:fs/promises';
import path from 'node:path';
import { errorCode } from '../shared/error-code.js';
import { pidFileName } from './running-bot.js';

// What a backup takes from DATA_DIR. The stores' SQLite files sit at the top (knowledge.db, inbound.db,
// state.db, recognised by their header, so a store added later is covered too) and are copied through SQLite's
// backup API; their -wal/-shm/-journal companions are part of that copy, never copied as files. Everything else
// (files/ sandboxes, file-links.key, …) is copied as bytes. The pid lock and start-up write probes are not data.

export type DataDirEntry =
  { kind: 'database'; path: string } | { kind: 'file'; path: string } | { kind: 'skipped'; path: string; reason: 'symbolic-link' | 'not-a-regular-file' };

const sqliteHeader = Buffer.from('SQLite format 3\0', 'latin1');
const companionSuffixes = ['-wal', '-shm', '-journal'];

/** Every entry under DATA_DIR, paths relative with '/', in a stable order. */
export async function listDataDir(dataDir: string): Promise<DataDirEntry[]> {
  const top = (await readdir(dataDir, { withFileTypes: true })).sort((a, b) => compareNames(a.name, b.name));
  const entries: DataDirEntry[] = [];
  const databases = new Set<string>();
  for (const entry of top) {
    if (entry.isFile() && (await hasSqliteHeader(path.join(dataDir, entry.name)))) databases.add(entry.name);
  }
  for (const entry of top) {
    const name = entry.name;
    if (isLockOrProbe(name)) continue;
    if (companionSuffixes.some((suffix) => name.endsWith(suffix) && databases.has(name.slice(0, -suffix.length)))) continue;
    if (databases.has(name)) entries.push({ kind: 'database', path: name });
    else entries.push(...(await walk(dataDir, name, entry)));
  }
  return entries;
}

interface DirectoryEntry {
  name: string;
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
}

async function walk(root: string, relative: string, entry: DirectoryEntry): Promise<DataDirEntry[]> {
  if (entry.isSymbolicLink()) return [{ kind: 'skipped', path: relative, reason: 'symbolic-link' }];
  if (entry.isFile()) return [{ kind: 'file', path: relative }];
  if (!entry.isDirectory()) return [{ kind: 'skipped', path: relative, reason: 'not-a-regular-file' }];
  let children: DirectoryEntry[];
  try {
    children = await readdir(path.join(root, ...relative.split('/')), { withFileTypes: true });
  } catch (error) {
    // A sandbox removed while we walk (a /reset): it is simply not in this backup.
    if (errorCode(error) === 'ENOENT') return [];
    throw error;
  }
  const found: DataDirEntry[] = [];
  for (const child of children.sort((a, b) => compareNames(a.name, b.name))) found.push(...(await walk(root, `${relative}/${child.name}`, child)));
  return found;
}

function isLockOrProbe(name: string): boolean {
  return name.startsWith(pidFileName) || name.startsWith('.saeng-write-check-');
}

async function hasSqliteHeader(file: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(file, 'r');
    const header = Buffer.alloc(sqliteHeader.length);
    const { bytesRead } = await handle.read(header, 0, header.length, 0);
    return bytesRead === header.length && header.equals(sqliteHeader);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return false;
    throw error;
  } finally {
    await handle?.close();
  }
}

function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
