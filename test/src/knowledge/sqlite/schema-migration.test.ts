import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openKnowledgeStore } from '../../../../src/knowledge/index.js';
import { schemaVersion } from '../../../../src/knowledge/sqlite/schema.js';
import { silentLogger } from '../../../../src/shared/log.js';
import { makePdf, utf8 } from '../../../support/knowledge/documents.js';

const now = new Date('2026-03-01T09:00:00Z');
const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

function columnsOfChunks(path: string): string[] {
  const database = new BetterSqlite3(path, { readonly: true });
  try {
    return database
      .prepare('SELECT name FROM pragma_table_info(?)')
      .pluck()
      .all('chunks')
      .map((name) => String(name));
  } finally {
    database.close();
  }
}

describe('knowledge.db schema migration', () => {
  it('a version 1 database (chunks without page) keeps its documents and gains the page column', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'saeng-kb-migration-'));
    directories.push(directory);
    const path = join(directory, 'knowledge.db');
    const before = openKnowledgeStore({ path, log: silentLogger() });
    const created = await before.createKnowledgeBase({ name: 'faq', description: '', spaceKey: 'discord:guild-1', createdBy: 'discord:admin', now });
    if (!created.ok) throw new Error(created.reason);
    const id = created.knowledgeBase.id;
    await before.addDocument(id, { fileName: 'old.pdf', bytes: await makePdf([['Refund policy: 30 days.']]), addedBy: 'discord:admin', now });
    await before.close();
    // What version 1 wrote: the same tables, no page column.
    const old = new BetterSqlite3(path);
    old.exec('ALTER TABLE chunks DROP COLUMN page');
    old.pragma('user_version = 1');
    old.close();
    expect(columnsOfChunks(path)).not.toContain('page');

    const after = openKnowledgeStore({ path, log: silentLogger() });
    try {
      expect(columnsOfChunks(path)).toContain('page');
      const [oldHit] = await after.search([id], 'refund policy', 1);
      expect(oldHit).toMatchObject({ documentTitle: 'old.pdf', text: 'Refund policy: 30 days.' });
      expect(oldHit && 'page' in oldHit).toBe(false);
      await after.addDocument(id, { fileName: 'new.pdf', bytes: await makePdf([['Shipping takes 3 days.']]), addedBy: 'discord:admin', now });
      await after.addDocument(id, { fileName: 'notes.txt', bytes: utf8('Gift wrapping is free.'), addedBy: 'discord:admin', now });
      expect((await after.search([id], 'shipping', 1))[0]).toMatchObject({ documentTitle: 'new.pdf', page: 1 });
      expect((await after.search([id], 'gift wrapping', 1))[0]).not.toHaveProperty('page');
    } finally {
      await after.close();
    }
    const database = new BetterSqlite3(path, { readonly: true });
    expect(database.pragma('user_version', { simple: true })).toBe(schemaVersion);
    database.close();
    // Opening again migrates nothing twice.
    await openKnowledgeStore({ path, log: silentLogger() }).close();
  });
});
