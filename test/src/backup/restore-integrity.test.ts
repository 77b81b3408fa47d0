import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { ConversationHistory } from '../../../agent/history.js';
import { backupDataDir, BackupError, restoreDataDir } from '../../../src/backup/index.js';
import { digestFile } from '../../../src/backup/file-digest.js';
import { readManifest, writeManifest } from '../../../src/backup/manifest.js';
import { SqliteInboundQueue } from '../../../src/queue/sqlite-inbound-queue.js';
import { silentLogger } from '../../../src/shared/log.js';
import { openStorage } from '../../../src/storage/storage.js';
import { cleanUp, temporaryFolder } from './backup-fixtures.js';

// A restore checks every restored database itself (PRAGMA integrity_check), not only the manifest's word: a database
// damaged after its check, with a manifest that agrees with the damaged bytes, is refused and DATA_DIR stays as it was.

afterEach(cleanUp);

async function dataDirWithStores(): Promise<string> {
  const dataDir = path.join(temporaryFolder(), 'data');
  const storage = openStorage(dataDir);
  const history = new ConversationHistory(storage.history);
  for (let turn = 0; turn < 20; turn++) await history.append(`telegram:${turn}`, { question: `คำถาม ${turn}`, answer: `คำตอบ ${turn}` });
  storage.close();
  new SqliteInboundQueue({ dataDir, dedupeTtlMs: 60_000, log: silentLogger() }).close();
  return dataDir;
}

/** Changes one byte of a key inside the keyv table's primary-key index: the table and its index disagree. */
function damageIndex(file: string): void {
  const database = new Database(file);
  const rootPage = Number(database.prepare(`SELECT rootpage FROM sqlite_master WHERE name = 'sqlite_autoindex_keyv_1'`).pluck().get());
  const pageSize = Number(database.pragma('page_size', { simple: true }));
  database.close();
  const bytes = readFileSync(file);
  const page = bytes.subarray((rootPage - 1) * pageSize, rootPage * pageSize);
  const at = page.indexOf('telegram:7');
  if (at < 0) throw new Error('key not found in the index page');
  page[at + 'telegram:'.length] = '8'.charCodeAt(0);
  writeFileSync(file, bytes);
}

/** Makes manifest.json agree with the bytes now in the backup (as if the damage came before the manifest). */
async function rewriteManifest(folder: string, file: string): Promise<void> {
  const manifest = await readManifest(folder);
  const digest = await digestFile(path.join(folder, file));
  rmSync(path.join(folder, 'manifest.json'));
  await writeManifest(folder, { ...manifest, files: manifest.files.map((entry) => (entry.path === file ? { ...entry, ...digest } : entry)) });
}

function snapshotOf(folder: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true }))
    if (entry.isFile())
      files.set(path.relative(folder, path.join(entry.parentPath, entry.name)), readFileSync(path.join(entry.parentPath, entry.name)).toString('base64'));
  return files;
}

async function refusal(promise: Promise<unknown>): Promise<BackupError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof BackupError)) throw new Error(`expected a BackupError, got ${String(error)}`);
  return error;
}

describe('restore checks every restored database itself', () => {
  it('a damaged index, the manifest agreeing with it: refused naming the file, DATA_DIR untouched, nothing left over', async () => {
    const dataDir = await dataDirWithStores();
    const { folder, manifest } = await backupDataDir(dataDir, temporaryFolder(), { appVersion: '0.1.0' });
    expect(manifest.databases.find((database) => database.path === 'state.db')?.integrity).toBe('ok');
    damageIndex(path.join(folder, 'state.db'));
    await rewriteManifest(folder, 'state.db');
    const before = snapshotOf(dataDir);

    const refused = await refusal(restoreDataDir(folder, dataDir));
    expect(refused.message).toMatch(/^the database state\.db restored from this backup fails its check \(integrity_check: .*\); nothing was restored/);
    expect(refused.describe('th')).toMatch(/^ฐานข้อมูล state\.db ที่นำกลับจากข้อมูลสำรองนี้ไม่ผ่านการตรวจ \(integrity_check: /);
    expect(snapshotOf(dataDir)).toEqual(before);
    expect(readdirSync(path.dirname(dataDir))).toEqual(['data']);
  });

  it('garbage in place of a database (its header gone too): refused as not a database', async () => {
    const dataDir = await dataDirWithStores();
    const { folder } = await backupDataDir(dataDir, temporaryFolder(), { appVersion: '0.1.0' });
    writeFileSync(path.join(folder, 'inbound.db'), Buffer.alloc(8192, 0x5a));
    await rewriteManifest(folder, 'inbound.db');
    const refused = await refusal(restoreDataDir(folder, dataDir));
    expect(refused.message).toContain('the database inbound.db restored from this backup fails its check (integrity_check: file is not a database');
    expect(readdirSync(path.dirname(dataDir))).toEqual(['data']);
  });

  it('an undamaged backup still restores', async () => {
    const dataDir = await dataDirWithStores();
    const { folder } = await backupDataDir(dataDir, temporaryFolder(), { appVersion: '0.1.0' });
    const result = await restoreDataDir(folder, dataDir);
    expect(result.setAside).toBeDefined();
  });
});
