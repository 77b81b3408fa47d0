import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import Bottleneck from 'bottleneck';
import { LuaScript } from '../redis/lua-script.js';
import { connectRedisClient, type RedisClient, type RedisClientOptions } from '../redis/redis-client.js';
import type { JobLimit, JobLimiter, JobLimiterFactory } from '../shared/job-limiter.js';
import { redisCallWithin } from './redis-call-within.js';

// The web-search provider limit (maxConcurrent + minTime between starts) shared by every bot process on one Redis.
//
// Why not bottleneck's own clustering (2.19.5, datastore 'ioredis', ioredis 5.11, redis-server 7.0.15), measured
// with two instances sharing an id (one process, a connection pair each), maxConcurrent 1, minTime 200, 20 jobs of
// 30 ms: starts never overlapped and were 196.8–201.5 ms apart, at 63 commands run by Redis per job (3.75 script
// calls from the client), and the process exited 58 ms after disconnect(). But it does not
// survive Redis losing its keys: its recovery compares the error to 'SETTINGS_KEY_NOT_FOUND', and Redis 7 reports
// 'ERR SETTINGS_KEY_NOT_FOUND', so after a Redis restart (or its own idle `timeout` expiring the keys) every
// schedule() fails for good until the process restarts; while Redis was down, schedule() hung (ioredis queues).
// rate-limiter-flexible's RateLimiterQueue counts points per whole-second window: no concurrency limit, no spacing
// (two calls at 0.99 s and 1.01 s pass a 1-per-second window), so it cannot keep Brave's 1 request/s either.
//
// So: one Lua script reserves a start (Redis TIME: one clock for every process) and a lease in a sorted set of
// holders, atomically; the job waits for its start, runs, and removes its lease. A holder that died is dropped when
// its lease ends; a long job renews its lease every leaseMs/3.
// Measured (two OS processes × 10 jobs of 30 ms, maxConcurrent 1, minTime 200, 3 runs): no overlap,
// starts 193.6–206.4 ms apart as the jobs saw them (mean 200.0: Redis spaces the reservations exactly, each process
// learns its start one round trip late), each process exited 1–2 ms after close(). Round trips per job: 2 alone
// (EVALSHA + ZREM; one EVAL more after a Redis restart forgot the script), 4.6–5.6 under that contention (an
// EVALSHA per 50 ms poll while the other process holds the slot); 23–28 commands run inside Redis per job then.
// Not fair across processes: a process that frees the slot often takes it again before a poller asks.
// After a Redis restart the state is empty: the jobs running then may overlap with new ones once, then it holds.

/** ARGV: holders key, next-start key, token, maxConcurrent, minTime, leaseMs. Returns {1, wait ms} or {0, retry ms}. */
const acquireScript = new LuaScript(`
local holders, nextStart, token = ARGV[1], ARGV[2], ARGV[3]
local maxConcurrent, minTime, lease = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', holders, '-inf', now)
if redis.call('ZCARD', holders) >= maxConcurrent then
  local first = redis.call('ZRANGE', holders, 0, 0, 'WITHSCORES')
  return {0, tonumber(first[2]) - now}
end
local start = math.max(now, tonumber(redis.call('GET', nextStart) or '0'))
redis.call('ZADD', holders, start + lease, token)
local last = redis.call('ZRANGE', holders, -1, -1, 'WITHSCORES')
redis.call('PEXPIRE', holders, tonumber(last[2]) - now + 1)
if minTime > 0 then redis.call('SET', nextStart, start + minTime, 'PX', start + minTime - now + 1) end
return {1, start - now}
`);

/** ARGV: holders key, token, leaseMs. Extends a lease that still exists. */
const renewScript = new LuaScript(`
local holders, token, lease = ARGV[1], ARGV[2], tonumber(ARGV[3])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
if redis.call('ZADD', holders, 'XX', 'CH', now + lease, token) == 1 then
  local last = redis.call('ZRANGE', holders, -1, -1, 'WITHSCORES')
  redis.call('PEXPIRE', holders, tonumber(last[2]) - now + 1)
end
return 1
`);

export interface RedisSearchLimiterOptions {
  client: RedisClient;
  /** Default `saeng:search:`, then the provider's name. */
  keyPrefix?: string;
  /** A holder that died frees its slot after this long; a running job renews it every third of it. */
  leaseMs?: number;
  /** How often a job waiting for a slot held by another process asks again. */
  pollMs?: number;
  /** A job that got no slot in this long is refused (the search fails, the turn goes on). */
  maxWaitMs?: number;
  /** How long one Redis call may take. */
  commandTimeoutMs?: number;
}

export interface RedisSearchLimiter {
  /** Hand to createWebTools({ limiter }). */
  factory: JobLimiterFactory;
  /** Refuses waiting jobs and new ones; closes the client only when this limiter opened it. */
  close(): Promise<void>;
}

type Settings = Required<Omit<RedisSearchLimiterOptions, 'client'>> & { client: RedisClient };

function slotReply(reply: unknown): { granted: boolean; ms: number } {
  if (!Array.isArray(reply) || typeof reply[0] !== 'number' || typeof reply[1] !== 'number') {
    throw new Error('unexpected reply from the search limiter script');
  }
  return { granted: reply[0] === 1, ms: Math.max(0, reply[1]) };
}

class RedisJobLimiter implements JobLimiter {
  /** This process's jobs in arrival order, at most maxConcurrent of them asking Redis for a slot at once. */
  private readonly local: Bottleneck;
  private readonly holdersKey: string;
  private readonly nextStartKey: string;
  private closed = false;

  constructor(
    name: string,
    private readonly limit: JobLimit,
    private readonly settings: Settings,
  ) {
    if (limit.maxConcurrent < 1) throw new Error(`maxConcurrent must be at least 1, got ${limit.maxConcurrent}`);
    this.local = new Bottleneck({ maxConcurrent: limit.maxConcurrent });
    this.holdersKey = `${settings.keyPrefix}${name}:holders`;
    this.nextStartKey = `${settings.keyPrefix}${name}:next`;
  }

  schedule<Result>(job: () => Promise<Result>): Promise<Result> {
    if (this.closed) return Promise.reject(new Error('the search limiter is closed'));
    return this.local.schedule(() => this.runShared(job));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.local.stop({ dropWaitingJobs: true });
  }

  private async runShared<Result>(job: () => Promise<Result>): Promise<Result> {
    const token = randomUUID();
    const wait = await this.acquire(token);
    if (wait > 0) await sleep(wait);
    const { client, leaseMs, commandTimeoutMs } = this.settings;
    const renewal = setInterval(() => {
      // A missed renewal only shortens the lease; the job goes on.
      redisCallWithin(renewScript.run(client, [this.holdersKey, token, leaseMs]), commandTimeoutMs).catch(() => undefined);
    }, leaseMs / 3);
    renewal.unref();
    try {
      return await job();
    } finally {
      clearInterval(renewal);
      // A failed release frees the slot when the lease ends; the job's result stands.
      await redisCallWithin(client.zRem(this.holdersKey, token), commandTimeoutMs).catch(() => undefined);
    }
  }

  /** Waits until the script grants a slot; returns how long to wait for the reserved start. */
  private async acquire(token: string): Promise<number> {
    const { client, leaseMs, pollMs, maxWaitMs, commandTimeoutMs } = this.settings;
    const args = [this.holdersKey, this.nextStartKey, token, this.limit.maxConcurrent, this.limit.minTime, leaseMs];
    const giveUpAt = Date.now() + maxWaitMs;
    for (;;) {
      if (this.closed) throw new Error('the search limiter is closed');
      const slot = slotReply(await redisCallWithin(acquireScript.run(client, args), commandTimeoutMs));
      if (slot.granted) return slot.ms;
      if (Date.now() >= giveUpAt) throw new Error(`no search slot free within ${maxWaitMs} ms`);
      await sleep(Math.max(1, Math.min(pollMs, slot.ms, giveUpAt - Date.now())));
    }
  }
}

/** A limiter factory on a client the caller owns (and closes). */
export function createRedisSearchLimiter(options: RedisSearchLimiterOptions, ownsClient = false): RedisSearchLimiter {
  const settings: Settings = {
    client: options.client,
    keyPrefix: options.keyPrefix ?? 'saeng:search:',
    leaseMs: options.leaseMs ?? 15_000,
    pollMs: options.pollMs ?? 50,
    maxWaitMs: options.maxWaitMs ?? 60_000,
    commandTimeoutMs: options.commandTimeoutMs ?? 2000,
  };
  const made: RedisJobLimiter[] = [];
  return {
    factory: (name, limit) => {
      const limiter = new RedisJobLimiter(name, limit, settings);
      made.push(limiter);
      return limiter;
    },
    close: async () => {
      await Promise.all(made.map((limiter) => limiter.close()));
      if (ownsClient && settings.client.isOpen) settings.client.destroy();
    },
  };
}

/** A limiter factory on a connection of its own to REDIS_URL, closed by its close(). */
export async function connectRedisSearchLimiter(
  connection: RedisClientOptions,
  options: Omit<RedisSearchLimiterOptions, 'client'> = {},
): Promise<RedisSearchLimiter> {
  return createRedisSearchLimiter({ ...options, client: await connectRedisClient(connection) }, true);
}
