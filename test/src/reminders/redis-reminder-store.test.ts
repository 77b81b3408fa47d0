import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedisClient, type RedisClient } from '../../../src/redis/redis-client.js';
import { defaultReminderLimits } from '../../../src/reminders/reminder-store.js';
import { RedisReminderStore } from '../../../src/reminders/redis-reminder-store.js';
import { silentLogger } from '../../../src/shared/log.js';
import { openRedisStorage } from '../../../src/storage/redis-storage.js';
import { newReminder, reminderStoreContract, t0, type StoredField } from '../../support/reminder-store-contract.js';
import { startRedisServer, type RedisServer } from '../../support/redis-server.js';
import { redisServerProgram, systemProgramPresent } from '../../support/system-programs.js';

const redisInstalled = systemProgramPresent(redisServerProgram);

// The reminder store of several bot processes on one real redis-server: the same contract as SQLite's, with the two
// claimers and the two adders on two connections (the Lua scripts keep each step atomic), and a new connection for
// a restart.

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

const hashFields: Record<StoredField, string> = { body: 'body', number: 'number', dueAt: 'due', sentParts: 'sent' };

describe.skipIf(!redisInstalled)('RedisReminderStore', () => {
  reminderStoreContract(async () => {
    const keyPrefix = freshPrefix();
    return {
      store: new RedisReminderStore({ client: first, keyPrefix }),
      other: new RedisReminderStore({ client: second, keyPrefix }),
      withCapacity: (capacity) => new RedisReminderStore({ client: second, keyPrefix, capacity }),
      reopen: async () => {
        const client = await connectRedisClient({ url: redis.url, log: silentLogger() });
        reconnected.push(client);
        return new RedisReminderStore({ client, keyPrefix });
      },
      corrupt: async (id, field, value) => {
        await first.hSet(`${keyPrefix}reminders:r:${id}`, hashFields[field], value);
      },
    };
  });

  it("lives under the storage's prefix as `reminders:…`, and cleans up an index that names a reminder that is gone", async () => {
    const keyPrefix = freshPrefix();
    const storage = openRedisStorage(first, { keyPrefix });
    const result = await storage.reminders.add(newReminder(), defaultReminderLimits);
    if (!result.added) throw new Error('not added');
    const keys = await first.keys(`${keyPrefix}*`);
    expect(keys.sort()).toEqual([`${keyPrefix}reminders:due`, `${keyPrefix}reminders:r:${result.reminder.id}`, `${keyPrefix}reminders:s:telegram:-100123`]);

    // A half-written reminder (its hash lost): the space's number is free again and the claim skips it.
    await first.del(`${keyPrefix}reminders:r:${result.reminder.id}`);
    await first.zAdd(`${keyPrefix}reminders:due`, { score: t0, value: 'ghost' });
    expect(await storage.reminders.list('telegram:-100123')).toEqual([]);
    expect(await storage.reminders.claimDue(t0, 60_000, 10)).toEqual([]);
    expect(await storage.reminders.count()).toBe(0);
    expect(await storage.reminders.add(newReminder(), defaultReminderLimits)).toMatchObject({ added: true, reminder: { number: 1 } });
    expect(await storage.reminders.count()).toBe(1);
    storage.close();
  });
});
