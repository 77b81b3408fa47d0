import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { GroupContext } from '../../../src/pipeline/group-context.js';
import { RecentAttachments } from '../../../src/pipeline/recent-attachments.js';
import { moveSpace } from '../../../src/pipeline/space-move.js';
import { openSqliteKnowledgeStore } from '../../../src/knowledge/sqlite/sqlite-knowledge-store.js';
import { connectRedisClient, type RedisClient } from '../../../src/redis/redis-client.js';
import { silentLogger } from '../../../src/shared/log.js';
import type { Attachment, InboundMessage } from '../../../src/shared/types.js';
import { openRedisStorage, type RedisStorage } from '../../../src/storage/redis-storage.js';
import { inboundMessage, manualClock, photo } from '../../support/inbound-message.js';
import { startRedisServer, type RedisServer } from '../../support/redis-server.js';
import { redisServerProgram, systemProgramPresent } from '../../support/system-programs.js';

const redisInstalled = systemProgramPresent(redisServerProgram);

// The keyv stores on a real redis-server, as several bot processes share them: two connections stand for two
// processes. Each test has its own key prefix, so none sees another's keys.

let redis: RedisServer;
let first: RedisClient;
let second: RedisClient;
let prefixNumber = 0;
const opened: RedisStorage[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
  first = await connectRedisClient({ url: redis.url, log: silentLogger() });
  second = await connectRedisClient({ url: redis.url, log: silentLogger() });
});

afterEach(() => opened.splice(0).forEach((storage) => storage.close()));

afterAll(async () => {
  first.destroy();
  second.destroy();
  await redis.close();
});

/** Two storages with one fresh prefix, one on each connection ("two processes"). */
function pair(): { prefix: string; one: RedisStorage; other: RedisStorage } {
  prefixNumber += 1;
  const prefix = `test${prefixNumber}:`;
  const one = openRedisStorage(first, { keyPrefix: prefix });
  const other = openRedisStorage(second, { keyPrefix: prefix });
  opened.push(one, other);
  return { prefix, one, other };
}

/** What `promise` settled to within `ms`, or 'still waiting': a bound, so a hung command fails fast. */
async function within<Value>(promise: Promise<Value>, ms: number): Promise<{ value: Value } | { error: unknown } | 'still waiting'> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<'still waiting'>((resolve) => (timer = setTimeout(() => resolve('still waiting'), ms)));
  try {
    return await Promise.race([
      promise.then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      ),
      bound,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

// The LINE adapter's sent-message ids go through InboundHandler.rememberRecord/hasRecord: src/app.ts wires them to
// these two calls on the cache namespace.
const records = (storage: RedisStorage) => ({
  remember: async (key: string, ttlSeconds: number) => void (await storage.cache.set(`adapter-record:${key}`, true, ttlSeconds * 1000)),
  has: async (key: string) => (await storage.cache.get(`adapter-record:${key}`)) === true,
});

describe.skipIf(!redisInstalled)('Redis storage', () => {
  it('shares history and caches between two processes, under `<prefix>history:` and `<prefix>cache:`', async () => {
    const { prefix, one, other } = pair();
    await one.history.set('telegram:-100', [{ question: 'ถาม', answer: 'ตอบ' }]);
    await other.cache.set('search:abc', { results: ['x'] }, 60_000);
    expect(await other.history.get('telegram:-100')).toEqual([{ question: 'ถาม', answer: 'ตอบ' }]);
    expect(await one.cache.get('search:abc')).toEqual({ results: ['x'] });
    expect(await first.exists([`${prefix}history:telegram:-100`, `${prefix}cache:search:abc`])).toBe(2);
    // A history has no expiry; a cache entry has Redis's own.
    expect(await first.pTTL(`${prefix}history:telegram:-100`)).toBe(-1);
    await other.history.delete('telegram:-100');
    expect(await one.history.get('telegram:-100')).toBeUndefined();
  });

  it('sets a TTL as the key’s Redis expiry: the key itself goes away', async () => {
    const { prefix, one, other } = pair();
    await one.cache.set('short', 1, 300);
    const remaining = await first.pTTL(`${prefix}cache:short`);
    expect(remaining).toBeGreaterThan(0);
    expect(remaining).toBeLessThanOrEqual(300);
    await vi.waitFor(async () => expect(await second.exists(`${prefix}cache:short`)).toBe(0), { timeout: 5000, interval: 25 });
    expect(await other.cache.get('short')).toBeUndefined();
  });

  it('clears one namespace only: not the other namespace, another prefix, another app’s keys or the lists', async () => {
    const { prefix, one, other } = pair();
    const neighbour = pair();
    await one.history.set('k', 'history');
    await one.cache.set('k', 'cache');
    await one.cache.set('j', 'cache', 60_000);
    await neighbour.one.cache.set('k', 'neighbour');
    await first.set('other-app:k', 'theirs');
    await first.set(`${prefix}cachex:k`, 'look-alike');
    const group = new GroupContext({ store: one.cache, redis: one.redis, maxMessages: 5, language: 'th', now: () => new Date() });
    await group.record(inboundMessage({ messageId: 'g1', text: 'สวัสดี' }));

    await other.cache.clear();
    expect(await one.cache.get('k')).toBeUndefined();
    expect(await one.cache.get('j')).toBeUndefined();
    expect(await one.history.get('k')).toBe('history');
    expect(await neighbour.other.cache.get('k')).toBe('neighbour');
    expect(await first.get('other-app:k')).toBe('theirs');
    expect(await first.get(`${prefix}cachex:k`)).toBe('look-alike');
    expect(await group.contextFor(inboundMessage({ messageId: 'q', mentionsBot: true }))).toContain('Somchai: สวัสดี');
    await first.del('other-app:k');
  });

  it('keeps a LINE sent-message id for the other process, with a real expiry', async () => {
    const { prefix, one, other } = pair();
    await records(one).remember('line-sent:5001', 3600);
    expect(await records(other).has('line-sent:5001')).toBe(true);
    expect(await records(other).has('line-sent:5002')).toBe(false);
    const remaining = await second.pTTL(`${prefix}cache:adapter-record:line-sent:5001`);
    expect(remaining).toBeGreaterThan(3_500_000);
    expect(remaining).toBeLessThanOrEqual(3_600_000);
  });

  it('moves a space’s history on Redis, seen by the other process; a history already under the new key wins', async () => {
    const { one, other } = pair();
    const knowledge = openSqliteKnowledgeStore({ path: ':memory:', log: silentLogger() });
    try {
      await one.history.set('telegram:-400', [{ question: 'เก่า', answer: 'ย้าย' }]);
      await moveSpace({ history: one.history, knowledge, log: silentLogger() }, { from: 'telegram:-400', to: 'telegram:-100400' });
      expect(await other.history.get('telegram:-100400')).toEqual([{ question: 'เก่า', answer: 'ย้าย' }]);
      expect(await other.history.get('telegram:-400')).toBeUndefined();

      await one.history.set('telegram:-500', [{ question: 'เก่า', answer: 'ทิ้ง' }]);
      await one.history.set('telegram:-100500', [{ question: 'ใหม่', answer: 'เก็บ' }]);
      await moveSpace({ history: other.history, knowledge, log: silentLogger() }, { from: 'telegram:-500', to: 'telegram:-100500' });
      expect(await one.history.get('telegram:-100500')).toEqual([{ question: 'ใหม่', answer: 'เก็บ' }]);
      expect(await one.history.get('telegram:-500')).toBeUndefined();
    } finally {
      await knowledge.close();
    }
  });

  it('close() leaves a shared client open, without the listeners it added; a storage that made its own client closes it', async () => {
    const listening = first.listenerCount('error');
    const { one, other } = pair();
    expect(first.listenerCount('error')).toBeGreaterThan(listening);
    one.close();
    expect(first.listenerCount('error')).toBe(listening);
    expect(await one.healthy()).toBe(false);
    expect(first.isOpen).toBe(true);
    await other.cache.set('still', 'works');
    expect(await other.cache.get('still')).toBe('works');

    const owning = await openRedisStorage(redis.url, { log: silentLogger(), keyPrefix: 'owning:' });
    expect(await owning.healthy()).toBe(true);
    owning.close();
    expect(owning.redis.client.isOpen).toBe(false);
    expect(await owning.healthy()).toBe(false);
    // No reconnect behind the owner's back: a command on the closed store fails.
    await expect(owning.cache.get('x')).rejects.toThrow('closed');
  });
});

describe.skipIf(!redisInstalled)('group context and recent attachments on Redis, two processes at once', () => {
  let nextId = 1;
  const said = (name: string, text: string): InboundMessage =>
    inboundMessage({ messageId: `m${nextId++}`, sender: { id: name, name, isPlatformAdmin: false }, text });
  const question = inboundMessage({ messageId: 'q', text: 'สรุปให้หน่อย', mentionsBot: true });

  it('loses no group message when two processes record in one group at the same time', async () => {
    const { one, other } = pair();
    const clock = manualClock();
    const options = { maxMessages: 50, language: 'th' as const, now: clock.now };
    const alpha = new GroupContext({ store: one.cache, redis: one.redis, ...options });
    const beta = new GroupContext({ store: other.cache, redis: other.redis, ...options });
    const sent = Array.from({ length: 40 }, (_, index) => said(index % 2 === 0 ? 'A' : 'B', `ข้อความ ${index}`));
    await Promise.all(sent.map((message, index) => (index % 2 === 0 ? alpha : beta).record(message)));
    const lines = (await beta.contextFor(question))?.split('\n').slice(1) ?? [];
    expect(lines.toSorted()).toEqual(sent.map((message) => `- ${message.sender.name}: ${message.text}`).toSorted());
  });

  it('keeps the newest GROUP_CONTEXT_MESSAGES, counts a re-delivered message once and expires with the age bound', async () => {
    const { prefix, one, other } = pair();
    const clock = manualClock();
    const alpha = new GroupContext({ store: one.cache, redis: one.redis, maxMessages: 3, maxAgeSeconds: 600, language: 'th', now: clock.now });
    const beta = new GroupContext({ store: other.cache, redis: other.redis, maxMessages: 3, maxAgeSeconds: 600, language: 'th', now: clock.now });
    for (const number of [1, 2, 3, 4]) await alpha.record(said('A', `ข้อความ ${number}`));
    const again = said('B', 'ซ้ำ');
    await alpha.record(again);
    await beta.record(again);
    expect((await beta.contextFor(question))?.split('\n').slice(1)).toEqual(['- A: ข้อความ 4', '- B: ซ้ำ']);
    const listKey = `${prefix}list:group-context:telegram:-100`;
    expect(await first.lLen(listKey)).toBe(3);
    expect(await first.pTTL(listKey)).toBeGreaterThan(590_000);
    clock.advance(600_000);
    expect(await alpha.contextFor(question)).toBeUndefined();
  });

  const unaddressed = (attachments: Attachment[], messageId: string) => inboundMessage({ attachments, messageId });
  const addressed = inboundMessage({ text: 'รูปนี้คืออะไร', mentionsBot: true, messageId: 'ask' });
  const document = (id: string): Attachment => ({ kind: 'file', mime: 'application/pdf', name: `${id}.pdf`, size: 2000, reference: { kind: 'message', id } });

  it('loses no image remembered by two processes at once, and hands each to one taker only', async () => {
    const { one, other } = pair();
    const clock = manualClock();
    const alpha = new RecentAttachments({ store: one.cache, redis: one.redis, windowSeconds: 180, now: clock.now, maxRemembered: 50 });
    const beta = new RecentAttachments({ store: other.cache, redis: other.redis, windowSeconds: 180, now: clock.now, maxRemembered: 50 });
    const names = Array.from({ length: 30 }, (_, index) => `p${index}`);
    await Promise.all(names.map((name, index) => (index % 2 === 0 ? alpha : beta).remember(unaddressed([photo(name)], name))));
    const [taken, takenToo] = await Promise.all([alpha.takeFor(addressed, 'image'), beta.takeFor(addressed, 'image')]);
    const all = [...taken, ...takenToo].map((attachment) => attachment.name);
    expect(all.toSorted()).toEqual(names.map((name) => `${name}.jpg`).toSorted());
  });

  it('hands images to a question and files to a command across processes, each kind once, in order, each reference once', async () => {
    const { one, other } = pair();
    const clock = manualClock();
    const alpha = new RecentAttachments({ store: one.cache, redis: one.redis, windowSeconds: 180, now: clock.now });
    const beta = new RecentAttachments({ store: other.cache, redis: other.redis, windowSeconds: 180, now: clock.now });
    await alpha.remember(unaddressed([photo('a'), document('manual'), photo('b')], '1'));
    await beta.remember(unaddressed([photo('a')], '2'));
    expect(await beta.takeFor(addressed, 'file')).toEqual([document('manual')]);
    expect(await alpha.takeFor(addressed, 'file')).toEqual([]);
    expect((await alpha.takeFor(addressed, 'image')).map((attachment) => attachment.name)).toEqual(['b.jpg', 'a.jpg']);
    expect(await beta.takeFor(addressed, 'image')).toEqual([]);

    await alpha.remember(unaddressed([photo('late')], '3'));
    clock.advance(180_000);
    expect(await beta.takeFor(addressed, 'image')).toEqual([]);
  });
});

// Last: it stops and restarts the server (which comes back empty).
describe.skipIf(!redisInstalled)('Redis going away and coming back', () => {
  it('healthy() turns false and commands reject at once while Redis is down; both work again after it is back', async () => {
    const { one, other } = pair();
    expect(await one.healthy()).toBe(true);
    await redis.stop();
    try {
      await vi.waitFor(async () => expect(await one.healthy()).toBe(false), { timeout: 5000, interval: 25 });
      // Rejected, not "not found" and not a silent no-op write: the offline queue is off, so nothing waits.
      const reading = await within(other.history.get('telegram:-100'), 2000);
      expect(reading).toMatchObject({ error: expect.any(Error) });
      const writing = await within(one.cache.set('while-down', 1, 60_000), 2000);
      expect(writing).toMatchObject({ error: expect.any(Error) });
    } finally {
      await redis.start();
    }
    await vi.waitFor(async () => expect((await Promise.all([one.healthy(), other.healthy()])).every(Boolean)).toBe(true), { timeout: 10_000, interval: 50 });
    await one.cache.set('after', 'restart', 60_000);
    expect(await other.cache.get('after')).toBe('restart');
  });
});
