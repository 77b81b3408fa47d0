import { Keyv } from 'keyv';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { guardProvider } from '../../../agent/tools/web-search/providers/guarded-provider.js';
import type { SearchProvider } from '../../../agent/tools/web-search/types.js';
import { createRedisSearchLimiter, type RedisSearchLimiter } from '../../../src/limits/redis-search-limiter.js';
import { connectRedisClient, type RedisClient } from '../../../src/redis/redis-client.js';
import type { JobLimit } from '../../../src/shared/job-limiter.js';
import { silentLogger } from '../../../src/shared/log.js';
import { startRedisServer, type RedisServer } from '../../support/redis-server.js';
import { redisServerProgram, systemProgramPresent } from '../../support/system-programs.js';

const redisInstalled = systemProgramPresent(redisServerProgram);

// The web-search limiter of two bot processes (two connections) on one real redis-server: every job runs, never
// more at once than maxConcurrent across both (start and end recorded by the jobs themselves), a holder that
// vanished frees its slot when its lease ends, a long job keeps its slot by renewing, and a Redis that is down
// fails the search (the job does not run) instead of hanging, working again once Redis is back.

let redis: RedisServer;
let first: RedisClient;
let second: RedisClient;
let admin: RedisClient;
const limiters: RedisSearchLimiter[] = [];
let nameNumber = 0;

beforeAll(async () => {
  redis = await startRedisServer();
  first = await connectRedisClient({ url: redis.url, log: silentLogger() });
  second = await connectRedisClient({ url: redis.url, log: silentLogger() });
  admin = await connectRedisClient({ url: redis.url, log: silentLogger() });
});

afterEach(async () => {
  await Promise.all(limiters.splice(0).map((limiter) => limiter.close()));
});

afterAll(async () => {
  for (const client of [first, second, admin]) client.destroy();
  await redis.close();
});

function limiterOn(client: RedisClient, options: { leaseMs?: number } = {}): RedisSearchLimiter {
  const made = createRedisSearchLimiter({ client, pollMs: 20, ...options });
  limiters.push(made);
  return made;
}

interface Run {
  process: string;
  start: number;
  end: number;
}

/** A job that records when it ran (one clock: both "processes" live in this test process). */
function recordedJob(runs: Run[], process: string, workMs: number, inFlight: { now: number; most: number }) {
  return async (): Promise<string> => {
    const start = performance.now();
    inFlight.now += 1;
    inFlight.most = Math.max(inFlight.most, inFlight.now);
    await new Promise((resolve) => setTimeout(resolve, workMs)); // the job's work, not a wait for an event
    inFlight.now -= 1;
    runs.push({ process, start, end: performance.now() });
    return process;
  };
}

/** How often Redis ran `command` (INFO commandstats). */
async function callsOf(command: 'evalsha' | 'zrem'): Promise<number> {
  const info = await admin.info('commandstats');
  const match = new RegExp(`^cmdstat_${command}:calls=(\\d{1,12}),`, 'm').exec(info);
  return Number(match?.[1] ?? 0);
}

const freshName = () => `test-${++nameNumber}`;

describe.skipIf(!redisInstalled)('Redis search limiter', () => {
  it('runs every job of two processes, one at a time for maxConcurrent 1', async () => {
    const name = freshName();
    // Jobs last longer than minTime: only the concurrency limit keeps them apart, not the spacing.
    const limit: JobLimit = { maxConcurrent: 1, minTime: 50 };
    const alpha = limiterOn(first).factory(name, limit);
    const beta = limiterOn(second).factory(name, limit);
    const runs: Run[] = [];
    const inFlight = { now: 0, most: 0 };
    const releasesBefore = await callsOf('zrem');
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        index % 2 === 0 ? alpha.schedule(recordedJob(runs, 'alpha', 120, inFlight)) : beta.schedule(recordedJob(runs, 'beta', 120, inFlight)),
      ),
    );
    expect(results.filter((process) => process === 'alpha')).toHaveLength(4);
    expect(runs).toHaveLength(8);
    expect(inFlight.most).toBe(1);
    const byStart = [...runs].sort((left, right) => left.start - right.start);
    for (let index = 1; index < byStart.length; index++) {
      expect(byStart[index]?.start).toBeGreaterThanOrEqual(byStart[index - 1]?.end ?? Infinity);
    }
    expect(new Set(runs.map((run) => run.process))).toEqual(new Set(['alpha', 'beta']));
    // One release per job.
    expect(await callsOf('zrem')).toBe(releasesBefore + 8);
  });

  it('lets maxConcurrent jobs of two processes run at once, and no more', async () => {
    const name = freshName();
    const limit: JobLimit = { maxConcurrent: 2, minTime: 0 };
    const alpha = limiterOn(first).factory(name, limit);
    const beta = limiterOn(second).factory(name, limit);
    const inFlight = { now: 0, most: 0 };
    let bothRunning: () => void = () => undefined;
    const paired = new Promise<void>((resolve) => (bothRunning = resolve));
    // Each job holds its slot until two run side by side (proof that the limit is 2, not 1), then works a while
    // (a third one let in beside them would be seen).
    const job = async () => {
      inFlight.now += 1;
      inFlight.most = Math.max(inFlight.most, inFlight.now);
      if (inFlight.now === 2) bothRunning();
      await paired;
      await new Promise((resolve) => setTimeout(resolve, 60));
      inFlight.now -= 1;
    };
    await Promise.all(Array.from({ length: 6 }, (_, index) => (index % 2 === 0 ? alpha : beta).schedule(job)));
    expect(inFlight.most).toBe(2);
  });

  it('frees the slot of a process that vanished once its lease ends, and a long job keeps its slot by renewing', async () => {
    const name = freshName();
    const limit: JobLimit = { maxConcurrent: 1, minTime: 0 };
    const leaseMs = 300;
    const third = await connectRedisClient({ url: redis.url, log: silentLogger() });
    const vanishing = limiterOn(third, { leaseMs }).factory(name, limit);
    const beta = limiterOn(second, { leaseMs }).factory(name, limit);
    let started: () => void = () => undefined;
    const hasStarted = new Promise<void>((resolve) => (started = resolve));
    let finish: () => void = () => undefined;
    const held = vanishing.schedule(async () => {
      started();
      await new Promise<void>((resolve) => (finish = resolve));
      return 'vanished';
    });
    await hasStarted;
    third.destroy(); // no renewal, no release: only the lease's end frees the slot
    expect(await beta.schedule(() => Promise.resolve('took over'))).toBe('took over');
    finish();
    expect(await held).toBe('vanished');

    const runs: Run[] = [];
    const inFlight = { now: 0, most: 0 };
    const alpha = limiterOn(first, { leaseMs }).factory(name, limit);
    // The first job lasts three leases: only its renewals keep the second from starting beside it.
    await Promise.all([alpha.schedule(recordedJob(runs, 'alpha', leaseMs * 3, inFlight)), beta.schedule(recordedJob(runs, 'beta', 10, inFlight))]);
    expect(runs).toHaveLength(2);
    expect(inFlight.most).toBe(1);
  });

  it('fails the search without running it while Redis is down, and works again once it is back', async () => {
    const name = freshName();
    const shared = limiterOn(first);
    let searches = 0;
    const provider: SearchProvider = {
      name: 'brave',
      siteRestriction: 'query',
      search: () => {
        searches += 1;
        return Promise.resolve({ ok: true, results: [{ title: 't', url: 'https://example.org/', snippet: 's' }], cached: false });
      },
    };
    const limiter = shared.factory(name, { maxConcurrent: 1, minTime: 100 });
    const guarded = guardProvider(provider, { cache: new Keyv(), ttlSeconds: 60, log: silentLogger(), limiter: () => limiter });
    await redis.stop();
    try {
      await expect(limiter.schedule(() => Promise.resolve('ran'))).rejects.toThrow(Error);
      expect(await guarded.search({ query: 'a', thai: false }, new AbortController().signal)).toMatchObject({ ok: false, kind: 'unreachable' });
      expect(searches).toBe(0);
    } finally {
      await redis.start();
    }
    await vi.waitFor(async () => expect(await limiter.schedule(() => Promise.resolve('ran'))).toBe('ran'), { timeout: 10_000, interval: 100 });
    expect(await guarded.search({ query: 'b', thai: false }, new AbortController().signal)).toMatchObject({ ok: true });
    expect(searches).toBe(1);
  });

  it('refuses jobs once closed', async () => {
    const made = limiterOn(first);
    const limiter = made.factory(freshName(), { maxConcurrent: 1, minTime: 0 });
    await made.close();
    await expect(limiter.schedule(() => Promise.resolve(1))).rejects.toThrow(/closed/);
  });
});
