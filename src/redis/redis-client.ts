import { createClient } from 'redis';
import { describeError } from '../shared/describe-error.js';
import type { Logger } from '../shared/log.js';

// One Redis connection per process (REDIS_URL), shared by every store that moves to Redis. node-redis reconnects
// on its own; with the offline queue off, a command while Redis is down fails at once instead of waiting — the
// turn that needed it says so in Thai, and the next one works again once Redis is back.

export type RedisClient = ReturnType<typeof createRedisClient>;

export interface RedisClientOptions {
  url: string;
  log: Logger;
  /** How long one connection attempt may take. */
  connectTimeoutMs?: number;
}

/** The URL without its password, for log lines and errors. */
export function redisAddress(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = '';
    parsed.username = '';
    return parsed.toString();
  } catch {
    return 'REDIS_URL';
  }
}

export function createRedisClient(options: RedisClientOptions) {
  const client = createClient({
    url: options.url,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: options.connectTimeoutMs ?? 5000,
      // Back off up to 2 s between attempts, for ever: a Redis restart must not need a bot restart.
      reconnectStrategy: (retries: number) => Math.min(100 * 2 ** Math.min(retries, 5), 2000),
    },
  });
  let down = false;
  // Without an 'error' listener node-redis would throw and end the process on a lost connection.
  client.on('error', (error: unknown) => {
    if (down) return;
    down = true;
    options.log.warn({ redis: redisAddress(options.url), error: describeError(error) }, 'Redis connection lost: retrying');
  });
  client.on('ready', () => {
    if (!down) return;
    down = false;
    options.log.info({ redis: redisAddress(options.url) }, 'Redis connection back');
  });
  return client;
}

/**
 * Connects, or throws a plain error naming what failed when Redis does not answer within the time-out (start-up
 * must not hang on a wrong REDIS_URL: node-redis alone would retry for ever).
 */
export async function connectRedisClient(options: RedisClientOptions): Promise<RedisClient> {
  const client = createRedisClient(options);
  const timeoutMs = options.connectTimeoutMs ?? 5000;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([client.connect(), timedOut]);
    await client.ping();
    return client;
  } catch (error) {
    client.destroy();
    throw new Error(`${redisAddress(options.url)}: ${describeError(error)}`, { cause: error });
  } finally {
    clearTimeout(timer);
  }
}
