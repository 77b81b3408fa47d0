import type { Keyv } from 'keyv';
import type { Logger } from '../shared/log.js';
import { PerKeyChain } from '../shared/per-key-chain.js';
import { isRecord } from '../shared/is-record.js';
import { RedisEntryList } from '../storage/redis-entry-list.js';
import type { RedisLists } from '../storage/redis-storage.js';

// Every change made on the admin page, who made it and when: one log line each (the durable trail, with the other
// logs), and the latest entries in the shared store for the sessions page. Entries name ids and names, never a
// document's text or a secret. With Redis (several processes) the entries are a Redis list appended in one MULTI
// (src/storage/redis-entry-list.ts), so two processes writing at once lose neither; on state.db one process owns the
// store, and its writes go one at a time.

export interface AuditEntry {
  at: number;
  who: string;
  action: string;
  detail: Record<string, string | number>;
}

/** Entries kept in the store (the log keeps them all). */
const keptEntries = 500;
const key = 'audit';
/** The Redis list's own expiry, renewed by each entry: a year without a change empties it. */
const redisListMs = 365 * 24 * 60 * 60 * 1000;

export class AuditLog {
  /** Appends in this process one at a time (a read-modify-write of the list). */
  private readonly chain = new PerKeyChain();
  private readonly list: RedisEntryList<AuditEntry> | undefined;

  constructor(
    private readonly store: Keyv,
    private readonly log: Logger,
    redis?: RedisLists,
  ) {
    if (redis) this.list = new RedisEntryList(redis, (stored) => (isAuditEntry(stored) ? stored : undefined));
  }

  async write(entry: AuditEntry): Promise<void> {
    this.log.info({ audit: entry }, 'admin page: change');
    const { list } = this;
    if (list) return list.append(key, [entry], { keep: keptEntries, ttlMs: redisListMs });
    await this.chain.run(key, async () => {
      const entries = await this.latest();
      await this.store.set(key, [entry, ...entries].slice(0, keptEntries));
    });
  }

  /** Newest first. */
  async latest(): Promise<AuditEntry[]> {
    if (this.list) return (await this.list.read(key)).reverse();
    const stored: unknown = await this.store.get(key);
    return Array.isArray(stored) ? stored.filter(isAuditEntry) : [];
  }
}

function isAuditEntry(value: unknown): value is AuditEntry {
  return isRecord(value) && typeof value.at === 'number' && typeof value.who === 'string' && typeof value.action === 'string' && isRecord(value.detail);
}
