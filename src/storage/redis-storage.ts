import KeyvRedis, { type RedisClientConnectionType } from '@keyv/redis';
import { Keyv } from 'keyv';
import { RedisGroupLogStore } from '../catchup/redis-group-log-store.js';
import { RedisReminderStore } from '../reminders/redis-reminder-store.js';
import { connectRedisClient, type RedisClient } from '../redis/redis-client.js';
import type { Logger } from '../shared/log.js';
import type { Storage } from './storage.js';
import { RedisUsageStore } from './redis-usage-store.js';

// The keyv namespaces on Redis (REDIS_URL), shared by every bot process: history under `saeng:history:`, caches
// under `saeng:cache:`, space settings under `saeng:settings:`, the admin web page's sessions under `saeng:web:` (and beside them usage under `saeng:usage:`, reminders
// under `saeng:reminders:`, the catch-up log under `saeng:catchup:`). Keyv hands the TTL to @keyv/redis, which sets
// it as the key's own expiry (SET … PX), so Redis drops what expired. A namespace's clear() scans only its own
// prefix: other namespaces and other apps' keys stay.

export const defaultRedisKeyPrefix = 'saeng:';

/** Where the Redis-backed lists of group context and recent attachments live (the same server and prefix). */
export interface RedisLists {
  client: RedisClient;
  keyPrefix: string;
}

export interface RedisStorageOptions {
  /** Default `saeng:`; tests give each storage its own. */
  keyPrefix?: string;
  /** Whether close() closes the client. Default: false for a client handed in, true for one made from a URL. */
  ownsClient?: boolean;
  /** How long healthy() waits for the PING. */
  healthTimeoutMs?: number;
}

export interface RedisStorage extends Storage {
  /** For `new GroupContext({ redis })` and `new RecentAttachments({ redis })`. */
  redis: RedisLists;
}

/**
 * @keyv/redis connects a client that is not open, and destroys it when that fails — a client shared with other stores
 * must never be connected or closed from here: a closed one makes the command fail instead.
 */
class SharedClientKeyvRedis extends KeyvRedis<unknown> {
  override async getClient(): Promise<RedisClientConnectionType> {
    if (!this.client.isOpen) throw new Error('the Redis client is closed');
    return this.client;
  }
}

/** Over a connected client (`connectRedisClient`); the client stays its owner's unless `ownsClient`. */
export function openRedisStorage(client: RedisClient, options?: RedisStorageOptions): RedisStorage;
/** Connects to `url` first (rejects, without the password, when Redis does not answer); close() closes that client. */
export function openRedisStorage(url: string, options: RedisStorageOptions & { log: Logger; connectTimeoutMs?: number }): Promise<RedisStorage>;
export function openRedisStorage(
  source: RedisClient | string,
  options: RedisStorageOptions & { log?: Logger; connectTimeoutMs?: number } = {},
): RedisStorage | Promise<RedisStorage> {
  if (typeof source !== 'string') return storageOver(source, { ownsClient: false, ...options });
  const { log } = options;
  if (!log) throw new Error('openRedisStorage(url) needs a logger');
  return connectRedisClient({ url: source, log, connectTimeoutMs: options.connectTimeoutMs }).then((client) =>
    storageOver(client, { ownsClient: true, ...options }),
  );
}

/** The events @keyv/redis listens to on the client it is given (it never removes its listeners). */
const adapterEvents = ['error', 'connect', 'disconnect', 'reconnecting'] as const;

/** Runs `make`, and returns what it made with a function that removes the listeners it added to `client`. */
function withListenersUndone<Made>(client: RedisClient, make: () => Made): { made: Made; undo: () => void } {
  const before = new Map(adapterEvents.map((event) => [event, client.listeners(event)]));
  const made = make();
  const added = adapterEvents.flatMap((event) =>
    client
      .listeners(event)
      .filter((listener) => !before.get(event)?.includes(listener))
      .map((listener) => ({ event, listener })),
  );
  return { made, undo: () => added.forEach(({ event, listener }) => client.off(event, listener as (...args: unknown[]) => void)) };
}

function storageOver(client: RedisClient, options: RedisStorageOptions): RedisStorage {
  const keyPrefix = options.keyPrefix ?? defaultRedisKeyPrefix;
  const healthTimeoutMs = options.healthTimeoutMs ?? 2000;
  let closed = false;
  const open = (name: string) => {
    // Errors are thrown, not swallowed into "not found": a turn must not run on an empty history while Redis is down.
    const store = new SharedClientKeyvRedis(client, { keyPrefixSeparator: ':', throwOnErrors: true, throwOnConnectError: true });
    // Keyv sets the store's namespace to its own; useKeyPrefix off so the key is prefixed once: `saeng:history:<key>`.
    return new Keyv({ store, namespace: `${keyPrefix}${name}`, useKeyPrefix: false, throwOnErrors: true });
  };
  // A shared client outlives this storage: close() takes the adapters' listeners off it again.
  const { made: namespaces, undo } = withListenersUndone(client, () => ({
    history: open('history'),
    cache: open('cache'),
    settings: open('settings'),
    web: open('web'),
  }));
  return {
    ...namespaces,
    usage: new RedisUsageStore({ client, keyPrefix }),
    reminders: new RedisReminderStore({ client, keyPrefix }),
    groupLog: new RedisGroupLogStore({ client, keyPrefix }),
    redis: { client, keyPrefix },
    healthy: async () => (closed ? false : pings(client, healthTimeoutMs)),
    close: () => {
      if (closed) return;
      closed = true;
      undo();
      // Shutdown comes after the running turns finished: nothing is left in flight to wait for.
      if (options.ownsClient && client.isOpen) client.destroy();
    },
  };
}

/** One PING within `timeoutMs`; false on an error (the offline queue is off: a down server fails at once) or silence. */
async function pings(client: RedisClient, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const silence = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
  try {
    return await Promise.race([client.ping().then((answer) => answer === 'PONG'), silence]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
