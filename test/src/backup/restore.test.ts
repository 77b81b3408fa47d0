import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConversationHistory } from '../../../agent/history.js';
import { backupDataDir, BackupError, claimDataDir, DataDirInUseError, pidFileName, restoreDataDir } from '../../../src/backup/index.js';
import { SqliteInboundQueue } from '../../../src/queue/sqlite-inbound-queue.js';
import { openKnowledgeStore, type KnowledgeStore } from '../../../src/knowledge/index.js';
import { silentLogger } from '../../../src/shared/log.js';
import { openStorage, type Storage } from '../../../src/storage/storage.js';
import { inboundMessage } from '../../support/inbound-message.js';
import { utf8 } from '../../support/knowledge/documents.js';
import { cleanUp, deadPid, flipOneByte, livePid, temporaryFolder, writePidFile } from './backup-fixtures.js';

// Backup and restore through the real stores: what the bot wrote comes back, the data it replaced is kept aside,
// and a restore that could lose data (a running bot, a damaged backup) changes nothing.

const now = new Date('2026-03-01T09:00:00Z');
const conversation = 'telegram:-100';
const notes = path.join('files', 'telegram_-100-abc', 'notes.txt');

interface Bot {
  knowledge: KnowledgeStore;
  storage: Storage;
  history: ConversationHistory;
  inbound: SqliteInboundQueue;
  close(): Promise<void>;
}

function openBot(dataDir: string): Bot {
  const knowledge = openKnowledgeStore({ path: path.join(dataDir, 'knowledge.db'), log: silentLogger() });
  const storage = openStorage(dataDir);
  const inbound = new SqliteInboundQueue({ dataDir, dedupeTtlMs: 3_600_000, log: silentLogger() });
  return {
    knowledge,
    storage,
    history: new ConversationHistory(storage.history),
    inbound,
    close: async () => {
      await knowledge.close();
      storage.close();
      inbound.close();
    },
  };
}

/** A DATA_DIR as a running bot leaves it: a knowledge base with a document, a history, a queued message, a file. */
async function seededDataDir(): Promise<{ dataDir: string; bot: Bot; knowledgeBaseId: string }> {
  const dataDir = path.join(temporaryFolder(), 'data');
  const bot = openBot(dataDir);
  const created = await bot.knowledge.createKnowledgeBase({ name: 'ร้าน', description: 'เวลาเปิดร้าน', spaceKey: conversation, createdBy: 'telegram:42', now });
  if (!created.ok) throw new Error(created.reason);
  const added = await bot.knowledge.addDocument(created.knowledgeBase.id, {
    fileName: 'hours.txt',
    bytes: utf8('ร้านเปิดทุกวันตั้งแต่เก้าโมงเช้าถึงสองทุ่ม'),
    addedBy: 'telegram:42',
    now,
  });
  if (!added.ok) throw new Error(added.failure.code);
  await bot.knowledge.bind(conversation, created.knowledgeBase.id, 'telegram:42', now);
  await bot.history.append(conversation, { question: 'ร้านเปิดกี่โมง', answer: 'เก้าโมงเช้าครับ' });
  await bot.inbound.accept(inboundMessage({ messageId: '7', text: 'ยังไม่ได้ตอบ' }));
  mkdirSync(path.join(dataDir, path.dirname(notes)), { recursive: true });
  writeFileSync(path.join(dataDir, notes), 'บันทึกของลูกค้า\n');
  return { dataDir, bot, knowledgeBaseId: created.knowledgeBase.id };
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

/** Every file under a folder with its bytes, to prove a refused restore changed nothing. */
function snapshotOf(folder: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
    if (entry.isFile())
      files.set(path.relative(folder, path.join(entry.parentPath, entry.name)), readFileSync(path.join(entry.parentPath, entry.name)).toString('base64'));
  }
  return files;
}

afterEach(cleanUp);

describe('restore', () => {
  it('puts knowledge bases, histories, queued messages and files back, keeping the replaced DATA_DIR aside', async () => {
    const { dataDir, bot, knowledgeBaseId } = await seededDataDir();
    // Taken while the bot has everything open.
    const { folder, manifest } = await backupDataDir(dataDir, temporaryFolder(), { appVersion: '0.1.0', now: () => now, timeZone: 'Asia/Bangkok' });
    expect(path.basename(folder)).toBe('saeng-backup-20260301-160000');
    expect(manifest.files.map((file) => file.path).sort()).toEqual(['files/telegram_-100-abc/notes.txt', 'inbound.db', 'knowledge.db', 'state.db']);
    expect(manifest.databases.map((database) => [database.path, database.integrity])).toEqual([
      ['inbound.db', 'ok'],
      ['knowledge.db', 'ok'],
      ['state.db', 'ok'],
    ]);
    expect(readdirSync(folder).filter((name) => /-(wal|shm)$/.test(name))).toEqual([]);

    // Then the data is lost: the knowledge base deleted, the history cleared, the file overwritten.
    await bot.knowledge.deleteKnowledgeBase(knowledgeBaseId);
    await bot.history.clear(conversation);
    writeFileSync(path.join(dataDir, notes), 'overwritten\n');
    await bot.close();

    const result = await restoreDataDir(folder, dataDir, { now: () => now, timeZone: 'Asia/Bangkok' });
    expect(result.setAside).toBe(`${dataDir}.before-restore-20260301-160000`);
    const restored = openBot(dataDir);
    try {
      const knowledgeBases = await restored.knowledge.listKnowledgeBases();
      expect(knowledgeBases.map((knowledgeBase) => knowledgeBase.name)).toEqual(['ร้าน']);
      expect(await restored.knowledge.boundKnowledgeBaseIds(conversation)).toEqual([knowledgeBaseId]);
      const hits = await restored.knowledge.search([knowledgeBaseId], 'ร้านเปิดกี่โมง', 3);
      expect(hits[0]?.text).toContain('เก้าโมงเช้า');
      expect(await restored.history.load(conversation)).toEqual([expect.objectContaining({ question: 'ร้านเปิดกี่โมง' })]);
      expect((await restored.inbound.next(conversation))?.message.text).toBe('ยังไม่ได้ตอบ');
      expect(readFileSync(path.join(dataDir, notes), 'utf8')).toBe('บันทึกของลูกค้า\n');
    } finally {
      await restored.close();
    }

    // The replaced data is kept, as it was.
    const setAside = result.setAside ?? '';
    expect(readFileSync(path.join(setAside, notes), 'utf8')).toBe('overwritten\n');
    const previous = openBot(setAside);
    expect(await previous.knowledge.listKnowledgeBases()).toEqual([]);
    await previous.close();
    for (const folderName of [dataDir, setAside]) expect(existsSync(path.join(folderName, pidFileName))).toBe(false);
    expect(readdirSync(path.dirname(dataDir)).filter((name) => name.includes('.restoring-'))).toEqual([]);
  });

  it('refuses while a live process holds DATA_DIR, and changes nothing', async () => {
    const { dataDir, bot } = await seededDataDir();
    const { folder } = await backupDataDir(dataDir, temporaryFolder(), { appVersion: '0.1.0' });
    await bot.close();
    const pid = await livePid();
    writePidFile(dataDir, pid);
    const before = snapshotOf(dataDir);
    const refused = await refusal(restoreDataDir(folder, dataDir));
    expect(refused).toBeInstanceOf(DataDirInUseError);
    expect(refused.describe('en')).toContain(`pid ${pid}`);
    expect(snapshotOf(dataDir)).toEqual(before);
    expect(readdirSync(path.dirname(dataDir))).toEqual(['data']);

    // This process holding the claim (a bot started in it) is refused the same way.
    rmSync(path.join(dataDir, pidFileName));
    const release = claimDataDir(dataDir);
    expect(await refusal(restoreDataDir(folder, dataDir))).toBeInstanceOf(DataDirInUseError);
    release();
  });

  it('a pid file whose pid now belongs to another process (or to this one, unclaimed) is stale', async () => {
    const { dataDir, bot } = await seededDataDir();
    const { folder } = await backupDataDir(dataDir, temporaryFolder(), { appVersion: '0.1.0' });
    await bot.close();
    // A container restarted on the same volume: its new bot got the very pid the old file names.
    writePidFile(dataDir, process.pid);
    expect((await restoreDataDir(folder, dataDir)).setAside).toBeDefined();
    // A live pid reused by another program: its start time is not the one the claim recorded.
    const pid = await livePid();
    writeFileSync(path.join(dataDir, pidFileName), `${JSON.stringify({ pid, startedAt: '2026-03-01T09:00:00.000Z', processStart: '1' })}\n`);
    expect((await restoreDataDir(folder, dataDir)).setAside).toBeDefined();
  });

  it('accepts a stale pid file left by a crashed bot', async () => {
    const { dataDir, bot } = await seededDataDir();
    const { folder } = await backupDataDir(dataDir, temporaryFolder(), { appVersion: '0.1.0' });
    await bot.close();
    writePidFile(dataDir, await deadPid());
    const result = await restoreDataDir(folder, dataDir);
    expect(existsSync(path.join(dataDir, 'knowledge.db'))).toBe(true);
    expect(existsSync(path.join(result.setAside ?? '', 'knowledge.db'))).toBe(true);
    // Our own claim is gone from both; a bot can start now.
    claimDataDir(dataDir)();
  });

  it.each([notes, 'knowledge.db'])('refuses a backup with one byte flipped in %s, naming the file, and changes nothing', async (damaged) => {
    const { dataDir, bot } = await seededDataDir();
    const { folder } = await backupDataDir(dataDir, temporaryFolder(), { appVersion: '0.1.0' });
    await bot.close();
    flipOneByte(path.join(folder, damaged));
    const before = snapshotOf(dataDir);
    const refused = await refusal(restoreDataDir(folder, dataDir));
    expect(refused.describe('th')).toContain(path.join(folder, damaged));
    expect(refused.describe('th')).toContain('เสียหาย');
    expect(refused.message).toContain('damaged');
    expect(snapshotOf(dataDir)).toEqual(before);
    expect(readdirSync(path.dirname(dataDir))).toEqual(['data']);
  });

  it('refuses a backup with a file missing, naming it', async () => {
    const { dataDir, bot } = await seededDataDir();
    const { folder } = await backupDataDir(dataDir, temporaryFolder(), { appVersion: '0.1.0' });
    await bot.close();
    rmSync(path.join(folder, 'state.db'));
    const refused = await refusal(restoreDataDir(folder, dataDir));
    expect(refused.message).toContain(`the backup is incomplete: ${path.join(folder, 'state.db')}`);
    expect(readdirSync(path.dirname(dataDir))).toEqual(['data']);
  });

  it('restores onto a machine with no DATA_DIR yet', async () => {
    const { dataDir, bot } = await seededDataDir();
    const { folder } = await backupDataDir(dataDir, temporaryFolder(), { appVersion: '0.1.0' });
    await bot.close();
    const fresh = path.join(temporaryFolder(), 'new-machine', 'data');
    const result = await restoreDataDir(folder, fresh);
    expect(result.setAside).toBeUndefined();
    const restored = openBot(fresh);
    expect((await restored.knowledge.listKnowledgeBases()).map((knowledgeBase) => knowledgeBase.name)).toEqual(['ร้าน']);
    await restored.close();
  });
});
