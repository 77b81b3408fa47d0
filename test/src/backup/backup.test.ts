import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { backupDataDir, BackupError, claimDataDir, listBackups, restoreDataDir } from '../../../src/backup/index.js';
import { digestFile } from '../../../src/backup/file-digest.js';
import { openStorage } from '../../../src/storage/storage.js';
import { cleanUp, temporaryFolder } from './backup-fixtures.js';

// What a backup folder holds and how it is named.

const now = new Date('2026-03-01T02:03:04Z');

afterEach(cleanUp);

function dataDirWithState(): string {
  const dataDir = path.join(temporaryFolder(), 'data');
  const storage = openStorage(dataDir);
  storage.close();
  return dataDir;
}

async function refusal(promise: Promise<unknown>): Promise<BackupError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof BackupError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

/** A database whose index disagrees with its table: what integrity_check reports on a damaged disk. */
function damagedDatabase(file: string): void {
  const database = new Database(file);
  database.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT); CREATE INDEX t_v ON t (v)');
  for (let index = 0; index < 10; index++) database.prepare('INSERT INTO t (v) VALUES (?)').run(`value-${index}`);
  const rootPage = Number(database.prepare(`SELECT rootpage FROM sqlite_master WHERE name = 't_v'`).pluck().get());
  const pageSize = Number(database.pragma('page_size', { simple: true }));
  database.close();
  const bytes = readFileSync(file);
  const page = bytes.subarray((rootPage - 1) * pageSize, rootPage * pageSize);
  page[page.indexOf('value-5') + 4] = 'f'.charCodeAt(0);
  writeFileSync(file, bytes);
}

describe('backup', () => {
  it('names the folder by the time in BOT_TIMEZONE, with a suffix rather than over an existing one', async () => {
    const dataDir = dataDirWithState();
    const target = temporaryFolder();
    const options = { appVersion: '0.1.0', now: () => now, timeZone: 'Asia/Bangkok' };
    const first = await backupDataDir(dataDir, target, options);
    const second = await backupDataDir(dataDir, target, options);
    expect(path.basename(first.folder)).toBe('saeng-backup-20260301-090304');
    expect(path.basename(second.folder)).toBe('saeng-backup-20260301-090304-2');
    expect(readdirSync(target).sort()).toEqual(['saeng-backup-20260301-090304', 'saeng-backup-20260301-090304-2']);
    expect((await listBackups(target)).map((listed) => path.basename(listed.folder))).toEqual([
      'saeng-backup-20260301-090304',
      'saeng-backup-20260301-090304-2',
    ]);
  });

  it('records every file with its size and sha256, and leaves out the lock, write probes and -wal/-shm files', async () => {
    const dataDir = dataDirWithState();
    const storage = openStorage(dataDir); // open: state.db-wal and -shm exist
    await storage.history.set('telegram:1', [{ question: 'q', answer: 'a' }]);
    await storage.settings.set('telegram:-100', { language: 'en', quotaPerMinute: 3 });
    const release = claimDataDir(dataDir);
    writeFileSync(path.join(dataDir, 'file-links.key'), Buffer.alloc(32, 7));
    writeFileSync(path.join(dataDir, '.saeng-write-check-123'), '');
    mkdirSync(path.join(dataDir, 'files', 'chat'), { recursive: true });
    writeFileSync(path.join(dataDir, 'files', 'chat', 'รายงาน.md'), '# สรุป\n');
    symlinkSync('/etc/hostname', path.join(dataDir, 'files', 'chat', 'link.txt'));
    const { folder, manifest } = await backupDataDir(dataDir, temporaryFolder(), { appVersion: '9.8.7', now: () => now });
    release();
    storage.close();

    expect(manifest).toMatchObject({ format: 1, app: 'saeng', version: '9.8.7', createdAt: '2026-03-01T02:03:04.000Z' });
    expect(manifest.files.map((file) => file.path)).toEqual(['file-links.key', 'files/chat/รายงาน.md', 'state.db']);
    expect(manifest.skipped).toEqual([{ path: 'files/chat/link.txt', reason: 'symbolic-link' }]);
    for (const file of manifest.files) expect(await digestFile(path.join(folder, ...file.path.split('/')))).toEqual({ size: file.size, sha256: file.sha256 });
    expect(manifest.databases).toEqual([{ path: 'state.db', userVersion: 0, schemaVersion: expect.any(Number), integrity: 'ok' }]);
    expect(readdirSync(folder).sort()).toEqual(['file-links.key', 'files', 'manifest.json', 'state.db']);
    const written: unknown = JSON.parse(readFileSync(path.join(folder, 'manifest.json'), 'utf8'));
    expect(written).toEqual(manifest);
    // The copy holds what state.db holds: the history and each space's /settings.
    const copy = openStorage(folder);
    expect(await copy.history.get('telegram:1')).toEqual([{ question: 'q', answer: 'a' }]);
    expect(await copy.settings.get('telegram:-100')).toEqual({ language: 'en', quotaPerMinute: 3 });
    copy.close();
  });

  it('refuses a target inside DATA_DIR, and a DATA_DIR that does not exist', async () => {
    const dataDir = dataDirWithState();
    const inside = await refusal(backupDataDir(dataDir, path.join(dataDir, 'backups'), { appVersion: '0.1.0' }));
    expect(inside.describe('th')).toContain('DATA_DIR');
    expect(inside.message).toContain('inside DATA_DIR');
    const missing = path.join(temporaryFolder(), 'nothing-here');
    expect((await refusal(backupDataDir(missing, temporaryFolder(), { appVersion: '0.1.0' }))).message).toContain(missing);
  });

  it('records a database that fails integrity_check, and restore refuses that backup naming it', async () => {
    const dataDir = dataDirWithState();
    damagedDatabase(path.join(dataDir, 'extra.db'));
    const { folder, manifest } = await backupDataDir(dataDir, temporaryFolder(), { appVersion: '0.1.0' });
    const extra = manifest.databases.find((database) => database.path === 'extra.db');
    expect(extra?.integrity).toContain('missing from index t_v');
    const refused = await refusal(restoreDataDir(folder, dataDir));
    expect(refused.message).toContain('extra.db');
    expect(refused.describe('th')).toContain('ไม่ผ่านการตรวจ');
  });

  it('refuses a manifest naming a path outside the backup', async () => {
    const dataDir = dataDirWithState();
    const { folder, manifest } = await backupDataDir(dataDir, temporaryFolder(), { appVersion: '0.1.0' });
    const evil = { ...manifest, files: [...manifest.files, { path: '../escaped.txt', size: 1, sha256: '0'.repeat(64) }] };
    writeFileSync(path.join(folder, 'manifest.json'), JSON.stringify(evil));
    const refused = await refusal(restoreDataDir(folder, dataDir));
    expect(refused.message).toContain(path.join(folder, 'manifest.json'));
    expect(readdirSync(path.dirname(dataDir))).toEqual(['data']);
  });
});
