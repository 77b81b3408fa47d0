import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { describeError } from '../shared/describe-error.js';
import type { HeldLease, SingletonLease } from '../shared/lease.js';
import type { Logger } from '../shared/log.js';
import type { RedisClient } from './redis-client.js';

// A lease one process holds at a time, on the shared Redis connection: the single-instance lock of the Redis docs
// ("Distributed Locks with Redis", https://redis.io/docs/latest/develop/use/patterns/distributed-locks/ — the
// correct implementation with a single instance): take it with SET key owner NX PX ttl, give it up with a script
// that deletes the key only while it still holds our owner id, and (our addition) renew it every ttl/3 with a
// script that extends the expiry only while it is ours. Redis keeps no lease beyond its ttl, so a holder that
// died frees it after at most ttl.

export interface RedisLeaseOptions {
  client: RedisClient;
  /** The key is `saeng:lease:<name>`. */
  name: string;
  /** How long the lease lasts without a renewal: a dead holder's lease is free again after this long. */
  ttlMs?: number;
  /** How often a waiting process tries to take it; default ttl/3. */
  retryMs?: number;
  log?: Logger;
}

export interface RedisSingletonLease extends SingletonLease {
  /** Who this process is in the key's value (host, pid and a random part). */
  readonly owner: string;
  readonly key: string;
  /** Gives up a held lease and ends a waiting acquire (it resolves with undefined). */
  close(): Promise<void>;
}

// → 1 renewed, 0 another owner holds it, -1 the key is gone (expired, or Redis lost its data: a restart without AOF).
const renewScript =
  "local holder = redis.call('get', KEYS[1]) if holder == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) elseif holder then return 0 else return -1 end";
const releaseScript = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

/** Resolves after `ms`, or at once when `signal` aborts; the timer never keeps the process alive. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    timer.unref();
    signal.addEventListener('abort', done, { once: true });
  });
}

/** One held lease: renewed every ttl/3; lost when a renewal finds another owner or none succeeded for a whole ttl. */
class RedisHeldLease implements HeldLease {
  readonly lost: Promise<void>;
  private markLost: () => void = () => undefined;
  private renewTimer: NodeJS.Timeout | undefined;
  private deadline: NodeJS.Timeout | undefined;
  private ended = false;

  /** `confirmedAt`: when the command that set the expiry was sent (Redis's expiry is no earlier than that + ttl). */
  constructor(
    private readonly lease: { client: RedisClient; key: string; owner: string; ttlMs: number; log: Logger | undefined },
    confirmedAt: number,
    private readonly onEnd: () => void,
  ) {
    this.lost = new Promise((resolve) => (this.markLost = resolve));
    this.confirmed(confirmedAt);
    this.scheduleRenewal();
  }

  async release(): Promise<void> {
    if (this.ended) return;
    this.end();
    const { client, key, owner } = this.lease;
    // A release that cannot reach Redis leaves the key to expire on its own.
    await client.eval(releaseScript, { keys: [key], arguments: [owner] }).catch(() => undefined);
  }

  private end(): void {
    this.ended = true;
    clearTimeout(this.renewTimer);
    clearTimeout(this.deadline);
    this.onEnd();
  }

  private lose(reason: string): void {
    if (this.ended) return;
    this.end();
    this.lease.log?.warn({ lease: this.lease.key, reason }, `lease lost: ${reason}`);
    this.markLost();
  }

  /** Once the expiry set at `sentAt` may have passed, the lease may be another's: lost. */
  private confirmed(sentAt: number): void {
    clearTimeout(this.deadline);
    const remaining = Math.max(0, sentAt + this.lease.ttlMs - performance.now());
    this.deadline = setTimeout(() => this.lose('not renewed within its ttl (Redis unreachable); another process may hold it now'), remaining);
    this.deadline.unref();
  }

  private scheduleRenewal(): void {
    if (this.ended) return;
    this.renewTimer = setTimeout(() => void this.renew(), Math.max(1, Math.floor(this.lease.ttlMs / 3)));
    this.renewTimer.unref();
  }

  private async renew(): Promise<void> {
    const { client, key, owner, ttlMs } = this.lease;
    const sentAt = performance.now();
    try {
      const renewed = await client.eval(renewScript, { keys: [key], arguments: [owner, String(ttlMs)] });
      if (this.ended) return;
      if (renewed === 0) return this.lose('another process holds it now');
      if (renewed !== 1) return this.lose('the key is gone from Redis, held by no process (expired, or Redis restarted without persistence)');
      this.confirmed(sentAt);
    } catch (error) {
      // Not lost yet: the key lives until the deadline; the next renewal may get through.
      this.lease.log?.debug({ lease: key, error: describeError(error) }, 'lease renewal failed: trying again');
    }
    this.scheduleRenewal();
  }
}

/** A lease named `name` for this process; each instance is one owner (one per process and name). */
export function createRedisLease(options: RedisLeaseOptions): RedisSingletonLease {
  const ttlMs = options.ttlMs ?? 15_000;
  const retryMs = options.retryMs ?? Math.max(1, Math.floor(ttlMs / 3));
  const key = `saeng:lease:${options.name}`;
  const owner = `${os.hostname()}:${process.pid}:${randomBytes(8).toString('hex')}`;
  const closing = new AbortController();
  let held: RedisHeldLease | undefined;
  const settings = { client: options.client, key, owner, ttlMs, log: options.log };

  const tryTake = async (): Promise<RedisHeldLease | undefined> => {
    const sentAt = performance.now();
    const answer = await options.client.set(key, owner, { condition: 'NX', expiration: { type: 'PX', value: ttlMs } });
    if (answer !== 'OK') return undefined;
    const lease: RedisHeldLease = new RedisHeldLease(settings, sentAt, () => {
      if (held === lease) held = undefined;
    });
    held = lease;
    return lease;
  };

  return {
    owner,
    key,
    acquire: async (signal) => {
      const stop = AbortSignal.any([signal, closing.signal]);
      while (!stop.aborted) {
        try {
          const taken = await tryTake();
          if (taken && stop.aborted) await taken.release();
          else if (taken) return taken;
        } catch (error) {
          options.log?.debug({ lease: key, error: describeError(error) }, 'lease not taken: Redis did not answer, trying again');
        }
        await pause(retryMs, stop);
      }
      return undefined;
    },
    close: async () => {
      closing.abort();
      await held?.release();
    },
  };
}
