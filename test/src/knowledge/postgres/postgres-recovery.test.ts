import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openKnowledgeStore, type PostgresKnowledgeStore } from '../../../../src/knowledge/index.js';
import { utf8 } from '../../../support/knowledge/documents.js';
import { memoryLog } from '../../../support/memory-log.js';
import { startPostgresServer, type PostgresServer } from '../../../support/postgres-server.js';
import { postgresProgram, systemProgramPresent } from '../../../support/system-programs.js';

const postgresInstalled = systemProgramPresent(postgresProgram);

// PostgreSQL goes away and comes back: the pool's error event is handled (no crash), calls reject while it is down
// and work again once it answers. This file stops its own server, so it has one of its own.

let server: PostgresServer;
beforeAll(async () => {
  server = await startPostgresServer();
});
afterAll(() => server.close());

describe.skipIf(!postgresInstalled)('PostgreSQL down and up again', () => {
  it('rejects searches while the server is down and answers again when it is back', async () => {
    const { log, records } = memoryLog('warn');
    const store: PostgresKnowledgeStore = openKnowledgeStore({ databaseUrl: await server.createDatabase(), log });
    try {
      await store.ready();
      const created = await store.createKnowledgeBase({ name: 'faq', description: '', spaceKey: 's', createdBy: 'u', now: new Date() });
      if (!created.ok) throw new Error(created.reason);
      const id = created.knowledgeBase.id;
      const added = await store.addDocument(id, { fileName: 'hours.txt', bytes: utf8('ร้านเปิดทุกวันเวลาเก้าโมงเช้า'), addedBy: 'u', now: new Date() });
      expect(added.ok).toBe(true);
      expect((await store.search([id], 'ร้านเปิดกี่โมง', 3)).length).toBe(1);

      server.stop();
      // The idle connection the server closed became a pool error event: logged, not thrown (else the process dies).
      await vi.waitFor(() => expect(records.map((record) => record.msg)).toContain('knowledge: PostgreSQL connection lost'), { timeout: 5000 });
      await expect(store.search([id], 'ร้านเปิดกี่โมง', 3)).rejects.toThrow(/ECONNREFUSED/);

      server.start();
      const hits = await vi.waitFor(() => store.search([id], 'ร้านเปิดกี่โมง', 3), { timeout: 10_000, interval: 100 });
      expect(hits[0]?.text).toBe('ร้านเปิดทุกวันเวลาเก้าโมงเช้า');
    } finally {
      await store.close();
    }
  });
});
