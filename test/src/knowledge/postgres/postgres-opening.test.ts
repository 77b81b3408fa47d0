import { readFileSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkPostgres, openKnowledgeStore, PostgresConnectionError, type KnowledgeStore } from '../../../../src/knowledge/index.js';
import { hasVectorColumn, migrate, migrations } from '../../../../src/knowledge/postgres/schema-migrations.js';
import { silentLogger } from '../../../../src/shared/log.js';
import { utf8 } from '../../../support/knowledge/documents.js';
import { freePort } from '../../../support/free-port.js';
import { startPostgresServer, withPool, type PostgresServer } from '../../../support/postgres-server.js';
import { postgresProgram, systemProgramPresent } from '../../../support/system-programs.js';

const postgresInstalled = systemProgramPresent(postgresProgram);

// PostgreSQL only: migrations once and under concurrency, plain error text without the password, and the same
// ranking as the SQLite backend on the XQuAD-th sample.

let server: PostgresServer;
const now = new Date('2026-03-01T09:00:00Z');

beforeAll(async () => {
  server = await startPostgresServer();
});
afterAll(() => server.close());

describe.skipIf(!postgresInstalled)('migrations', () => {
  it('run once when several processes open the same new database at the same moment, and never again', async () => {
    const url = await server.createDatabase();
    const pools = Array.from({ length: 4 }, () => new pg.Pool({ connectionString: url }));
    try {
      const ran = await Promise.all(pools.map((pool) => migrate(pool)));
      expect(ran.flat().sort()).toEqual(migrations.map((migration) => migration.version));
      expect(await migrate(pools[0] ?? new pg.Pool())).toEqual([]);
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
    }
    const recorded = await withPool(url, (pool) => pool.query('SELECT version FROM knowledge_schema_migrations ORDER BY version'));
    expect(recorded.rows.map((row) => z.object({ version: z.number() }).parse(row).version)).toEqual(migrations.map((migration) => migration.version));
  });

  // Debian 12 has no pgvector package, so CI runs the fallback; a machine with the extension runs the pgvector path
  // in every store test (embeddings.test.ts ranks through it), and this says which one ran.
  it('adds the pgvector column exactly when the extension is installed', async () => {
    const url = await server.createDatabase();
    const hasColumn = await withPool(url, async (pool) => {
      await migrate(pool);
      return hasVectorColumn(pool);
    });
    expect(hasColumn).toBe(server.hasVector);
  });

  it('lets stores opened together all work on one database', async () => {
    const url = await server.createDatabase();
    const stores = Array.from({ length: 3 }, () => openKnowledgeStore({ databaseUrl: url, log: silentLogger() }));
    try {
      await Promise.all(stores.map((store) => store.ready()));
      const [first, second] = stores;
      const created = await first?.createKnowledgeBase({ name: 'faq', description: '', spaceKey: 's', createdBy: 'u', now });
      if (!created?.ok) throw new Error('not created');
      expect((await second?.getKnowledgeBase(created.knowledgeBase.id))?.name).toBe('faq');
    } finally {
      await Promise.all(stores.map((store) => store.close()));
    }
  });
});

describe.skipIf(!postgresInstalled)('opening errors name the server, never the password', () => {
  it('says nothing answers (ECONNREFUSED) for a port without a server', async () => {
    const url = `postgres://saeng:hunter2-secret@127.0.0.1:${await freePort()}/knowledge`;
    const store = openKnowledgeStore({ databaseUrl: url, log: silentLogger() });
    const failure = await store.ready().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(PostgresConnectionError);
    const message = failure instanceof PostgresConnectionError ? failure.message : '';
    expect(message).toContain('ECONNREFUSED');
    expect(message).toContain(`postgres://saeng@127.0.0.1:`);
    expect(message).not.toContain('hunter2');
    expect(failure instanceof PostgresConnectionError && failure.describe('th')).toContain('ไม่มี PostgreSQL ตอบ');
    // Methods reject too (each tries to open again), with the same plain words.
    await expect(store.listKnowledgeBases()).rejects.toThrow(/ECONNREFUSED/);
    await store.close();
    await expect(checkPostgres(url)).rejects.toThrow(/ECONNREFUSED/);
  });

  it('says the database does not exist', async () => {
    const url = server.url.replace('postgres@', 'postgres:hunter2-secret@').replace(/\/postgres$/, '/no_such_database');
    const store = openKnowledgeStore({ databaseUrl: url, log: silentLogger() });
    const failure = await store.ready().then(
      () => new Error('opened'),
      (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
    );
    expect(failure.message).toMatch(/does not exist/);
    expect(failure.message).toContain('no_such_database');
    expect(failure.message).not.toContain('hunter2');
    await store.close();
    await expect(checkPostgres(url)).rejects.toThrow(/does not exist/);
  });

  it('checkPostgres resolves for a server that answers', async () => {
    await expect(checkPostgres(server.url)).resolves.toBeUndefined();
  });
});

const squadSample = z.object({
  data: z.array(z.object({ title: z.string(), paragraphs: z.array(z.object({ context: z.string(), qas: z.array(z.object({ question: z.string() })) })) })),
});

describe.skipIf(!postgresInstalled)('ranking', () => {
  it('gives the same hits, in the same order and with the same scores, as the SQLite backend', async () => {
    const sample = squadSample.parse(JSON.parse(readFileSync(new URL('../../../fixtures/knowledge/xquad-th-sample.json', import.meta.url), 'utf8')));
    const postgres = openKnowledgeStore({ databaseUrl: await server.createDatabase(), log: silentLogger() });
    const sqlite = openKnowledgeStore({ path: ':memory:', log: silentLogger() });
    const stores: KnowledgeStore[] = [sqlite, postgres];
    try {
      const ids: string[] = [];
      for (const store of stores) {
        const created = await store.createKnowledgeBase({ name: 'xquad', description: '', spaceKey: 's', createdBy: 'u', now });
        if (!created.ok) throw new Error(created.reason);
        ids.push(created.knowledgeBase.id);
        for (const article of sample.data)
          for (const [index, paragraph] of article.paragraphs.entries()) {
            const added = await store.addDocument(created.knowledgeBase.id, {
              fileName: `${article.title}-${index + 1}.txt`,
              bytes: utf8(paragraph.context),
              addedBy: 'u',
              now,
            });
            if (!added.ok) throw new Error(added.failure.code);
          }
      }
      const questions = sample.data.flatMap((article) => article.paragraphs.flatMap((paragraph) => paragraph.qas.map((qa) => qa.question)));
      for (const question of questions) {
        const [fromSqlite, fromPostgres] = await Promise.all(stores.map((store, index) => store.search([ids[index] ?? ''], question, 5)));
        expect(fromPostgres?.map((hit) => [hit.documentTitle, hit.position])).toEqual(fromSqlite?.map((hit) => [hit.documentTitle, hit.position]));
        fromPostgres?.forEach((hit, index) => expect(hit.score).toBeCloseTo(fromSqlite?.[index]?.score ?? NaN, 6));
      }
    } finally {
      for (const store of stores) await store.close();
    }
  });
});
