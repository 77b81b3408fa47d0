import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { RedisClient } from '../redis/redis-client.js';
import { describeError } from '../shared/describe-error.js';
import { redisCallWithin } from './redis-call-within.js';
import type { UserQuota } from './user-quota.js';

// Per-user quota shared by every bot process on one Redis. The count is rate-limiter-flexible's RateLimiterRedis:
// with node-redis 5 it needs `useRedisPackage: true` (its own detection looks for a class named 'Commander';
// node-redis 5's client is named 'Class'), then one EVAL per take (SET NX EX + INCRBY + PTTL inside: atomic, a
// fixed window from the user's first message). The notice is one SET NX PX per refused message.
// Redis down: `take` rejects at once (offline queue off); Redis not answering: after `commandTimeoutMs`.

export interface RedisUserQuotaOptions {
  client: RedisClient;
  perMinute: number;
  /** The window; whole seconds (rate-limiter-flexible counts in seconds). Tests shorten it. */
  windowMs?: number;
  /** How long one Redis call may take before `take` rejects. */
  commandTimeoutMs?: number;
  keyPrefix?: string;
}

export class RedisUserQuota implements UserQuota {
  readonly perMinute: number;
  private readonly client: RedisClient;
  private readonly limiter: RateLimiterRedis;
  private readonly windowMs: number;
  private readonly commandTimeoutMs: number;
  private readonly keyPrefix: string;

  constructor(options: RedisUserQuotaOptions) {
    const windowMs = options.windowMs ?? 60_000;
    if (!Number.isInteger(windowMs / 1000) || windowMs < 1000) throw new Error(`windowMs must be whole seconds, got ${windowMs}`);
    this.perMinute = options.perMinute;
    this.client = options.client;
    this.windowMs = windowMs;
    this.commandTimeoutMs = options.commandTimeoutMs ?? 2000;
    this.keyPrefix = options.keyPrefix ?? 'saeng:quota:';
    this.limiter = new RateLimiterRedis({
      storeClient: options.client,
      useRedisPackage: true,
      // Not connected: reject at once, as a command would with the offline queue off.
      rejectIfRedisNotReady: true,
      points: options.perMinute,
      duration: windowMs / 1000,
      // rate-limiter-flexible joins prefix and key with ':'.
      keyPrefix: `${this.keyPrefix}count`,
    });
  }

  /** Takes one unit of the user's quota; false when it is used up. Rejects when Redis cannot be reached. */
  async take(userKey: string): Promise<boolean> {
    // The library rejects with its result when the quota is used up, with an Error when Redis failed.
    const taken = this.limiter.consume(userKey).then(
      () => true,
      (error: unknown) => {
        if (error instanceof RateLimiterRes) return false;
        throw error;
      },
    );
    try {
      return await this.bounded(taken);
    } catch (error) {
      throw new Error(`user quota: Redis failed: ${describeError(error)}`, { cause: error });
    }
  }

  /** True once per window per user, across processes: the first to set the marker sends the notice. */
  async shouldNotify(userKey: string): Promise<boolean> {
    const key = `${this.keyPrefix}notice:${userKey}`;
    const set = await this.bounded(this.client.set(key, '1', { NX: true, PX: this.windowMs }));
    return set === 'OK';
  }

  /** The client is shared: its owner closes it. */
  async close(): Promise<void> {}

  private bounded<Result>(work: Promise<Result>): Promise<Result> {
    return redisCallWithin(work, this.commandTimeoutMs);
  }
}
