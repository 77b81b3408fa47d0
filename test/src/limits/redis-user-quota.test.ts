import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RedisUserQuota } from '../../../src/limits/redis-user-quota.js';
import { connectRedisClient, type RedisClient } from '../../../src/redis/redis-client.js';
import { silentLogger } from '../../../src/shared/log.js';
import { startRedisServer, type RedisServer } from '../../support/redis-server.js';
import { redisServerProgram, systemProgramPresent } from '../../support/system-programs.js';

const redisInstalled = systemProgramPresent(redisServerProgram);

// The per-user quota of two bot processes (two connections) on one real redis-server: one budget per user across
// both, users apart, the window ends, one notice per window across both, and a Redis that is down or frozen makes
// `take` reject within a bound (the router must not hang on it), working again once Redis is back.

let redis: RedisServer;
let first: RedisClient;
let second: RedisClient;
let admin: RedisClient;
let userNumber = 0;

beforeAll(async () => {
  redis = await startRedisServer();
  first = await connectRedisClient({ url: redis.url, log: silentLogger() });
  second = await connectRedisClient({ url: redis.url, log: silentLogger() });
  admin = await connectRedisClient({ url: redis.url, log: silentLogger() });
});

afterAll(async () => {
  for (const client of [first, second, admin]) client.destroy();
  await redis.close();
});

const freshUser = () => `discord:user-${++userNumber}`;

/** How often Redis ran `command` (INFO commandstats). */
async function callsOf(command: 'eval' | 'set'): Promise<number> {
  const info = await admin.info('commandstats');
  const match = new RegExp(`^cmdstat_${command}:calls=(\\d{1,12}),`, 'm').exec(info);
  return Number(match?.[1] ?? 0);
}

/** Settles within `ms` or fails the test: a hang is a failure, not a slow pass. */
function within<Value>(promise: Promise<Value>, ms: number): Promise<Value> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => (timer = setTimeout(() => reject(new Error(`not settled within ${ms} ms`)), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

describe.skipIf(!redisInstalled)('RedisUserQuota', () => {
  it('shares one user budget across two processes: exactly perMinute of 12 interleaved takes pass, one EVAL each', async () => {
    const alpha = new RedisUserQuota({ client: first, perMinute: 5 });
    const beta = new RedisUserQuota({ client: second, perMinute: 5 });
    const user = freshUser();
    const evalsBefore = await callsOf('eval');
    const taken = await Promise.all(Array.from({ length: 12 }, (_, index) => (index % 2 === 0 ? alpha : beta).take(user)));
    expect(taken.filter(Boolean)).toHaveLength(5);
    expect(await callsOf('eval')).toBe(evalsBefore + 12);
    expect(await alpha.take(user)).toBe(false);
    expect(await beta.take(user)).toBe(false);
    expect(await admin.exists(`saeng:quota:count:${user}`)).toBe(1);
  });

  it('keeps users apart', async () => {
    const alpha = new RedisUserQuota({ client: first, perMinute: 2 });
    const beta = new RedisUserQuota({ client: second, perMinute: 2 });
    const [flooding, quiet] = [freshUser(), freshUser()];
    expect([await alpha.take(flooding), await beta.take(flooding), await alpha.take(flooding)]).toEqual([true, true, false]);
    expect([await beta.take(quiet), await alpha.take(quiet)]).toEqual([true, true]);
  });

  it('gives the budget back when the window ends', async () => {
    const alpha = new RedisUserQuota({ client: first, perMinute: 2, windowMs: 1000 });
    const beta = new RedisUserQuota({ client: second, perMinute: 2, windowMs: 1000 });
    const user = freshUser();
    let refused = false;
    // Bounded: a window that ended in between only means a few more takes before the refusal.
    for (let attempt = 0; attempt < 20 && !refused; attempt++) refused = !(await (attempt % 2 === 0 ? alpha : beta).take(user));
    expect(refused).toBe(true);
    await vi.waitFor(async () => expect(await beta.take(user)).toBe(true), { timeout: 5000, interval: 100 });
  });

  it('notifies once per window across both processes', async () => {
    const alpha = new RedisUserQuota({ client: first, perMinute: 1, windowMs: 1000 });
    const beta = new RedisUserQuota({ client: second, perMinute: 1, windowMs: 1000 });
    const [user, other] = [freshUser(), freshUser()];
    const answers = await Promise.all([alpha.shouldNotify(user), beta.shouldNotify(user), alpha.shouldNotify(user), beta.shouldNotify(user)]);
    expect(answers.filter(Boolean)).toHaveLength(1);
    expect(await beta.shouldNotify(other)).toBe(true);
    await vi.waitFor(async () => expect(await beta.shouldNotify(user)).toBe(true), { timeout: 5000, interval: 100 });
  });

  it('rejects within a bound while Redis does not answer (paused clients)', async () => {
    // A take that timed out still runs once Redis answers, and counts: a budget that every retry below cannot use up.
    const alpha = new RedisUserQuota({ client: first, perMinute: 100, commandTimeoutMs: 300 });
    const user = freshUser();
    expect(await alpha.take(user)).toBe(true);
    // Redis holds every command of every client for 1.5 s: the take has written its command and waits for a reply.
    await admin.sendCommand(['CLIENT', 'PAUSE', '1500', 'ALL']);
    await expect(within(alpha.take(user), 1200)).rejects.toThrow(/did not answer within 300 ms/);
    await expect(within(alpha.shouldNotify(user), 1200)).rejects.toThrow(/did not answer within 300 ms/);
    await vi.waitFor(async () => expect(await alpha.take(user)).toBe(true), { timeout: 5000, interval: 100 });
  });

  it('rejects at once while Redis is stopped, and works again once it is back', async () => {
    const alpha = new RedisUserQuota({ client: first, perMinute: 5 });
    const beta = new RedisUserQuota({ client: second, perMinute: 5 });
    const user = freshUser();
    expect(await alpha.take(user)).toBe(true);
    await redis.stop();
    try {
      await expect(within(alpha.take(user), 1000)).rejects.toThrow(/user quota: Redis failed/);
      await expect(within(beta.take(user), 1000)).rejects.toThrow(Error);
    } finally {
      await redis.start();
    }
    await vi.waitFor(async () => expect(await alpha.take(user)).toBe(true), { timeout: 10_000, interval: 100 });
    await vi.waitFor(async () => expect(await beta.take(user)).toBe(true), { timeout: 10_000, interval: 100 });
  });
});
