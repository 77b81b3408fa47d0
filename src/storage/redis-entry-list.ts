import type { RedisClient } from '../redis/redis-client.js';
import type { RedisLists } from './redis-storage.js';

// A bounded list per key on Redis, shared by every bot process, for the group chatter and the attachments kept for
// the next message. A read-modify-write of one keyv value is not atomic across processes (two processes recording
// in one group at once would each write back the list without the other's entry). Here each step is one MULTI,
// which Redis runs whole, between other clients' commands:
//   append: RPUSH + LTRIM (the newest `keep`) + PEXPIRE (the key's own expiry, renewed by each append)
//   take:   LRANGE + DEL (two processes never take the same entry, and an append lands before or after, never lost)

export class RedisEntryList<Entry> {
  private readonly client: RedisClient;
  private readonly keyPrefix: string;

  /** `parse` reads one stored entry back; undefined skips it (written by another version, or not ours). */
  constructor(
    lists: RedisLists,
    private readonly parse: (stored: unknown) => Entry | undefined,
  ) {
    this.client = lists.client;
    this.keyPrefix = `${lists.keyPrefix}list:`;
  }

  /** Adds `entries` at the end, keeps the newest `keep` and (re)sets the key's expiry to `ttlMs`. */
  async append(key: string, entries: readonly Entry[], bounds: { keep: number; ttlMs: number }): Promise<void> {
    if (entries.length === 0) return;
    const listKey = this.keyPrefix + key;
    await this.client
      .multi()
      .rPush(
        listKey,
        entries.map((entry) => JSON.stringify(entry)),
      )
      .lTrim(listKey, -Math.max(1, bounds.keep), -1)
      .pExpire(listKey, Math.max(1, bounds.ttlMs))
      .exec();
  }

  /** Oldest first. */
  async read(key: string): Promise<Entry[]> {
    return this.parsed(await this.client.lRange(this.keyPrefix + key, 0, -1));
  }

  /** Every entry, oldest first, removed in the same step. */
  async take(key: string): Promise<Entry[]> {
    const listKey = this.keyPrefix + key;
    const [range] = await this.client.multi().lRange(listKey, 0, -1).del(listKey).exec();
    return this.parsed(range);
  }

  private parsed(stored: unknown): Entry[] {
    if (!Array.isArray(stored)) return [];
    const entries: Entry[] = [];
    for (const item of stored) {
      if (typeof item !== 'string') continue;
      let value: unknown;
      try {
        value = JSON.parse(item);
      } catch {
        continue;
      }
      const entry = this.parse(value);
      if (entry !== undefined) entries.push(entry);
    }
    return entries;
  }
}
