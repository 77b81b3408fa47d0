import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedisClient, type RedisClient } from '../../../src/redis/redis-client.js';
import { silentLogger } from '../../../src/shared/log.js';
import { openRedisStorage } from '../../../src/storage/redis-storage.js';
import { openStorage } from '../../../src/storage/storage.js';
import { AuditLog, type AuditEntry } from '../../../src/web/audit-log.js';
import { startRedisServer, type RedisServer } from '../../support/redis-server.js';
import { redisServerProgram, systemProgramPresent } from '../../support/system-programs.js';

// The admin page's audit list: newest first, the latest 500 kept, unreadable entries skipped. On Redis two processes
// write at once and neither loses an entry (one list, appended in one MULTI); on state.db one process writes in turn.

const redisInstalled = systemProgramPresent(redisServerProgram);

const entry = (index: number, who = 'telegram:1'): AuditEntry => ({ at: 1_765_000_000_000 + index, who, action: 'group-setting', detail: { index } });

describe('AuditLog on state.db', () => {
  it('keeps the latest 500, newest first, and skips what it cannot read', async () => {
    const storage = openStorage(':memory:');
    try {
      const audit = new AuditLog(storage.web, silentLogger());
      await Promise.all(Array.from({ length: 505 }, (_, index) => audit.write(entry(index))));
      const latest = await audit.latest();
      expect(latest).toHaveLength(500);
      expect(latest[0]).toEqual(entry(504));
      expect(latest.at(-1)).toEqual(entry(5));
      await storage.web.set('audit', [entry(1), { at: 'yesterday' }, null]);
      expect(await audit.latest()).toEqual([entry(1)]);
    } finally {
      storage.close();
    }
  });
});

describe.skipIf(!redisInstalled)('AuditLog on Redis', () => {
  let redis: RedisServer;
  const clients: RedisClient[] = [];
  beforeAll(async () => {
    redis = await startRedisServer();
    for (let index = 0; index < 2; index++) clients.push(await connectRedisClient({ url: redis.url, log: silentLogger() }));
  });
  afterAll(async () => {
    for (const client of clients) client.destroy();
    await redis.close();
  });

  it('loses no entry when two processes write at once, keeps the latest 500 and reads them newest first', async () => {
    const [first, second] = clients.map((client) => openRedisStorage(client, { keyPrefix: 'audit-test:' }));
    if (!first || !second) throw new Error('no storage');
    const one = new AuditLog(first.web, silentLogger(), first.redis);
    const other = new AuditLog(second.web, silentLogger(), second.redis);
    await Promise.all(Array.from({ length: 100 }, (_, index) => (index % 2 ? other : one).write(entry(index, index % 2 ? 'discord:2' : 'telegram:1'))));
    const latest = await one.latest();
    expect(latest).toHaveLength(100);
    expect(new Set(latest.map((each) => each.detail.index))).toEqual(new Set(Array.from({ length: 100 }, (_, index) => index)));
    expect(await other.latest()).toEqual(latest);
    for (let index = 100; index < 520; index++) await one.write(entry(index));
    const kept = await other.latest();
    expect(kept).toHaveLength(500);
    expect(kept[0]).toEqual(entry(519));
    await clients[0]?.rPush('audit-test:list:audit', ['not json', JSON.stringify({ at: 1 })]);
    expect((await one.latest())[0]).toEqual(entry(519));
  });
});
