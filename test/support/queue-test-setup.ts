import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { SqliteInboundQueue } from '../../src/queue/sqlite-inbound-queue.js';
import { memoryLog } from './memory-log.js';
import { startRedisServer, type RedisServer } from './redis-server.js';
import { redisServerProgram, systemProgramPresent } from './system-programs.js';

// The set-up the queue tests share: temporary DATA_DIRs with SQLite queues, closed and removed after each test, and
// (where installed) one redis-server for the file. Call at the top level of a test file.

export interface QueueTestSetup {
  redisInstalled: boolean;
  /** The file's redis-server (only when installed). */
  redisUrl(): string;
  /** Run after each test, newest first (a close before its folder's removal). */
  cleanups: (() => unknown)[];
  tempDir(): string;
  /** A SQLite queue on `dataDir`, closed after the test (open the same folder again: the next process). */
  sqliteQueue(dataDir: string): SqliteInboundQueue;
}

export function queueTestSetup(prefix: string, options: { redis?: boolean } = {}): QueueTestSetup {
  const redisInstalled = options.redis === true && systemProgramPresent(redisServerProgram);
  let redis: RedisServer | undefined;
  const cleanups: (() => unknown)[] = [];
  if (redisInstalled) {
    beforeAll(async () => {
      redis = await startRedisServer();
    });
    afterAll(async () => {
      await redis?.close();
    });
  }
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await Promise.resolve(cleanup()).catch(() => undefined);
  });
  return {
    redisInstalled,
    redisUrl: () => {
      if (!redis) throw new Error('no redis-server in this test file');
      return redis.url;
    },
    cleanups,
    tempDir: () => {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), `saeng-${prefix}-`));
      cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
      return dataDir;
    },
    sqliteQueue: (dataDir) => {
      const queue = new SqliteInboundQueue({ dataDir, dedupeTtlMs: 60_000, log: memoryLog().log });
      cleanups.push(() => queue.close());
      return queue;
    },
  };
}
