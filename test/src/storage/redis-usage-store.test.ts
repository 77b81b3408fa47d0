import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedisClient, type RedisClient } from '../../../src/redis/redis-client.js';
import { silentLogger } from '../../../src/shared/log.js';
import { RedisUsageStore } from '../../../src/storage/redis-usage-store.js';
import { usageKeepDays } from '../../../src/storage/usage-store.js';
import { startRedisServer, type RedisServer } from '../../support/redis-server.js';
import { redisServerProgram, systemProgramPresent } from '../../support/system-programs.js';
import { entry, usageStoreContract } from '../../support/usage-store-contract.js';

const redisInstalled = systemProgramPresent(redisServerProgram);

// The usage store of several bot processes on one real redis-server: the same contract as SQLite's, no update lost
// when two connections add at once (HINCRBY), and each day's hash expiring past the window (bounded without a sweep).

let redis: RedisServer;
let first: RedisClient;
let second: RedisClient;
let storeNumber = 0;

beforeAll(async () => {
  if (!redisInstalled) return;
  redis = await startRedisServer();
  first = await connectRedisClient({ url: redis.url, log: silentLogger() });
  second = await connectRedisClient({ url: redis.url, log: silentLogger() });
});

afterAll(async () => {
  if (!redisInstalled) return;
  first.destroy();
  second.destroy();
  await redis.close();
});

/** A store under its own prefix, as another bot on the same Redis would be. */
const freshPrefix = () => `test${++storeNumber}:`;

describe.skipIf(!redisInstalled)('RedisUsageStore', () => {
  usageStoreContract(() => new RedisUsageStore({ client: first, keyPrefix: freshPrefix() }));

  it('loses no update when two processes add to the same user at once, and expires each day past the window', async () => {
    const keyPrefix = freshPrefix();
    const alpha = new RedisUsageStore({ client: first, keyPrefix });
    const beta = new RedisUsageStore({ client: second, keyPrefix });
    await Promise.all(
      Array.from({ length: 40 }, (_, index) =>
        (index % 2 === 0 ? alpha : beta).add(entry('2026-03-05', 'discord:7', 'discord:8', { turns: 1, modelMs: 250, promptTokens: 10 })),
      ),
    );
    const [row] = await beta.totals({ days: ['2026-03-05'] });
    expect(row?.counts).toMatchObject({ turns: 40, modelMs: 10_000, promptTokens: 400, searches: 0 });
    const ttl = await first.ttl(`${keyPrefix}usage:2026-03-05`);
    expect(ttl).toBeGreaterThan(usageKeepDays * 86_400);
    expect(ttl).toBeLessThanOrEqual((usageKeepDays + 1) * 86_400);
    // One key per day: nothing else is written.
    expect(await first.keys(`${keyPrefix}*`)).toEqual([`${keyPrefix}usage:2026-03-05`]);
  });
});
