import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisGroupLogStore } from '../../../src/catchup/redis-group-log-store.js';
import { connectRedisClient, type RedisClient } from '../../../src/redis/redis-client.js';
import { silentLogger } from '../../../src/shared/log.js';
import { openRedisStorage } from '../../../src/storage/redis-storage.js';
import { groupLogStoreContract, logEntry, t0 } from '../../support/group-log-store-contract.js';
import { startRedisServer, type RedisServer } from '../../support/redis-server.js';
import { redisServerProgram, systemProgramPresent } from '../../support/system-programs.js';

const redisInstalled = systemProgramPresent(redisServerProgram);

// The catch-up log of several bot processes on one real redis-server: the same contract as SQLite's, the two
// processes on two connections (the Lua scripts keep each step atomic), and a new connection for a restart.

let redis: RedisServer;
let first: RedisClient;
let second: RedisClient;
const reconnected: RedisClient[] = [];
let storeNumber = 0;

beforeAll(async () => {
  if (!redisInstalled) return;
  redis = await startRedisServer();
  first = await connectRedisClient({ url: redis.url, log: silentLogger() });
  second = await connectRedisClient({ url: redis.url, log: silentLogger() });
});

afterAll(async () => {
  if (!redisInstalled) return;
  for (const client of [first, second, ...reconnected]) client.destroy();
  await redis.close();
});

/** A store under its own prefix, as another bot on the same Redis would be. */
const freshPrefix = () => `test${++storeNumber}:`;

describe.skipIf(!redisInstalled)('RedisGroupLogStore', () => {
  groupLogStoreContract(async () => {
    const keyPrefix = freshPrefix();
    return {
      store: new RedisGroupLogStore({ client: first, keyPrefix }),
      other: new RedisGroupLogStore({ client: second, keyPrefix }),
      bounded: (perSpace) => [new RedisGroupLogStore({ client: first, keyPrefix, perSpace }), new RedisGroupLogStore({ client: second, keyPrefix, perSpace })],
      reopen: async () => {
        const client = await connectRedisClient({ url: redis.url, log: silentLogger() });
        reconnected.push(client);
        return new RedisGroupLogStore({ client, keyPrefix });
      },
      corrupt: async (spaceKey, messageId, field, value) => {
        if (field === 'body') await first.hSet(`${keyPrefix}catchup:e:${spaceKey}`, messageId, String(value));
        else await first.zAdd(`${keyPrefix}catchup:t:${spaceKey}`, { score: Number(value), value: messageId });
      },
    };
  });

  it("lives under the storage's prefix as `catchup:…`, four keys a space, gone with the space; a lost body is skipped", async () => {
    const keyPrefix = freshPrefix();
    const storage = openRedisStorage(first, { keyPrefix });
    const space = logEntry(1, t0).spaceKey;
    expect(await storage.groupLog.append(logEntry(1, t0))).toBe(true);
    expect(await storage.groupLog.append(logEntry(2, t0 + 1))).toBe(true);
    const keys = await first.keys(`${keyPrefix}*`);
    expect(keys.sort()).toEqual(['e', 'l', 't', 'w'].map((kind) => `${keyPrefix}catchup:${kind}:${space}`));

    await first.hDel(`${keyPrefix}catchup:e:${space}`, '1');
    expect(await storage.groupLog.read(space, { from: 0, to: t0 + 9, limit: 10 })).toEqual([logEntry(2, t0 + 1)]);
    expect(await storage.groupLog.deleteSpace(space)).toBe(2);
    expect(await first.keys(`${keyPrefix}*`)).toEqual([]);
    storage.close();
  });
});
