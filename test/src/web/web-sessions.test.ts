import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedisClient, type RedisClient } from '../../../src/redis/redis-client.js';
import { silentLogger } from '../../../src/shared/log.js';
import { openRedisStorage } from '../../../src/storage/redis-storage.js';
import { openStorage, type Storage } from '../../../src/storage/storage.js';
import { WebSessions, type WebGrant } from '../../../src/web/web-sessions.js';
import { startRedisServer, type RedisServer } from '../../support/redis-server.js';
import { redisServerProgram, systemProgramPresent } from '../../support/system-programs.js';

// The admin page's one-time links and sessions, on SQLite and on a real redis-server shared by two "processes":
// a link is spent once whoever opens it, sessions end when idle, when old, and everywhere at `/web logout all`.

const redisInstalled = systemProgramPresent(redisServerProgram);
const grant: WebGrant = { adminId: 'telegram:1001', name: 'สมชาย', scope: { kind: 'spaces', spaceKeys: ['telegram:-100555'] }, language: 'th' };
const limits = { loginTokenMs: 10 * 60_000, idleMs: 30 * 60_000, absoluteMs: 12 * 60 * 60_000 };

function contract(open: () => { first: Storage; second: Storage }) {
  let clock = Date.UTC(2026, 11, 7, 3, 0, 0);
  const now = () => clock;
  const pair = () => {
    const { first, second } = open();
    return { one: new WebSessions(first.web, limits, now), two: new WebSessions(second.web, limits, now) };
  };

  it('spends a link once, even when two processes open it at the same moment', async () => {
    const { one, two } = pair();
    for (let round = 0; round < 10; round++) {
      const token = await one.issueLoginToken(grant);
      const spent = await Promise.all([one.spendLoginToken(token), two.spendLoginToken(token), one.spendLoginToken(token)]);
      expect(spent.filter(Boolean)).toHaveLength(1);
    }
  });

  it('keeps the grant in the session, and finds it from the other process by its cookie only', async () => {
    const { one, two } = pair();
    const spent = await one.spendLoginToken(await one.issueLoginToken(grant));
    expect(spent?.session).toMatchObject({ adminId: 'telegram:1001', name: 'สมชาย', scope: grant.scope });
    const found = await two.sessionOf(spent?.cookie);
    expect(found?.id).toBe(spent?.session.id);
    expect(found?.csrfToken).toBe(spent?.session.csrfToken);
    // The store names it by the cookie's hash: the cookie itself is nowhere in it.
    expect(await two.sessionOf(spent?.session.id)).toBeUndefined();
  });

  it('lets a link expire, and ends a session idle too long or too old', async () => {
    const { one } = pair();
    const late = await one.issueLoginToken(grant);
    clock += limits.loginTokenMs + 1;
    expect(await one.spendLoginToken(late)).toBeUndefined();
    const idle = await one.spendLoginToken(await one.issueLoginToken(grant));
    clock += limits.idleMs;
    expect(await one.sessionOf(idle?.cookie)).toBeUndefined();
    const busy = await one.spendLoginToken(await one.issueLoginToken(grant));
    for (let used = 0; used < 47; used++) {
      clock += limits.idleMs / 2;
      expect(await one.sessionOf(busy?.cookie)).toBeDefined();
    }
    clock += limits.idleMs / 2;
    expect(await one.sessionOf(busy?.cookie)).toBeUndefined();
  });

  it('lists the sessions and ends them all at /web logout all, in every process', async () => {
    const { one, two } = pair();
    const adminId = `telegram:${clock}`;
    const first = await one.spendLoginToken(await one.issueLoginToken({ ...grant, adminId }));
    const second = await two.spendLoginToken(await two.issueLoginToken({ ...grant, adminId }));
    expect((await two.list(adminId)).map((session) => session.id).sort()).toEqual([first?.session.id, second?.session.id].sort());
    expect(await one.endAll(adminId)).toBe(2);
    expect(await two.sessionOf(first?.cookie)).toBeUndefined();
    expect(await two.sessionOf(second?.cookie)).toBeUndefined();
    expect(await one.list(adminId)).toEqual([]);
    // A new log-in after it works.
    const third = await one.spendLoginToken(await one.issueLoginToken({ ...grant, adminId }));
    expect(await two.sessionOf(third?.cookie)).toBeDefined();
  });

  it('reads a value of the wrong shape in the store as no session', async () => {
    const { first } = open();
    const sessions = new WebSessions(first.web, limits, now);
    const spent = await sessions.spendLoginToken(await sessions.issueLoginToken(grant));
    await first.web.set(`session:${spent?.session.id}`, { adminId: 42, scope: 'everything' });
    expect(await sessions.sessionOf(spent?.cookie)).toBeUndefined();
  });
}

describe('WebSessions on SQLite (state.db)', () => {
  const storage = openStorage(':memory:');
  afterAll(() => storage.close());
  contract(() => ({ first: storage, second: storage }));
});

let redis: RedisServer;
let clients: RedisClient[] = [];
beforeAll(async () => {
  if (!redisInstalled) return;
  redis = await startRedisServer();
  clients = [await connectRedisClient({ url: redis.url, log: silentLogger() }), await connectRedisClient({ url: redis.url, log: silentLogger() })];
});
afterAll(async () => {
  if (!redisInstalled) return;
  for (const client of clients) client.destroy();
  await redis.close();
});

describe.skipIf(!redisInstalled)('WebSessions on Redis, two processes', () => {
  let prefix = 0;
  contract(() => {
    const keyPrefix = `web${++prefix}:`;
    return { first: openRedisStorage(clients[0] as RedisClient, { keyPrefix }), second: openRedisStorage(clients[1] as RedisClient, { keyPrefix }) };
  });
});
