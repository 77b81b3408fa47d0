// `npm run bench -- retrieval-postgres [--quick] [--dataset PATH] [--scale N]`
// The PostgreSQL knowledge store against the SQLite one in one run, on a PostgreSQL of its own
// (test/support/postgres-server.ts): recall on XQuAD-th (goal: within 0.01 of SQLite), then search latency on ≥ N
// synthesized chunks (goal: PostgreSQL p95 ≤ 30 ms), PostgreSQL's after the VACUUM (ANALYZE) an operator runs after a
// load. Both load through the store's own addDocument, which writes a document's chunks to PostgreSQL in one
// INSERT … SELECT FROM unnest() (its bulk path).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openKnowledgeStore, type KnowledgeStore } from '../src/knowledge/index.js';
import { vacuumAfterBulkLoad } from '../src/knowledge/postgres/index.js';
import { silentLogger } from '../src/shared/log.js';
import { startPostgresServer, type PostgresServer } from '../test/support/postgres-server.js';
import { isQuick, withQuickSettings } from './quick.js';
import { firstDocuments, loadDataset, loadScale, measureQuality, percentile, quickDocuments, timeSearches, type Dataset } from './retrieval.js';

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function option(argv: readonly string[], name: string): string | undefined {
  const index = argv.indexOf(name);
  return index >= 0 ? argv[index + 1] : undefined;
}

async function withStore<T>(store: KnowledgeStore, work: (store: KnowledgeStore) => Promise<T>): Promise<T> {
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

async function scale(store: KnowledgeStore, dataset: Dataset, targetChunks: number, afterLoad?: () => Promise<void>): Promise<Record<string, number>> {
  const loaded = await loadScale(store, dataset, targetChunks);
  const vacuumStarted = performance.now();
  await afterLoad?.();
  const vacuumMs = Math.round(performance.now() - vacuumStarted);
  const times = await timeSearches(store, loaded.knowledgeBaseId, dataset);
  return {
    chunks: loaded.chunks,
    loadMs: Math.round(loaded.indexMs),
    ...(afterLoad ? { vacuumMs } : {}),
    chunksPerSecond: Math.round((loaded.chunks / loaded.indexMs) * 1000),
    queries: times.length,
    queryP50Ms: percentile(times, 0.5),
    queryP95Ms: percentile(times, 0.95),
  };
}

export async function measurePostgresRetrieval(options: { datasetPath?: string; scaleChunks?: number; quick?: boolean } = {}): Promise<object> {
  const datasetPath = options.datasetPath ?? join(projectRoot, 'test/fixtures/knowledge/xquad.th.json');
  const scaleChunks = options.scaleChunks ?? 100_000;
  const whole = loadDataset(datasetPath);
  const dataset = options.quick ? firstDocuments(whole, quickDocuments) : whole;
  const server: PostgresServer = await startPostgresServer();
  const directory = mkdtempSync(join(tmpdir(), 'saeng-retrieval-pg-'));
  try {
    const postgres = (database: string) => openKnowledgeStore({ databaseUrl: database, log: silentLogger(), maxTextCharacters: 10_000_000 });
    const sqliteQuality = await withStore(openKnowledgeStore({ path: ':memory:', log: silentLogger() }), (store) => measureQuality(store, dataset));
    const postgresQuality = await withStore(postgres(await server.createDatabase()), (store) => measureQuality(store, dataset));
    const sqliteScale =
      scaleChunks > 0
        ? await withStore(openKnowledgeStore({ path: join(directory, 'knowledge.db'), log: silentLogger(), maxTextCharacters: 10_000_000 }), (store) =>
            scale(store, dataset, scaleChunks),
          )
        : undefined;
    // VACUUM (ANALYZE) after the load, as kb-to-postgres does and an operator would (vacuum-after-bulk-load.ts).
    const scaleDatabase = scaleChunks > 0 ? await server.createDatabase() : undefined;
    const postgresScale = scaleDatabase
      ? await withStore(postgres(scaleDatabase), (store) => scale(store, dataset, scaleChunks, () => vacuumAfterBulkLoad(scaleDatabase)))
      : undefined;
    const recallGap = Math.round(Math.abs(postgresQuality.recallAt5 - sqliteQuality.recallAt5) * 1000) / 1000;
    return {
      dataset: datasetPath,
      quick: options.quick === true,
      documents: dataset.documents.length,
      questions: dataset.questions.length,
      quality: { sqlite: sqliteQuality, postgres: postgresQuality },
      scale: { sqlite: sqliteScale, postgres: postgresScale },
      targets: {
        recallAt5Gap: { target: 0.01, value: recallGap, met: recallGap <= 0.01 },
        postgresScaleQueryP95Ms: {
          target: 30,
          value: postgresScale?.queryP95Ms,
          met: postgresScale ? (postgresScale.queryP95Ms ?? Infinity) <= 30 : undefined,
        },
      },
    };
  } finally {
    server.close();
    rmSync(directory, { recursive: true, force: true });
  }
}

export async function main(given: string[]): Promise<void> {
  const argv = withQuickSettings(given, ['--scale', '2000']);
  const datasetPath = option(argv, '--dataset');
  const scaleChunks = Number(option(argv, '--scale') ?? 100_000);
  if (!Number.isInteger(scaleChunks) || scaleChunks < 0) throw new Error('--scale takes a whole number');
  const report = await measurePostgresRetrieval({ ...(datasetPath ? { datasetPath: resolve(datasetPath) } : {}), scaleChunks, quick: isQuick(argv) });
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
}
