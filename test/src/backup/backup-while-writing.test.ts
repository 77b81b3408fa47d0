import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { statSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { backupDataDir } from '../../../src/backup/index.js';
import { openKnowledgeStore, type KnowledgeStore } from '../../../src/knowledge/index.js';
import { silentLogger } from '../../../src/shared/log.js';
import { cleanUp, temporaryFolder } from './backup-fixtures.js';

// A backup taken while knowledge.db is being written must be a consistent snapshot: it passes integrity_check and
// holds every knowledge base committed before it started, including those still only in the -wal file.

const root = path.resolve(import.meta.dirname, '../../..');
const now = new Date('2026-03-01T09:00:00Z');
const stores: KnowledgeStore[] = [];

afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  await cleanUp();
});

function openStore(file: string): KnowledgeStore {
  const store = openKnowledgeStore({ path: file, log: silentLogger() });
  stores.push(store);
  return store;
}

async function names(file: string): Promise<string[]> {
  const store = openStore(file);
  const listed = (await store.listKnowledgeBases()).map((knowledgeBase) => knowledgeBase.name);
  await store.close();
  stores.splice(stores.indexOf(store), 1);
  return listed;
}

function integrity(file: string): string {
  const database = new Database(file, { readonly: true });
  try {
    return String(database.pragma('integrity_check', { simple: true }));
  } finally {
    database.close();
  }
}

describe('backup of a database being written', () => {
  it('copies a consistent snapshot when another connection writes between backup steps', async () => {
    const dataDir = path.join(temporaryFolder(), 'data');
    const knowledgeFile = path.join(dataDir, 'knowledge.db');
    const store = openStore(knowledgeFile);
    for (let index = 0; index < 200; index++) {
      const created = await store.createKnowledgeBase({
        name: `before-${index}`,
        description: 'x'.repeat(300),
        spaceKey: 'telegram:-100',
        createdBy: 'telegram:42',
        now,
      });
      if (!created.ok) throw new Error(created.reason);
    }
    // The store stays open, so the commits are still in knowledge.db-wal: a copy of knowledge.db alone lacks them.
    expect(statSync(`${knowledgeFile}-wal`).size).toBeGreaterThan(0);

    const writer = new Database(knowledgeFile);
    const insert = writer.prepare(
      `INSERT INTO knowledge_bases (id, name, name_key, description, space_key, created_by, created_at) VALUES (?, ?, ?, '', 'telegram:-100', 'telegram:42', 0)`,
    );
    let written = 0;
    let steps = 0;
    const { folder, manifest } = await backupDataDir(dataDir, temporaryFolder(), {
      appVersion: '0.1.0',
      snapshot: {
        pagesPerStep: 1,
        onStep: () => {
          steps++;
          // Writes interleaved with the first steps; then the copy may finish.
          if (written < 20) {
            const name = `during-${String(written).padStart(2, '0')}`;
            insert.run(`kbduring${String(written).padStart(4, '0')}`, name, name);
            written++;
          }
        },
      },
    });
    writer.close();
    expect(steps).toBeGreaterThan(20);
    expect(written).toBe(20);

    const copy = path.join(folder, 'knowledge.db');
    expect(integrity(copy)).toBe('ok');
    expect(manifest.databases).toEqual([expect.objectContaining({ path: 'knowledge.db', integrity: 'ok', userVersion: 2 })]);
    const copied = await names(copy);
    for (let index = 0; index < 200; index++) expect(copied).toContain(`before-${index}`);
    // A snapshot, not a mixture: the writes made during the backup that it holds are the first ones, in order.
    const during = copied.filter((name) => name.startsWith('during-')).sort();
    expect(during).toEqual(Array.from({ length: during.length }, (_, index) => `during-${String(index).padStart(2, '0')}`));
  });

  it('copies a consistent snapshot while another process writes without pause', async () => {
    const dataDir = path.join(temporaryFolder(), 'data');
    const knowledgeFile = path.join(dataDir, 'knowledge.db');
    openStore(knowledgeFile); // creates the schema before the writer starts
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/src/backup/continuous-writer.ts', knowledgeFile], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = once(child, 'exit');
    try {
      if (!child.stdout) throw new Error('no stdout');
      await once(child.stdout, 'data'); // "ready": the writer has committed and goes on writing
      const before = await names(knowledgeFile);
      expect(before.length).toBeGreaterThan(50);
      const { folder } = await backupDataDir(dataDir, temporaryFolder(), { appVersion: '0.1.0' });
      expect(child.exitCode).toBeNull(); // still writing when the backup was done
      const copy = path.join(folder, 'knowledge.db');
      expect(integrity(copy)).toBe('ok');
      const copied = new Set(await names(copy));
      expect(before.filter((name) => !copied.has(name))).toEqual([]);
    } finally {
      child.kill();
      await exited;
    }
  });
});
