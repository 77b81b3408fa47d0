import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { connectRedisClient, type RedisClient } from '../../../src/redis/redis-client.js';
import { createRedisLease, type RedisSingletonLease } from '../../../src/redis/redis-lease.js';
import type { HeldLease } from '../../../src/shared/lease.js';
import { silentLogger } from '../../../src/shared/log.js';
import { startRedisServer, type RedisServer } from '../../support/redis-server.js';
import { redisServerProgram, systemProgramPresent } from '../../support/system-programs.js';

const redisInstalled = systemProgramPresent(redisServerProgram);

// The lease against a real redis-server: one holder at a time, a release hands it over, a holder whose renewals
// stop loses it and the other takes it once the key expired, and a Redis restart loses it and lets it be taken again.

const ttlMs = 600;
let redis: RedisServer;
let first: RedisClient;
let second: RedisClient;
const cleanups: (() => Promise<void>)[] = [];
let leaseNumber = 0;

beforeAll(async () => {
  redis = await startRedisServer();
  first = await connectRedisClient({ url: redis.url, log: silentLogger() });
  second = await connectRedisClient({ url: redis.url, log: silentLogger() });
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

afterAll(async () => {
  first.destroy();
  second.destroy();
  await redis.close();
});

function lease(client: RedisClient, name: string): RedisSingletonLease {
  const made = createRedisLease({ client, name, ttlMs });
  cleanups.push(() => made.close());
  return made;
}

/** Two leases of one fresh name on the two connections. */
function pair(): [RedisSingletonLease, RedisSingletonLease] {
  leaseNumber += 1;
  const name = `test-${leaseNumber}`;
  return [lease(first, name), lease(second, name)];
}

/** How often Redis ran `command` (INFO commandstats): the attempts and renewals are counted there, not guessed. */
async function callsOf(command: 'set' | 'eval'): Promise<number> {
  const info = await first.info('commandstats');
  const match = new RegExp(`^cmdstat_${command}:calls=(\\d{1,12}),`, 'm').exec(info);
  return Number(match?.[1] ?? 0);
}

function pending<Value>(promise: Promise<Value>): { settled: () => boolean; promise: Promise<Value> } {
  let settled = false;
  void promise.finally(() => (settled = true));
  return { settled: () => settled, promise };
}

async function take(owner: RedisSingletonLease): Promise<HeldLease> {
  const held = await owner.acquire(new AbortController().signal);
  if (!held) throw new Error('the lease was not taken');
  return held;
}

describe.skipIf(!redisInstalled)('Redis lease (SET NX PX, compare-and-renew, compare-and-delete)', () => {
  it('is held by one of two processes at a time, beyond its ttl by renewals, and a release hands it over', async () => {
    const [alpha, beta] = pair();
    const alphaHeld = await take(alpha);
    const setsBefore = await callsOf('set');
    const evalsBefore = await callsOf('eval');
    const betaWaiting = pending(beta.acquire(new AbortController().signal));
    // beta asked twice and was refused, and alpha renewed four times (4 × ttl/3 > ttl): the key outlived its ttl.
    await vi.waitFor(async () => expect(await callsOf('set')).toBeGreaterThanOrEqual(setsBefore + 2), { timeout: 5000, interval: 20 });
    await vi.waitFor(async () => expect(await callsOf('eval')).toBeGreaterThanOrEqual(evalsBefore + 4), { timeout: 5000, interval: 20 });
    expect(betaWaiting.settled()).toBe(false);
    expect(await first.get(alpha.key)).toBe(alpha.owner);

    await alphaHeld.release();
    const betaHeld = await betaWaiting.promise;
    expect(betaHeld).toBeDefined();
    expect(await first.get(beta.key)).toBe(beta.owner);
    // A release of a lease no longer ours deletes nothing.
    await alphaHeld.release();
    expect(await first.get(beta.key)).toBe(beta.owner);
    await betaHeld?.release();
    expect(await first.get(beta.key)).toBeNull();
  });

  it('is lost when a renewal finds another owner in the key; the other takes it once that key expired', async () => {
    const [alpha, beta] = pair();
    const alphaHeld = await take(alpha);
    const betaWaiting = beta.acquire(new AbortController().signal);
    await first.set(alpha.key, 'someone-else', { expiration: { type: 'PX', value: ttlMs } });
    await alphaHeld.lost;
    expect(await betaWaiting).toBeDefined();
    expect(await first.get(beta.key)).toBe(beta.owner);
  });

  it('is lost when its holder cannot reach Redis for a whole ttl (its client destroyed); the other takes it after', async () => {
    const own = await connectRedisClient({ url: redis.url, log: silentLogger() });
    leaseNumber += 1;
    const name = `test-${leaseNumber}`;
    const alpha = createRedisLease({ client: own, name, ttlMs });
    const beta = lease(second, name);
    const alphaHeld = await take(alpha);
    const betaWaiting = pending(beta.acquire(new AbortController().signal));
    own.destroy();
    await alphaHeld.lost;
    expect(await betaWaiting.promise).toBeDefined();
    expect(await first.get(beta.key)).toBe(beta.owner);
  });

  it('ends a waiting acquire with undefined when its signal aborts', async () => {
    const [alpha, beta] = pair();
    await take(alpha);
    const abort = new AbortController();
    const waiting = beta.acquire(abort.signal);
    abort.abort();
    expect(await waiting).toBeUndefined();
    expect(await first.get(alpha.key)).toBe(alpha.owner);
  });

  it('is lost while Redis is down and can be taken again once it is back', async () => {
    const [alpha, beta] = pair();
    const alphaHeld = await take(alpha);
    await redis.stop();
    await alphaHeld.lost;
    await redis.start();
    // The clients reconnect on their own; acquire keeps asking until Redis answers.
    const betaHeld = await take(beta);
    expect(await second.get(beta.key)).toBe(beta.owner);
    await betaHeld.release();
  });
});
