import { statfsSync, renameSync, writeFileSync } from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { startHttpServer } from '../../src/http.js';
import { Metrics } from '../../src/metrics.js';
import { PlatformStates } from '../../src/platforms.js';
import { healthAnswer, readinessAnswer } from '../../src/readiness.js';
import { startFakeModelServer, type FakeModelServer } from '../fakes/model-server.js';
import { memoryLog } from '../support/memory-log.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

// /readyz and the stores under it: a SQLite file that cannot be read (overwritten, deleted under the running bot)
// and a disk below DATA_DIR_MIN_FREE_MB answer 503 naming the reason. The threshold is injected, not the disk filled.

const opened: { server?: http.Server; test?: TestApp; fake?: FakeModelServer } = {};

afterEach(async () => {
  opened.server?.closeAllConnections();
  opened.server?.close();
  await opened.test?.close();
  await opened.fake?.close();
  delete opened.server;
  delete opened.test;
  delete opened.fake;
});

async function serve(environment: Record<string, string> = {}) {
  opened.fake = await startFakeModelServer({ flavour: 'llama-server', declaredTools: true });
  const test = createTestApp({ modelUrl: opened.fake.url, environment: { MODEL_TOOLS: 'on', MODEL_VISION: 'off', ...environment } });
  opened.test = test;
  const server = await startHttpServer({
    port: 0,
    metrics: new Metrics(),
    log: memoryLog('error').log,
    health: healthAnswer,
    readiness: () => readinessAnswer(test.app, new PlatformStates()),
  });
  opened.server = server;
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  const readyz = async () => {
    const answer = await fetch(`http://127.0.0.1:${address.port}/readyz`);
    return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
  };
  return { readyz, test };
}

describe('/readyz: stores and disk', () => {
  it('ready with readable stores and enough space, and says how much is free', async () => {
    const { readyz } = await serve();
    const { status, body } = await readyz();
    expect(status).toBe(200);
    expect(body).toMatchObject({ stores: { state: true, knowledge: true, inbound: true }, disk: { enough: true, minFreeBytes: 100 * 1024 * 1024 } });
    expect(body.disk).toHaveProperty('freeBytes', expect.any(Number));
    expect(body).not.toHaveProperty('storeProblems');
  });

  it('state.db overwritten with garbage under the running bot: 503, the store and the reason named', async () => {
    const { readyz, test } = await serve();
    expect((await readyz()).status).toBe(200);
    const file = path.join(test.dataDir, 'state.db');
    // Checkpointed first, as SQLite does on its own every 1,000 WAL pages: the pages now live in the file only.
    const checkpoint = new Database(file);
    checkpoint.pragma('wal_checkpoint(TRUNCATE)');
    checkpoint.close();
    writeFileSync(file, Buffer.alloc(8192, 0x5a));
    const { status, body } = await readyz();
    expect(status).toBe(503);
    expect(body).toMatchObject({
      status: 'not-ready',
      stores: { state: false, knowledge: true, inbound: true },
      storeProblems: { state: 'state.db: file is not a database' },
    });
  });

  it('knowledge.db moved away under the running bot (its writes would go to a file no one opens again): 503, missing', async () => {
    const { readyz, test } = await serve();
    renameSync(path.join(test.dataDir, 'knowledge.db'), path.join(test.dataDir, 'knowledge.db.aside'));
    const { status, body } = await readyz();
    expect(status).toBe(503);
    expect(body).toMatchObject({ stores: { knowledge: false }, storeProblems: { knowledge: 'knowledge.db: missing' } });
  });

  it('less free space than DATA_DIR_MIN_FREE_MB: 503 naming the setting; 0 turns the check off', async () => {
    const free = statfsSync(process.cwd());
    // More than this disk has free: the threshold is what the test moves, not the disk.
    const aboveFree = Math.ceil((free.bavail * free.bsize) / 1024 / 1024) + 1024;
    const { readyz } = await serve({ DATA_DIR_MIN_FREE_MB: String(aboveFree) });
    const { status, body } = await readyz();
    expect(status).toBe(503);
    expect(body).toMatchObject({ status: 'not-ready', stores: { state: true, knowledge: true, inbound: true }, disk: { enough: false } });
    expect((body.disk as { problem: string }).problem).toMatch(new RegExp(`^DATA_DIR has \\d+ MB free, below DATA_DIR_MIN_FREE_MB=${aboveFree}$`));

    await opened.test?.close();
    delete opened.test;
    opened.server?.closeAllConnections();
    opened.server?.close();
    await opened.fake?.close();
    delete opened.fake;
    const off = await serve({ DATA_DIR_MIN_FREE_MB: '0' });
    expect((await off.readyz()).status).toBe(200);
  });
});
