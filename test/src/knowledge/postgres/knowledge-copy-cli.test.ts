import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openKnowledgeStore, type KnowledgeStore } from '../../../../src/knowledge/index.js';
import { silentLogger } from '../../../../src/shared/log.js';
import { makePdf, utf8 } from '../../../support/knowledge/documents.js';
import { freePort } from '../../../support/free-port.js';
import { startPostgresServer, type PostgresServer } from '../../../support/postgres-server.js';
import { postgresProgram, systemProgramPresent } from '../../../support/system-programs.js';

const postgresInstalled = systemProgramPresent(postgresProgram);

// `npm run kb-to-postgres` as an operator runs it: a real child process, DATA_DIR, DATABASE_URL and BOT_LANGUAGE from
// its environment; a real SQLite knowledge base (a PDF and a Markdown file) copied, then searched in PostgreSQL.

const root = path.resolve(import.meta.dirname, '../../../..');
const now = new Date('2026-03-01T09:00:00Z');
let server: PostgresServer;
let dataDir: string;
let knowledgeBaseId: string;
const queries = ['refund within 30 days', 'ร้านเปิดกี่โมง', 'warranty for the battery'];

beforeAll(async () => {
  server = await startPostgresServer();
  dataDir = mkdtempSync(path.join(tmpdir(), 'saeng-copy-'));
  const store = openKnowledgeStore({ path: path.join(dataDir, 'knowledge.db'), log: silentLogger() });
  const created = await store.createKnowledgeBase({ name: 'คู่มือ', description: 'store manual', spaceKey: 'telegram:-100', createdBy: 'telegram:1', now });
  if (!created.ok) throw new Error(created.reason);
  knowledgeBaseId = created.knowledgeBase.id;
  const pdf = await makePdf([['Returns: customers get a refund within 30 days.'], ['Warranty: the battery is covered for two years.']]);
  for (const [fileName, bytes] of [
    ['policy.pdf', pdf],
    ['hours.md', utf8('# เวลาเปิด\n\nร้านเปิดทุกวันเวลาเก้าโมงเช้าถึงหกโมงเย็น')],
  ] as const) {
    const added = await store.addDocument(knowledgeBaseId, { fileName, bytes, addedBy: 'telegram:1', now });
    if (!added.ok) throw new Error(added.failure.code);
  }
  await store.bind('telegram:-100', knowledgeBaseId, 'telegram:1', now);
  await store.close();
});
afterAll(() => {
  server.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function copyCli(args: string[], environment: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/knowledge-copy-cli.ts', ...args],
      { cwd: root, env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, ...environment }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

async function topHits(store: KnowledgeStore) {
  return Promise.all(
    queries.map(async (query) =>
      (await store.search([knowledgeBaseId], query, 3)).map((hit) => ({ title: hit.documentTitle, page: hit.page, text: hit.text })),
    ),
  );
}

describe.skipIf(!postgresInstalled)('kb-to-postgres', () => {
  it('copies everything, in Thai by default; the copy answers like the original; a second run refuses, --replace copies again', async () => {
    const databaseUrl = await server.createDatabase();
    const copied = await copyCli([], { DATABASE_URL: databaseUrl });
    expect(copied.stderr).toBe('');
    expect(copied.code).toBe(0);
    expect(copied.stdout).toContain('ฐานความรู้ 1 ฐาน, เอกสาร 2 ไฟล์');

    const sqlite = openKnowledgeStore({ path: path.join(dataDir, 'knowledge.db'), log: silentLogger() });
    const postgres = openKnowledgeStore({ databaseUrl, log: silentLogger() });
    try {
      const expected = await topHits(sqlite);
      expect(expected[0]?.[0]).toMatchObject({ title: 'policy.pdf', page: 1 });
      expect(expected[2]?.[0]).toMatchObject({ title: 'policy.pdf', page: 2 });
      expect(await topHits(postgres)).toEqual(expected);
      expect(await postgres.boundKnowledgeBaseIds('telegram:-100')).toEqual([knowledgeBaseId]);
      expect(await postgres.summarize(knowledgeBaseId)).toMatchObject({ name: 'คู่มือ', documentCount: 2, boundConversationCount: 1 });
      // New rows continue after the copied ids.
      const added = await postgres.addDocument(knowledgeBaseId, { fileName: 'new.txt', bytes: utf8('สินค้าใหม่มาถึงวันจันทร์'), addedBy: 'u', now });
      expect(added.ok).toBe(true);
    } finally {
      await sqlite.close();
      await postgres.close();
    }

    const refused = await copyCli([], { DATABASE_URL: databaseUrl, BOT_LANGUAGE: 'en' });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('already holds 1 knowledge bases: คู่มือ (telegram:-100)');
    const replaced = await copyCli(['--replace'], { DATABASE_URL: databaseUrl, BOT_LANGUAGE: 'en' });
    expect(replaced.code).toBe(0);
    expect(replaced.stdout).toContain('1 knowledge bases, 2 documents');
  });

  it('exits 2 for usage errors and 1 when PostgreSQL cannot be reached, without the password', async () => {
    expect((await copyCli(['extra'], { DATABASE_URL: server.url })).code).toBe(2);
    expect((await copyCli([], {})).code).toBe(2);
    const unreachable = await copyCli([], { DATABASE_URL: `postgres://saeng:hunter2@127.0.0.1:${await freePort()}/kb`, BOT_LANGUAGE: 'en' });
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toContain('ECONNREFUSED');
    expect(unreachable.stderr).not.toContain('hunter2');
  });
});
