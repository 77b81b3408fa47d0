import { describeError } from '../shared/describe-error.js';
import type { RedisClient } from './redis-client.js';

// Whether what Redis acknowledged survives a Redis restart. The inbound queue tells the platform "received" once
// Redis has the message: without the append-only file (AOF) a restart forgets every message not yet answered, and
// RDB snapshots alone lose whatever came after the last one. `appendfsync no` leaves the writes to the kernel for up
// to 30 s. So: durable = `appendonly yes` with `appendfsync everysec` (at most a second at a power cut) or `always`.
// Managed Redis often forbids CONFIG: then INFO persistence says whether the AOF is on (not its fsync policy).

export interface RedisPersistence {
  /** Where the answer came from; `unknown`: neither CONFIG GET nor INFO could be read (`reason` says why). */
  source: 'config' | 'info' | 'unknown';
  durable: boolean;
  appendonly?: boolean;
  /** `always`, `everysec` or `no`; unknown from INFO. */
  appendfsync?: string;
  /** The RDB snapshot rule (`save`), empty when off; unknown from INFO. */
  save?: string;
  reason?: string;
}

const durableFsync = new Set(['always', 'everysec']);

/** Reads Redis's persistence settings: CONFIG GET first, INFO persistence when CONFIG is refused. Never rejects. */
export async function readRedisPersistence(client: RedisClient): Promise<RedisPersistence> {
  let configRefused: string;
  try {
    // One name per CONFIG GET: Redis before 7 takes only one.
    const [appendonly, appendfsync = 'everysec', save = ''] = await Promise.all(['appendonly', 'appendfsync', 'save'].map((name) => configValue(client, name)));
    if (appendonly === undefined) throw new Error('CONFIG GET appendonly gave no value');
    const enabled = appendonly.toLowerCase() === 'yes';
    return { source: 'config', durable: enabled && durableFsync.has(appendfsync), appendonly: enabled, appendfsync, save };
  } catch (error) {
    configRefused = describeError(error);
  }
  try {
    const info = await client.info('persistence');
    const aof = /^aof_enabled:(\d)\r?$/m.exec(info)?.[1];
    if (aof === undefined) throw new Error('INFO persistence has no aof_enabled line');
    return { source: 'info', durable: aof === '1', appendonly: aof === '1' };
  } catch (error) {
    return { source: 'unknown', durable: false, reason: `CONFIG GET: ${configRefused}; INFO persistence: ${describeError(error)}` };
  }
}

async function configValue(client: RedisClient, name: string): Promise<string | undefined> {
  const reply: Record<string, unknown> = await client.configGet(name);
  const value = reply[name];
  return typeof value === 'string' ? value : undefined;
}

/** The settings as read, for the start-up line: `appendonly no, save ""` or `INFO: aof_enabled:0`. */
export function describePersistence(persistence: RedisPersistence): string {
  if (persistence.source === 'info') return `INFO persistence: aof_enabled:${persistence.appendonly ? 1 : 0}`;
  if (persistence.source === 'unknown') return persistence.reason ?? 'unknown';
  const aof = persistence.appendonly ? `appendonly yes, appendfsync ${persistence.appendfsync ?? '?'}` : 'appendonly no';
  return `${aof}, save "${persistence.save ?? ''}"`;
}
