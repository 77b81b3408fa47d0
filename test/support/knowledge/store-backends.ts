import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach } from 'vitest';
import { openKnowledgeStore, type KnowledgeStore } from '../../../src/knowledge/index.js';
import type { KnowledgeStoreCommonOptions } from '../../../src/knowledge/knowledge-backend.js';
import { silentLogger } from '../../../src/shared/log.js';
import { startPostgresServer, type PostgresServer } from '../postgres-server.js';
import { postgresProgram, systemProgramPresent } from '../system-programs.js';

// The store tests run against every backend: `describe.each(storeBackends())`. One PostgreSQL server per test
// file (started on first use), a fresh database per store; stores are closed after each test. Without PostgreSQL
// installed, SQLite alone (and a note for the run's summary line).

export type StoreTestOptions = Partial<KnowledgeStoreCommonOptions>;

export interface StoreBackend {
  name: 'sqlite' | 'postgres';
  /** A new empty place for a store: a SQLite file in a temporary folder, or a new PostgreSQL database. */
  place(): Promise<string>;
  /** A store at `place`, or at a fresh place of its own; closed after the test. */
  open(options?: StoreTestOptions, place?: string): Promise<KnowledgeStore>;
}

/** Registers the hooks; call once at the top of a test file. */
export function storeBackends(): StoreBackend[] {
  let server: PostgresServer | undefined;
  let starting: Promise<PostgresServer> | undefined;
  const stores: KnowledgeStore[] = [];
  const directories: string[] = [];
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
  });
  afterAll(() => {
    server?.close();
    for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
  });
  const postgres = async (): Promise<PostgresServer> => {
    starting ??= startPostgresServer().then((started) => (server = started));
    return starting;
  };
  const withDefaults = (options: StoreTestOptions = {}) => ({ log: silentLogger(), ...options });

  const backends: StoreBackend[] = [
    {
      name: 'sqlite',
      async place() {
        const directory = mkdtempSync(join(tmpdir(), 'saeng-kb-'));
        directories.push(directory);
        return join(directory, 'nested', 'knowledge.db');
      },
      async open(options, place = ':memory:') {
        const store = openKnowledgeStore({ ...withDefaults(options), path: place });
        stores.push(store);
        return store;
      },
    },
    {
      name: 'postgres',
      place: async () => (await postgres()).createDatabase(),
      async open(options, place) {
        const databaseUrl = place ?? (await (await postgres()).createDatabase());
        const store = openKnowledgeStore({ ...withDefaults(options), databaseUrl });
        stores.push(store);
        await store.ready();
        return store;
      },
    },
  ];
  return systemProgramPresent(postgresProgram) ? backends : backends.filter((backend) => backend.name !== 'postgres');
}
